import { AsyncLocalStorage } from 'node:async_hooks';
import type Provider from 'oidc-provider';
import type { Adapter } from 'oidc-provider';
import { isDependencyFailure } from '../lib/dependency-errors.ts';

/** The first dependency failure a provider request met, while that request runs. */
const requestOutage = new AsyncLocalStorage<{ failure?: unknown }>();

/**
 * Runs every request of the provider in a scope of its own (call it first, so it wraps the rest).
 * Together with `failingFastAfterOutage`, a request whose storage call met a dependency failure
 * makes no further calls that would wait on it: a sign-in's resume with the database silent waited
 * the statement's read timeout, then a connect timeout for its client's lookup on the error page and
 * another for the session it saves after answering (about 21 s by default), past the 18 s a stop
 * gives requests in flight; now it answers its 503 after the first wait.
 */
export function scopeOutagesToRequests(provider: Provider): void {
  provider.use((_ctx, next) => requestOutage.run({}, next));
}

/** `adapter`, whose calls within a provider request that already met a dependency failure fail at once with it. */
export function failingFastAfterOutage(adapter: Adapter): Adapter {
  const guarded =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const scope = requestOutage.getStore();
      if (scope?.failure) throw scope.failure;
      try {
        return await call(...args);
      } catch (error) {
        if (scope && isDependencyFailure(error)) scope.failure = error;
        throw error;
      }
    };
  return {
    upsert: guarded(adapter.upsert.bind(adapter)),
    find: guarded(adapter.find.bind(adapter)),
    findByUid: guarded(adapter.findByUid.bind(adapter)),
    findByUserCode: guarded(adapter.findByUserCode.bind(adapter)),
    consume: guarded(adapter.consume.bind(adapter)),
    destroy: guarded(adapter.destroy.bind(adapter)),
    revokeByGrantId: guarded(adapter.revokeByGrantId.bind(adapter)),
  };
}
