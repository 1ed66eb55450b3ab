import type { Kysely } from 'kysely';
import type Provider from 'oidc-provider';
import type { Logger } from 'pino';
import type { Database } from '../../db/schema.ts';
import { PublicFetchRefused } from '../../lib/public-fetch.ts';

/**
 * OpenID Connect Back-Channel Logout 1.0 for the ways Passgate itself ends sessions (password reset,
 * account deletion, an operator's sign-out): each relying party signed in through one of the
 * account's provider sessions, if it registered a backchannel_logout_uri, gets a logout token. The
 * provider builds, signs and posts it (`client.backchannelLogout`), exactly as it does on its own
 * RP-initiated logout, through the outgoing-request rules of oidc/provider-fetch.ts (timeout included).
 *
 * Best effort: a relying party that is down, slow or refuses costs a warning (client id and reason,
 * never the token), never the user's action, which does not wait for the deliveries.
 */

/** The relying parties signed in through an account's sessions, read before those sessions are deleted. */
export interface LogoutNotice {
  accountId: string;
  relyingParties: { clientId: string; sid: string }[];
}

interface StoredSession {
  authorizations?: Record<string, { sid?: string }>;
}

/** A client as the provider loads it, with the method its typings leave out. */
interface LogoutCapableClient {
  clientId: string;
  backchannelLogoutUri?: string | undefined;
  backchannelLogout(sub: string, sid: string): Promise<void>;
}

/** Why a delivery failed, fit for the log: never the token, nor a message that could quote one. */
export function deliveryFailure(error: unknown): string {
  if (error instanceof PublicFetchRefused) return error.reason;
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'timeout';
    const status = /got: (\d{3})/.exec(error.message)?.[1];
    if (status) return `status_${status}`;
    const code = (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code;
    return typeof code === 'string' ? `${error.name}: ${code}` : error.name;
  }
  return 'unknown';
}

export function createBackchannelLogout({ db, provider, log }: { db: Kysely<Database>; provider: Provider; log: Logger }) {
  const warn = (clientId: string, error: unknown) => log.warn({ clientId, reason: deliveryFailure(error) }, 'a relying party did not take its back-channel logout token');

  // The provider delivers on RP-initiated logout by itself and reports failures only as this event.
  provider.on('backchannel.error', (_ctx, error, client) => warn(client.clientId, error));

  return {
    /** Who to tell when the account's sessions go: call it in the transaction that deletes them, before it does. */
    async noticeFor(accountId: string, executor: Kysely<Database> = db): Promise<LogoutNotice> {
      const rows = await executor
        .selectFrom('oidc_payloads')
        .select(['payload', 'expires_at'])
        .where('model', '=', 'Session')
        .where('account_id', '=', accountId)
        .execute();
      const now = Date.now();
      const relyingParties = new Map<string, { clientId: string; sid: string }>();
      for (const row of rows) {
        // An expired session ended by itself already: nobody is signed in through it.
        if (row.expires_at !== null && row.expires_at <= now) continue;
        const session = JSON.parse(row.payload) as StoredSession;
        for (const [clientId, authorization] of Object.entries(session.authorizations ?? {})) {
          if (authorization.sid) relyingParties.set(`${clientId} ${authorization.sid}`, { clientId, sid: authorization.sid });
        }
      }
      return { accountId, relyingParties: [...relyingParties.values()] };
    },

    /**
     * Posts the logout tokens, once the sessions are gone (after the commit). Never rejects; the
     * promise settles when every delivery has (within the outgoing timeout), for callers that must
     * not exit before, such as the command line. Requests do not wait for it.
     */
    async send(notice: LogoutNotice): Promise<void> {
      await Promise.all(
        notice.relyingParties.map(async ({ clientId, sid }) => {
          try {
            const client = (await provider.Client.find(clientId)) as unknown as LogoutCapableClient | undefined;
            if (!client?.backchannelLogoutUri) return;
            await client.backchannelLogout(notice.accountId, sid);
          } catch (error) {
            warn(clientId, error);
          }
        }),
      );
    },
  };
}
export type BackchannelLogout = ReturnType<typeof createBackchannelLogout>;
