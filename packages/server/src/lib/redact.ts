/**
 * Keys whose values are secrets: never logged, never kept in audit records or error reports.
 * Matching is by key name, case-insensitive, anywhere in the object.
 */
const SECRET_KEY = /pass(word)?|secret|token|code|otp|authorization|cookie|challenge|mfa_?token|assertion|credential/i;
/** Keys that match the pattern above but are not secrets. */
const NOT_SECRET = new Set(['tokenType', 'token_type', 'challengeType', 'challenge_type', 'errorCode', 'code_challenge_method']);

export const REDACTED = '[redacted]';

export function isSecretKey(key: string): boolean {
  return !NOT_SECRET.has(key) && SECRET_KEY.test(key);
}

export function redactSecrets<T>(value: T, depth = 0): T {
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, depth + 1)) as T;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, isSecretKey(k) ? REDACTED : redactSecrets(v, depth + 1)]),
  ) as T;
}

/** Pino redaction paths for request logs: headers and query strings that carry secrets. */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'password',
  '*.password',
  'secret',
  '*.secret',
  'token',
  '*.token',
];

const EMAIL_ADDRESS = /[^\s<>()[\]"',;:@]+@[^\s<>()[\]"',;:@]+\.[^\s<>()[\]"',;:@]+/g;
// A phone number as a provider may echo it (+84 901 000 010, 0901000010, 84-901-000-010): seven
// digits or more, with the separators people and providers put between them. Shorter runs
// (HTTP statuses, a provider's error codes such as Twilio's 21211) stay readable.
const PHONE_NUMBER = /[+(]?\d(?:[\s().-]{0,2}\d){6,}/g;

/**
 * Text from outside (an SMS gateway's or an SMTP server's error) fit for a log line or an audit
 * record: the given secrets (the one-time code it was asked to deliver) and every e-mail address
 * and phone number it echoes are taken out, as gateways quote the request they refused.
 */
export function scrubProviderText(text: string, secrets: readonly string[] = []): string {
  let scrubbed = text;
  for (const secret of secrets) if (secret) scrubbed = scrubbed.replaceAll(secret, REDACTED);
  return scrubbed.replace(EMAIL_ADDRESS, '[address]').replace(PHONE_NUMBER, '[number]');
}
