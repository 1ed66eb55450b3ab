/** Polls `check` until it answers something, giving up at the deadline: an HTTP POST takes a moment to arrive. */
export async function eventually<T>(check: () => T | undefined, deadlineMs = 5_000): Promise<T> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('gave up waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
