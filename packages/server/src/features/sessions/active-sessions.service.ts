import { ErrorCode, type ActiveSession } from '@passgate/contract';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database, UserRow } from '../../db/schema.ts';
import { ApiError } from '../../plugins/errors.ts';
import { describeUserAgent } from '../../lib/user-agent.ts';
import { createAuditQueries } from '../audit/audit.queries.ts';
import { inTransaction } from '../tenants/tenants.service.ts';
import type { RequestMeta } from '../login-flow/login-flow.service.ts';
import type { LogoutNotice } from './backchannel-logout.ts';
import { createSessionActivityQueries } from './session-activity.queries.ts';
import type { PlaceLookup } from './geoip.ts';

/**
 * The signed-in user's own provider sessions (the Security page's 'Where you're signed in'): the
 * list, and signing one or all the others out. The provider's Session rows say which sessions are
 * alive and which applications were signed in through each; session_activity adds when, where from
 * and with which browser.
 *
 * Signing a session out deletes the provider session (its cookie signs in no more: prompt=none
 * answers login_required), revokes the grants of its applications with every token issued under
 * them (refresh and access tokens, in the database and Redis), tells the applications that
 * registered a back-channel logout URI, and audits 'session.ended' with the user as the actor.
 */

interface StoredSession {
  uid?: string;
  loginTs?: number;
  authorizations?: Record<string, { sid?: string; grantId?: string }>;
}

interface LiveSession {
  uid: string;
  loginTs: number | undefined;
  authorizations: Record<string, { sid?: string; grantId?: string }>;
}

export type SessionServiceContext = Pick<AppContext, 'db' | 'keys' | 'oidcStore' | 'backchannelLogout'> & { place?: PlaceLookup | undefined };

export function createActiveSessionsService(ctx: SessionServiceContext) {
  /** The opaque id the API shows for a session: a keyed digest of its uid, useless anywhere else. */
  const publicId = (uid: string) => ctx.keys.hmac('session-list', uid).slice(0, 32);

  async function liveSessions(userId: string, executor: Kysely<Database> = ctx.db): Promise<LiveSession[]> {
    const rows = await executor.selectFrom('oidc_payloads').select(['payload', 'expires_at']).where('model', '=', 'Session').where('account_id', '=', userId).execute();
    const now = Date.now();
    const sessions: LiveSession[] = [];
    for (const row of rows) {
      if (row.expires_at !== null && row.expires_at <= now) continue;
      const payload = JSON.parse(row.payload) as StoredSession;
      if (!payload.uid) continue;
      sessions.push({ uid: payload.uid, loginTs: payload.loginTs, authorizations: payload.authorizations ?? {} });
    }
    return sessions;
  }

  async function clientNames(clientIds: string[]): Promise<Map<string, string>> {
    if (clientIds.length === 0) return new Map();
    const rows = await ctx.db.selectFrom('clients').select(['id', 'name']).where('id', 'in', clientIds).execute();
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  /** Ends `sessions` of `user` for good; answers once the database has committed (the relying parties are told in the background). */
  async function end(user: UserRow, sessions: LiveSession[], meta: RequestMeta): Promise<void> {
    if (sessions.length === 0) return;
    const uids = sessions.map((s) => s.uid);
    const grantIds = [...new Set(sessions.flatMap((s) => Object.values(s.authorizations).flatMap((a) => (a.grantId ? [a.grantId] : []))))];
    const notice: LogoutNotice = {
      accountId: user.id,
      relyingParties: sessions.flatMap((s) => Object.entries(s.authorizations).flatMap(([clientId, a]) => (a.sid ? [{ clientId, sid: a.sid }] : []))),
    };
    await inTransaction(ctx.db, async (trx) => {
      await trx.deleteFrom('oidc_payloads').where('model', '=', 'Session').where('account_id', '=', user.id).where('uid', 'in', uids).execute();
      await ctx.oidcStore.revokeGrants(grantIds, trx);
      await createSessionActivityQueries(trx).remove(user.id, uids);
      const audit = createAuditQueries(trx);
      for (const session of sessions) {
        await audit.record({
          type: 'session.ended',
          tenantId: user.tenant_id,
          userId: user.id,
          ip: meta.ip,
          userAgent: meta.userAgent ?? null,
          details: { by: 'user', session: publicId(session.uid), clients: Object.keys(session.authorizations) },
        });
      }
    });
    // Redis is not transactional (see OidcStore.revokeGrants): its access tokens go now.
    await ctx.oidcStore.revokeGrants(grantIds);
    void ctx.backchannelLogout.send(notice);
  }

  return {
    publicId,

    async list(user: UserRow, currentUid: string | undefined, locale: string): Promise<ActiveSession[]> {
      const [sessions, rows] = await Promise.all([liveSessions(user.id), createSessionActivityQueries(ctx.db).listForUser(user.id)]);
      const alive = new Set(sessions.map((s) => s.uid));
      // Rows of sessions that ended some other way (logout, expiry, a password reset) go as they are found.
      const ended = rows.filter((row) => !alive.has(row.session_uid)).map((row) => row.session_uid);
      await createSessionActivityQueries(ctx.db).remove(user.id, ended);

      const activity = new Map(rows.map((row) => [row.session_uid, row]));
      const names = await clientNames([...new Set(sessions.flatMap((s) => Object.keys(s.authorizations)))]);
      const items = sessions.map((session): ActiveSession & { sortKey: number } => {
        const row = activity.get(session.uid);
        const signedInAt = row?.created_at ?? (session.loginTs ? session.loginTs * 1000 : Date.now());
        const lastActiveAt = Math.max(row?.last_active_at ?? signedInAt, signedInAt);
        const ip = row?.ip ?? null;
        const place = ip && ctx.place ? ctx.place(ip, locale) : undefined;
        return {
          id: publicId(session.uid),
          ...describeUserAgent(row?.user_agent ?? undefined),
          ip,
          ...(place ? { place } : {}),
          signedInAt: new Date(signedInAt).toISOString(),
          lastActiveAt: new Date(lastActiveAt).toISOString(),
          applications: Object.keys(session.authorizations)
            .map((clientId) => ({ clientId, name: names.get(clientId) ?? clientId }))
            .sort((a, b) => a.name.localeCompare(b.name)),
          current: session.uid === currentUid,
          sortKey: lastActiveAt,
        };
      });
      items.sort((a, b) => Number(b.current) - Number(a.current) || b.sortKey - a.sortKey);
      return items.map(({ sortKey: _sortKey, ...item }) => item);
    },

    /** Signs out one other session of the user's; 404 for an id that is not one of theirs (another user's included), 400 for the current one. */
    async signOut(user: UserRow, id: string, currentUid: string | undefined, meta: RequestMeta): Promise<void> {
      const session = (await liveSessions(user.id)).find((s) => publicId(s.uid) === id);
      if (!session) throw new ApiError(ErrorCode.NotFound, 404, 'id', 'No such session');
      if (session.uid === currentUid) throw new ApiError(ErrorCode.SessionIsCurrent, 400, 'id');
      await end(user, [session], meta);
    },

    /** Signs out every session of the user's but the current one; answers how many. */
    async signOutOthers(user: UserRow, currentUid: string | undefined, meta: RequestMeta): Promise<number> {
      const others = (await liveSessions(user.id)).filter((s) => s.uid !== currentUid);
      await end(user, others, meta);
      return others.length;
    },
  };
}
export type ActiveSessionsService = ReturnType<typeof createActiveSessionsService>;
