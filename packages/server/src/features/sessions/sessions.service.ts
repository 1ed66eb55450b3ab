import { normalizeUsername } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { AdminInputError } from '../admin-input-error.ts';
import { createAuditQueries } from '../audit/audit.queries.ts';
import type { UserRow } from '../../db/schema.ts';
import { actorEvent, inTransaction, type AdminActor } from '../tenants/tenants.service.ts';

/** Ending a person's sessions on an operator's word (the `user sign-out` command). */
export function createSessionService(ctx: Pick<AppContext, 'db' | 'tenants' | 'users' | 'oidcStore' | 'backchannelLogout'>) {
  /** signOutEverywhere for an account already found (the admin console's user page); `extra` goes into the record's details. */
  async function signOutUser(user: Pick<UserRow, 'id' | 'tenant_id'>, actor: AdminActor = {}, extra: Record<string, unknown> = {}): Promise<{ delivered: Promise<void> }> {
    const notice = await inTransaction(ctx.db, async (trx) => {
      const found = await ctx.backchannelLogout.noticeFor(user.id, trx);
      await ctx.oidcStore.forgetAccount(user.id, trx);
      await createAuditQueries(trx).record({ type: 'sessions.ended', tenantId: user.tenant_id, userId: user.id, ...actorEvent(actor, extra) });
      return found;
    });
    // Redis is not transactional (see OidcStore.forgetAccount): its access tokens and codes go now.
    await ctx.oidcStore.forgetAccount(user.id);
    return { delivered: ctx.backchannelLogout.send(notice) };
  }

  return {
    /**
     * Signs the user out everywhere: every provider session, grant, access and refresh token goes,
     * and the relying parties signed in through those sessions get a back-channel logout token.
     * Answers the user's id and, separately, the deliveries' promise (never rejects): a command
     * line must wait for it before it exits, a request would not.
     */
    async signOutEverywhere(tenantId: string, username: string, actor: AdminActor = {}): Promise<{ userId: string; delivered: Promise<void> }> {
      if (!(await ctx.tenants.findById(tenantId))) throw AdminInputError.of('tenantId', `tenant '${tenantId}' does not exist`);
      const normalized = normalizeUsername(username);
      const user = normalized ? await ctx.users.findByUsername(tenantId, normalized) : undefined;
      if (!user) throw AdminInputError.of('username', `no user '${username}' in tenant '${tenantId}'`);
      const { delivered } = await signOutUser(user, actor);
      return { userId: user.id, delivered };
    },

    signOutUser,
  };
}
