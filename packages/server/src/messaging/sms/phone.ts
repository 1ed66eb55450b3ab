/**
 * A phone number in E.164 for international gateways: a Vietnamese national number (0 and nine
 * digits) becomes +84 and the nine digits; a number that already starts with + is kept; anything
 * else is sent as given (the client's username policy allowed it).
 */
export function toE164(phone: string): string {
  const digits = phone.trim();
  if (digits.startsWith('+')) return digits;
  if (/^0\d{9}$/.test(digits)) return `+84${digits.slice(1)}`;
  if (/^84\d{9}$/.test(digits)) return `+${digits}`;
  return digits;
}

/** The number as Vietnamese gateways expect it: the national form 0xxxxxxxxx (+84 and 84 prefixes become 0). */
export function toVietnameseNational(phone: string): string {
  const value = phone.trim();
  if (/^\+84\d{9}$/.test(value)) return `0${value.slice(3)}`;
  if (/^84\d{9}$/.test(value)) return `0${value.slice(2)}`;
  return value;
}

/** True when the text needs Unicode (anything beyond 7-bit ASCII, e.g. Vietnamese diacritics). */
export function needsUnicode(text: string): boolean {
  return [...text].some((c) => c.charCodeAt(0) > 0x7f);
}
