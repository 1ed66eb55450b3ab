/** The rejection of `withTimeout` when the time passed first. */
export class TimedOut extends Error {}

/** `work`, or a rejection (TimedOut) once `ms` have passed without it settling. */
export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
