import { toWellFormed } from './unicode.ts';

/**
 * JSON columns: parsed with a fallback so a damaged value cannot crash a request. A lone surrogate
 * (JSON keeps one as an escape, "\ud800"; the API took such text before it refused it) reads back as
 * U+FFFD, as the drivers store one in a plain column: no text read from the database is other than
 * well-formed, for encodeURI here or in the SPA to throw on.
 */
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (text == null || text === '') return fallback;
  try {
    return JSON.parse(text, (_key, value: unknown) => (typeof value === 'string' ? toWellFormed(value) : value)) as T;
  } catch {
    return fallback;
  }
}

export function toJson(value: unknown): string {
  return JSON.stringify(value);
}

export const bool = (value: number | null | undefined): boolean => value === 1;
export const bit = (value: boolean | undefined | null): number => (value ? 1 : 0);
