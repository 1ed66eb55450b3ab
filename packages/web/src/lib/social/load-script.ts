import { SocialSdkError } from './sdk.ts';

const LOAD_TIMEOUT_MS = 15_000;

/**
 * Adds `<script src>` to the page and resolves with what `ready()` finds once it has run (the
 * provider's global). A script that fails, times out or defines nothing is removed again, so a
 * later attempt starts afresh.
 */
export function injectScript<T>(src: string, ready: () => T | undefined): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.defer = true;
    const fail = (message: string) => {
      clearTimeout(timer);
      script.remove();
      reject(new SocialSdkError('load', message));
    };
    const timer = setTimeout(() => fail(`${src} took too long to load`), LOAD_TIMEOUT_MS);
    script.addEventListener('load', () => {
      const found = ready();
      if (found === undefined) return fail(`${src} loaded without its API`);
      clearTimeout(timer);
      resolve(found);
    });
    script.addEventListener('error', () => fail(`${src} could not be loaded`));
    document.head.append(script);
  });
}

/**
 * One load per script, shared by every caller (the arguments of the first call win); forgotten
 * after a failure so that a later call tries again.
 */
export function onceAtATime<A extends unknown[], T>(load: (...args: A) => Promise<T>): { get: (...args: A) => Promise<T>; reset: () => void } {
  let pending: Promise<T> | null = null;
  return {
    get(...args: A) {
      if (pending) return pending;
      const promise = load(...args);
      pending = promise;
      promise.catch(() => {
        if (pending === promise) pending = null;
      });
      return promise;
    },
    reset() {
      pending = null;
    },
  };
}
