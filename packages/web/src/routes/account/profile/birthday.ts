import { BIRTHDAY_MIN } from '@passgate/contract/rules';

/**
 * Birthdays travel as Unix seconds (SPEC.md section 3) and are shown and typed as DD/MM/YYYY
 * (section 9). A birthday is a calendar day, not an instant: it is sent as that day's midnight UTC
 * and read back in UTC, so the day never shifts with the browser's time zone.
 */

const DAY_SECONDS = 86_400;
const BIRTHDAY_PATTERN = /^(\d{2})\/(\d{2})\/(\d{4})$/;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * Unix seconds → "DD/MM/YYYY". The day is the one whose midnight UTC is nearest, so a birthday that
 * an older system stored as local midnight (Vietnam's is 17:00 UTC the day before) shows the day it meant.
 */
export function formatBirthday(seconds: number | null | undefined): string {
  if (seconds == null || !Number.isFinite(seconds)) return '';
  const date = new Date(Math.round(seconds / DAY_SECONDS) * DAY_SECONDS * 1000);
  return `${pad(date.getUTCDate())}/${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCFullYear(), 4)}`;
}

/** "DD/MM/YYYY" → that day's midnight UTC in Unix seconds; null when it is not a real date. */
export function parseBirthday(text: string): number | null {
  const match = BIRTHDAY_PATTERN.exec(text.trim());
  if (!match) return null;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 31/02 over to March and reads years 0 to 99 as 1900 to 1999: reject both.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.getTime() / 1000;
}

export type BirthdayProblem = 'format' | 'range';

/** Why a typed birthday cannot be saved: not DD/MM/YYYY (or no such day), or before 1900 or in the future. */
export function checkBirthday(text: string, now: Date = new Date()): BirthdayProblem | null {
  if (!text.trim()) return null;
  const seconds = parseBirthday(text);
  if (seconds === null) return 'format';
  return seconds < BIRTHDAY_MIN || seconds * 1000 > now.getTime() ? 'range' : null;
}

/**
 * The mask of the birthday field: digits only, slashes put in as the day and month fill up
 * ("01021990" → "01/02/1990"). No trailing slash is added, so deleting backwards works as expected.
 */
export function maskBirthday(input: string): string {
  const digits = input.replace(/\D/g, '').slice(0, 8);
  const parts = [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4)].filter(Boolean);
  return parts.join('/');
}
