import type { AppContext } from '../../context.ts';
import type { UserRow } from '../../db/schema.ts';
import { ACCOUNT_CLIENT_ID } from '../../plugins/account-auth.ts';
import { createAuditQueries } from '../audit/audit.queries.ts';
import { inTransaction } from '../tenants/tenants.service.ts';
import type { VisitorMeta } from '../login-flow/visitor-input.ts';
import { createAvatarQueries } from './avatars.queries.ts';
import { createWebauthnQueries } from '../webauthn/webauthn.queries.ts';

/**
 * DELETE /api/v1/me: the account is deleted for good. One transaction deletes the user row (its
 * password history and one-time codes go with it by ON DELETE CASCADE), its avatar, its WebAuthn devices, and, when the
 * provider's artifacts live in the database, every session, grant, token and code of the account.
 * With Redis those are deleted as well (inside, and once more after the commit, in case the
 * provider wrote one meanwhile). Signing in afterwards fails as for an unknown account.
 */
export function createAccountDeletionService(ctx: AppContext) {
  return {
    async deleteAccount(user: UserRow, meta: VisitorMeta): Promise<void> {
      const now = Date.now();
      await inTransaction(ctx.db, async (trx) => {
        await createAvatarQueries(trx).deleteForUser(user.id);
        await createWebauthnQueries(trx).deleteForUser(user.id);
        await trx.deleteFrom('users').where('id', '=', user.id).execute();
        await ctx.oidcStore.forgetAccount(user.id, trx);
        // No personal data: the (random) user id ties the record to the account's earlier events.
        await createAuditQueries(trx).record(
          { type: 'account.deleted', tenantId: user.tenant_id, userId: user.id, clientId: ACCOUNT_CLIENT_ID, ip: meta.ip, userAgent: meta.userAgent },
          now,
        );
      });
      try {
        await ctx.oidcStore.forgetAccount(user.id);
      } catch (error) {
        // Whatever is left refers to an account that no longer exists: the provider refuses it.
        ctx.log.warn({ userId: user.id, reason: error instanceof Error ? error.message : String(error) }, 'provider artifacts of a deleted account could not be deleted');
      }
    },
  };
}
