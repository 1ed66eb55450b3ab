import type { Adapter, AdapterPayload } from 'oidc-provider';
import { randomToken } from '../lib/ids.ts';
import type { ServerKeys } from '../lib/server-keys.ts';
import type { BrowserHold } from '../plugins/browser-binding.ts';

/**
 * A logout request waiting for the user's decision on the Logout screen. The provider's end-session
 * step stores it (with the session's anti-forgery secret) and sends the browser to
 * `/logout?challenge=<id>`; the API reads and decides it; the confirmation form posts the secret
 * back to the provider from the same browser. A request belongs to the browser whose provider
 * session asked for it (a keyed hash of the session id is kept): no other browser reads or decides it.
 */
export interface LogoutRequest {
  id: string;
  xsrf: string;
  clientId: string | null;
  accountId: string | null;
  postLogoutRedirectUri: string | null;
  state: string | null;
  /** The relying party proved who it logs out with a valid id_token_hint. */
  hasIdTokenHint: boolean;
  decision?: 'confirmed' | 'cancelled';
  /** Keyed hash of the provider session id of the browser that asked. */
  sessionBinding: string;
}

export type NewLogoutRequest = Omit<LogoutRequest, 'id' | 'sessionBinding'> & { sessionId: string };

const TTL_SECONDS = 600;

const BINDING = 'logout-session';

export function createLogoutRequests(adapter: Adapter, keys: ServerKeys) {
  return {
    async create({ sessionId, ...fields }: NewLogoutRequest): Promise<LogoutRequest> {
      const request: LogoutRequest = { ...fields, id: randomToken(24), sessionBinding: keys.hmac(BINDING, sessionId) };
      await adapter.upsert(request.id, { ...request } as unknown as AdapterPayload, TTL_SECONDS);
      return request;
    },
    /** The request, only for the browser whose session asked for it. */
    async find(id: string, browser: BrowserHold): Promise<LogoutRequest | undefined> {
      const request = (await adapter.find(id)) as unknown as LogoutRequest | undefined;
      if (!request?.sessionBinding || !browser.sessionId || !keys.hmacEquals(BINDING, browser.sessionId, request.sessionBinding)) return undefined;
      return request;
    },
    async decide(request: LogoutRequest, decision: LogoutRequest['decision']): Promise<void> {
      await adapter.upsert(request.id, { ...request, decision } as unknown as AdapterPayload, TTL_SECONDS);
    },
    async remove(id: string): Promise<void> {
      await adapter.destroy(id);
    },
  };
}
export type LogoutRequests = ReturnType<typeof createLogoutRequests>;
