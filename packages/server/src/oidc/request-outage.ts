import Provider from 'oidc-provider';
import type { Adapter } from 'oidc-provider';
import { isDependencyFailure } from '../lib/dependency-errors.ts';

/**
 * The first dependency failure each provider request met, keyed by the request's context, which
 * oidc-provider keeps in its own AsyncLocalStorage (`Provider.ctx`) for the whole route, its error
 * page and the session saved after the answer included. A second AsyncLocalStorage would cost
 * every promise of every request a propagation on Node 20.
 */
const requestOutages = new WeakMap<object, unknown>();

/**
 * `adapter`, whose calls within a provider request that already met a dependency failure fail at
 * once with it: a sign-in's resume with the database silent waited the statement's read timeout,
 * then a connect timeout for its client's lookup on the error page and another for the session it
 * saves after answering (about 21 s by default), past the 18 s a stop gives requests in flight; now
 * it answers its 503 after the first wait. Outside a provider request (the command line, the
 * identity API's own lookups) calls go through as they are.
 */
export function failingFastAfterOutage(adapter: Adapter): Adapter {
  const guarded =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const request = Provider.ctx as object | undefined;
      if (request && requestOutages.has(request)) throw requestOutages.get(request);
      try {
        return await call(...args);
      } catch (error) {
        if (request && isDependencyFailure(error)) requestOutages.set(request, error);
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
