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
