/**
 * The one way the account area writes a moment (a sign-in, a security event): the day with the
 * month's name, and the time, in the conventions of the page's language.
 */
export function dateTimeFormat(language: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(language === 'en' ? 'en-GB' : 'vi-VN', { dateStyle: 'medium', timeStyle: 'short' });
}
