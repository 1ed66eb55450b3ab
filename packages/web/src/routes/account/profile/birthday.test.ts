import { afterEach, describe, expect, it } from 'vitest';
import { checkBirthday, formatBirthday, maskBirthday, parseBirthday } from './birthday.ts';

const ORIGINAL_TZ = process.env.TZ;
/** Zones far apart on both sides of UTC, Vietnam's among them. */
const ZONES = ['UTC', 'Asia/Ho_Chi_Minh', 'America/Los_Angeles', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Asia/Kolkata'];
/** 01/02/1990 (1 February) at midnight UTC. */
const FEB_1_1990 = Date.UTC(1990, 1, 1) / 1000;

afterEach(() => {
  if (ORIGINAL_TZ === undefined) delete process.env.TZ;
  else process.env.TZ = ORIGINAL_TZ;
});

describe('birthday DD/MM/YYYY ⇄ Unix seconds', () => {
  it.each(ZONES)('round-trips 01/02/1990 as midnight UTC in the %s time zone', (zone) => {
    process.env.TZ = zone;
    // Node applies a TZ change at once: the local clock really is in that zone now (offsets of 2020).
    const offsetMinutes = new Date(Date.UTC(2020, 0, 15)).getTimezoneOffset();
    expect(offsetMinutes).toBe({ UTC: 0, 'Asia/Ho_Chi_Minh': -420, 'America/Los_Angeles': 480, 'Pacific/Kiritimati': -840, 'Pacific/Pago_Pago': 660, 'Asia/Kolkata': -330 }[zone]);

    expect(parseBirthday('01/02/1990')).toBe(FEB_1_1990);
    expect(parseBirthday('01/02/1990')).toBe(633_830_400);
    expect(formatBirthday(633_830_400)).toBe('01/02/1990');
    expect(formatBirthday(parseBirthday('01/02/1990'))).toBe('01/02/1990');
    for (const day of ['29/02/2000', '31/12/1999', '01/01/1900', '15/08/1985']) {
      expect(formatBirthday(parseBirthday(day))).toBe(day);
    }
  });

  it('reads a birthday stored as some zone’s local midnight as the day it meant', () => {
    // 01/02/1990 00:00 in Hanoi (UTC+7) is 31/01 17:00 UTC; in Los Angeles (UTC−8) it is 01/02 08:00 UTC.
    expect(formatBirthday(FEB_1_1990 - 7 * 3600)).toBe('01/02/1990');
    expect(formatBirthday(FEB_1_1990 + 8 * 3600)).toBe('01/02/1990');
  });

  it('shows nothing for no birthday', () => {
    expect(formatBirthday(null)).toBe('');
    expect(formatBirthday(undefined)).toBe('');
  });

  it('refuses what is not a real DD/MM/YYYY day', () => {
    for (const text of ['31/02/1990', '29/02/2001', '00/01/1990', '01/13/1990', '1/2/1990', '01-02-1990', '1990/02/01', '01/02/90', '']) {
      expect(parseBirthday(text), text).toBeNull();
    }
    expect(parseBirthday('29/02/2000')).toBe(Date.UTC(2000, 1, 29) / 1000);
  });

  it('accepts 01/01/1900 to today, and nothing outside', () => {
    const now = new Date(Date.UTC(2026, 5, 15, 12));
    expect(checkBirthday('', now)).toBeNull();
    expect(checkBirthday('01/01/1900', now)).toBeNull();
    expect(checkBirthday('15/06/2026', now)).toBeNull();
    expect(checkBirthday('31/12/1899', now)).toBe('range');
    expect(checkBirthday('16/06/2026', now)).toBe('range');
    expect(checkBirthday('31/02/1990', now)).toBe('format');
    expect(checkBirthday('01/02', now)).toBe('format');
  });
});

describe('the birthday mask', () => {
  it('puts the slashes in as the digits are typed, and keeps at most 8 digits', () => {
    expect(maskBirthday('0')).toBe('0');
    expect(maskBirthday('01')).toBe('01');
    expect(maskBirthday('010')).toBe('01/0');
    expect(maskBirthday('0102')).toBe('01/02');
    expect(maskBirthday('01021')).toBe('01/02/1');
    expect(maskBirthday('01021990')).toBe('01/02/1990');
    expect(maskBirthday('01/02/19901')).toBe('01/02/1990');
    expect(maskBirthday('01.02.1990')).toBe('01/02/1990');
  });

  it('lets a slash be deleted backwards', () => {
    // "01/02" with its last digit deleted is "01/0"; with the "0" deleted too, "01/" becomes "01".
    expect(maskBirthday('01/0')).toBe('01/0');
    expect(maskBirthday('01/')).toBe('01');
  });
});
