import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { REMEMBERED_BROWSER_COOKIE } from '../features/mfa/remembered-browsers.ts';

/**
 * What the calling browser proves it holds: the provider's signed interaction cookie (set when the
 * browser itself started the authorization request) and its signed session cookie. Knowing a
 * challenge (it is in a /login URL anyone can be sent) proves nothing; holding the cookie does.
 * Both are read once per API request, here, and every login-flow call compares against them.
 */
export interface BrowserHold {
  /** The uid of the interaction this browser started, from the `_interaction` cookie (signature checked). */
  interactionUid: string | undefined;
  /** The provider session id of this browser, from the `_session` cookie (signature checked). */
  sessionId: string | undefined;
  /** The 'Remember this browser' cookie of 2-step verification (id.secret, unsigned: its secret is checked against a digest). */
  rememberedBrowser?: string | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    browser: BrowserHold;
  }
}

const NOTHING_HELD: BrowserHold = Object.freeze({ interactionUid: undefined, sessionId: undefined });

export function registerBrowserBinding(app: FastifyInstance, provider: Provider): void {
  app.decorateRequest('browser', null as unknown as BrowserHold);
  app.addHook('onRequest', async (request, reply) => {
    request.browser = request.url.startsWith('/api/') ? readBrowserHold(provider, request, reply) : NOTHING_HELD;
  });
}

/** What the browser behind `request` holds, from the provider's signed cookies (also for the /login page, spa.ts). */
export function readBrowserHold(provider: Provider, request: FastifyRequest, reply: FastifyReply): BrowserHold {
  if (!request.headers.cookie) return NOTHING_HELD;
  // The provider's own cookie jar (its keys, its signature scheme), so nothing here can drift from it.
  const cookies = provider.createContext(request.raw, reply.raw).cookies;
  const read = (name: string) => cookies.get(provider.cookieName(name), { signed: true }) || undefined;
  return { interactionUid: read('interaction'), sessionId: read('session'), rememberedBrowser: cookies.get(REMEMBERED_BROWSER_COOKIE, { signed: false }) || undefined };
}
