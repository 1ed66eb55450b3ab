/** A time of the API (ISO 8601) as the console's reader writes it, in their language and time zone. */
export function formatTime(iso: string, language: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(language === 'en' ? 'en-GB' : 'vi-VN', { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** The reader's offset from UTC in minutes east (Vietnam: 420), as the stats API wants it. */
export function utcOffsetMinutes(now: Date = new Date()): number {
  return -now.getTimezoneOffset();
}
