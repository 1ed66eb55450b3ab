import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import { ACTIVITY_WRITE_INTERVAL_MS, createSessionActivityQueries } from './session-activity.queries.ts';

/** How many sessions this process remembers having touched (the oldest is forgotten first). */
const RECENT_TOUCHES_KEPT = 10_000;

/**
 * Keeps the session list of the Security page current from what the provider itself does: a
 * completed authorization in a browser records (or refreshes) its session's row with the address
 * and browser it came from; a refresh-token grant moves the session's last activity only (it comes
 * from the relying party's server, whose address is not the person's).
 *
 * The provider's events say what happened; a middleware around the provider writes it once the
 * provider is done (the session is saved by then, with its expiry) and before the response leaves,
 * so the list is up to date by the time the browser lands on the relying party. A failed write is
 * logged and never fails the sign-in.
 */

type Pending = { kind: 'authorization' } | { kind: 'refresh'; sessionUid: string };

interface SessionLike {
  uid?: string;
  accountId?: string;
  loginTs?: number;
  exp?: number;
}

export interface SessionActivityDeps {
  db: Db;
  provider: Provider;
  log: Logger;
  /** The account's tenant (the row carries it), or undefined for an account that is gone. */
  tenantOf(userId: string): Promise<string | undefined>;
  /** Seconds a provider session lives, for a session the provider has not saved with an expiry. */
  sessionTtlSeconds: number;
  now?: () => number;
}

export function watchSessionActivity({ db, provider, log, tenantOf, sessionTtlSeconds, now = () => Date.now() }: SessionActivityDeps): void {
  const activity = createSessionActivityQueries(db);
  const pending = new WeakMap<object, Pending>();
  // A relying party may refresh every few seconds: within the write interval this process skips
  // the database altogether (the row's own condition still keeps other instances to one write).
  const recentTouches = new Map<string, number>();
  const touchedRecently = (sessionUid: string, at: number): boolean => {
    const last = recentTouches.get(sessionUid);
    if (last !== undefined && at - last < ACTIVITY_WRITE_INTERVAL_MS) return true;
    recentTouches.delete(sessionUid);
    recentTouches.set(sessionUid, at);
    if (recentTouches.size > RECENT_TOUCHES_KEPT) recentTouches.delete(recentTouches.keys().next().value as string);
    return false;
  };

  provider.on('authorization.success', (ctx: KoaContextWithOIDC) => {
    pending.set(ctx, { kind: 'authorization' });
  });
  provider.on('grant.success', (ctx: KoaContextWithOIDC) => {
    const refreshToken = ctx.oidc.entities.RefreshToken as { sessionUid?: string } | undefined;
    if (ctx.oidc.params?.grant_type === 'refresh_token' && refreshToken?.sessionUid) pending.set(ctx, { kind: 'refresh', sessionUid: refreshToken.sessionUid });
  });

  provider.use(async (ctx, next) => {
    await next();
    const work = pending.get(ctx);
    if (!work) return;
    try {
      if (work.kind === 'refresh') {
        const at = now();
        if (!touchedRecently(work.sessionUid, at)) await activity.touch(work.sessionUid, at);
        return;
      }
      const session = (ctx as KoaContextWithOIDC).oidc?.session as SessionLike | undefined;
      if (!session?.uid || !session.accountId) return;
      const tenantId = await tenantOf(session.accountId);
      if (!tenantId) return;
      const at = now();
      await activity.recordAuthorization(
        {
          sessionUid: session.uid,
          userId: session.accountId,
          tenantId,
          signedInAt: session.loginTs ? session.loginTs * 1000 : at,
          ip: ctx.ip || null,
          userAgent: ctx.get('user-agent') || null,
          expiresAt: session.exp ? session.exp * 1000 : at + sessionTtlSeconds * 1000,
        },
        at,
      );
    } catch (error) {
      log.warn({ err: error }, 'recording session activity failed');
    }
  });
}
