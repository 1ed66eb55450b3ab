/** JSON columns: parsed with a fallback so a damaged value cannot crash a request. */
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (text == null || text === '') return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export function toJson(value: unknown): string {
  return JSON.stringify(value);
}

export const bool = (value: number | null | undefined): boolean => value === 1;
export const bit = (value: boolean | undefined | null): number => (value ? 1 : 0);
