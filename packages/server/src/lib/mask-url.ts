/** What to tell an operator whose connection URL does not parse (the usual cause: a password's special characters). */
export const NOT_A_VALID_URL = 'is not a valid URL: percent-encode the special characters of the user name and password (@ : / ? # as %40 %3A %2F %3F %23)';

/**
 * Query parameters the drivers read as credentials: pg (pg-connection-string) takes every parameter
 * of the URL as a setting, ?password= and ?sslpassword= included, and ioredis takes ?password=.
 */
const SECRET_PARAM = /pass|secret|token/i;

/** Replaces the values of credential query parameters; answers whether there was one. */
export function maskSecretParams(parsed: URL): boolean {
  const secret = [...new Set(parsed.searchParams.keys())].filter((key) => SECRET_PARAM.test(key));
  for (const key of secret) parsed.searchParams.set(key, '***');
  return secret.length > 0;
}

/**
 * A connection string fit for logs and error messages: the password (in the user part or as a
 * query parameter) replaced, everything else (scheme, user, host, port, database) kept so an
 * operator can tell which setting is wrong.
 */
export function maskConnectionUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const masked = maskSecretParams(parsed);
    if (!parsed.password && !masked) return url;
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    // Not a URL the parser takes: still never show what sits between 'user:' and '@', nor a password parameter.
    return url.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@').replace(/([?&][^=&#]*(?:pass|secret|token)[^=&#]*=)[^&#]*/gi, '$1***');
  }
}
