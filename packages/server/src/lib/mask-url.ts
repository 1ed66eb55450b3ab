/**
 * A connection string fit for logs and error messages: the password replaced, everything else
 * (scheme, user, host, port, database) kept so an operator can tell which setting is wrong.
 */
export function maskConnectionUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    // Not a URL the parser takes: still never show what sits between 'user:' and '@'.
    return url.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@');
  }
}
