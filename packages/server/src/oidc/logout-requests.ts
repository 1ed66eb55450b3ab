import type { Adapter, AdapterPayload } from 'oidc-provider';
import { randomToken } from '../lib/ids.ts';

/**
 * A logout request waiting for the user's decision on the Logout screen. The provider's end-session
 * step stores it (with the session's anti-forgery secret) and sends the browser to
 * `/logout?challenge=<id>`; the API reads and decides it; the confirmation form posts the secret
 * back to the provider from the same browser.
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
}

const TTL_SECONDS = 600;

export function createLogoutRequests(adapter: Adapter) {
  return {
    async create(fields: Omit<LogoutRequest, 'id'>): Promise<LogoutRequest> {
      const request = { ...fields, id: randomToken(24) };
      await adapter.upsert(request.id, { ...request } as unknown as AdapterPayload, TTL_SECONDS);
      return request;
    },
    async find(id: string): Promise<LogoutRequest | undefined> {
      const payload = await adapter.find(id);
      return payload as unknown as LogoutRequest | undefined;
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
