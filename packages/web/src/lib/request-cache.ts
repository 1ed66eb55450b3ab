/**
 * One promise per request key, for screens that read their data with React's `use()`: a screen
 * that suspends finds the same promise when React renders it again. (The account area uses
 * TanStack Query; the login-flow screens stay light enough for the /login budget without it.)
 */
const cache = new Map<string, Promise<unknown>>();

export function cachedRequest<T>(key: string, load: () => Promise<T>): Promise<T> {
  let pending = cache.get(key) as Promise<T> | undefined;
  if (!pending) {
    pending = load();
    cache.set(key, pending);
  }
  return pending;
}

/** Drops a request so the next read loads it again (retry, or leaving the screen). */
export function forgetRequest(key: string): void {
  cache.delete(key);
}

export function clearRequestCache(): void {
  cache.clear();
}
