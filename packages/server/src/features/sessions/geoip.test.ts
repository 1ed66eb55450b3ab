import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeTinyMmdb } from '../../../test/mmdb.ts';
import { openPlaceLookup } from './geoip.ts';

describe('approximate place from a local GeoIP database', () => {
  const dir = mkdtempSync(join(tmpdir(), 'passgate-geoip-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names the city and the country, the country in the reader’s language', async () => {
    const path = join(dir, 'city.mmdb');
    writeTinyMmdb(path, '203.0.113.0', 24, { city: { names: { en: 'Hanoi', de: 'Hanoi' } }, country: { iso_code: 'VN', names: { en: 'Vietnam' } } });
    const place = await openPlaceLookup(path);
    expect(place('203.0.113.7', 'en')).toBe('Hanoi, Vietnam');
    expect(place('203.0.113.7', 'vi')).toBe('Hanoi, Việt Nam');
    // Not in the database, not an address at all: no place, the list shows the address alone.
    expect(place('198.51.100.1', 'en')).toBeUndefined();
    expect(place('not-an-ip', 'en')).toBeUndefined();
    expect(place('2001:db8::1', 'en')).toBeUndefined();
  });

  it('refuses a file that is not a MaxMind database, naming GEOIP_DB', async () => {
    const path = join(dir, 'junk.mmdb');
    writeFileSync(path, 'not a database');
    await expect(openPlaceLookup(path)).rejects.toThrow(/GEOIP_DB/);
    await expect(openPlaceLookup(join(dir, 'missing.mmdb'))).rejects.toThrow(/GEOIP_DB/);
  });
});
