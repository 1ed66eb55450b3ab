/**
 * Text holding a UTF-16 surrogate without its other half (a JSON string can write one: "\ud800") is
 * not well-formed Unicode: it has no UTF-8 form, and encodeURI and encodeURIComponent throw URIError
 * on it. The API refuses such input (plugins/unusable-text.ts); values stored before that rule, or
 * coming from elsewhere, go through these helpers instead of the bare functions.
 */
const LONE_SURROGATE = /\p{Surrogate}/u;
const LONE_SURROGATES = /\p{Surrogate}/gu;

/** String.prototype.isWellFormed (ES2024, beyond the library the code is typed against). */
export function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** String.prototype.toWellFormed: each lone surrogate becomes U+FFFD, as URL and TextEncoder make it. */
export function toWellFormed(text: string): string {
  return text.replace(LONE_SURROGATES, '\ufffd');
}

/** encodeURI that never throws. */
export const encodeUriOf = (text: string): string => encodeURI(toWellFormed(text));

/** encodeURIComponent that never throws. */
export const encodeUriComponentOf = (text: string): string => encodeURIComponent(toWellFormed(text));
