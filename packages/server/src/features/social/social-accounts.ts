import { ErrorCode, type RedirectOrMfaStep, type SocialAuthorizer } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import type { UserRow } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { ApiError } from '../../plugins/errors.ts';
import { accountLocked } from '../login-flow/lockout.ts';
import { createAuditQueries } from '../audit/audit.queries.ts';
import { createUserQueries } from '../users/users.queries.ts';
import { inTransaction } from '../tenants/tenants.service.ts';
import { completeLogin, type Interaction } from '../login-flow/interactions.ts';
import type { FlowClient } from '../login-flow/flow-client.ts';
import type { VisitorMeta } from '../login-flow/visitor-input.ts';
import type { SocialProfile } from './provider-http.ts';
import { importSocialPicture } from './social-picture.ts';
import { createSocialQueries } from './social.queries.ts';
import { createMfaLoginService } from '../mfa/mfa-login.service.ts';
import type { BrowserHold } from '../../plugins/browser-binding.ts';

/** The audit fields of a social sign-in step. */
export interface SocialEvent {
  tenantId: string;
  clientId: string;
  ip: string;
  userAgent: string | undefined;
}

export const socialEvent = (flow: { tenantId: string; clientId: string }, meta: VisitorMeta): SocialEvent => ({
  tenantId: flow.tenantId,
  clientId: flow.clientId,
  ip: meta.ip,
  userAgent: meta.userAgent,
});

/** 'ann@example.com' → 'a***@example.com': enough for the user to recognise, not to learn. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

/** 1012 for an account that is not active, 1302 while it is locked after failed passwords; audited. */
async function assertCanSignIn(ctx: AppContext, user: UserRow, provider: SocialAuthorizer, event: SocialEvent): Promise<void> {
  if (user.status !== 'active') {
    await ctx.audit.record({ ...event, userId: user.id, type: 'social.login_failed', details: { provider, reason: user.status === 'pending' ? 'not_activated' : 'disabled' } });
    throw new ApiError(user.status === 'pending' ? ErrorCode.NotActivated : ErrorCode.Disabled, 403);
  }
  if (user.locked_until && user.locked_until > Date.now()) {
    await ctx.audit.record({ ...event, userId: user.id, type: 'login.locked', details: { provider, lockedUntil: user.locked_until } });
    throw accountLocked(user.locked_until);
  }
}

/**
 * Finishes the sign-in of `user` with the provider: audited, `redirectTo` = the provider's resume
 * URL, or the 2-step screen when the account has it on (a social sign-in is one factor).
 */
export async function finishSocialSignIn(
  ctx: AppContext,
  interaction: Interaction,
  user: UserRow,
  provider: SocialAuthorizer,
  event: SocialEvent,
  details: Record<string, unknown> = {},
  /** What the browser holds: its 'Remember this browser' cookie may skip the second step. */
  browser?: BrowserHold,
): Promise<RedirectOrMfaStep> {
  await assertCanSignIn(ctx, user, provider, event);
  await ctx.users.recordSuccessfulLogin(user.id, Date.now());
  const visitor = browser && { ip: event.ip, userAgent: event.userAgent, browser };
  const step = await createMfaLoginService(ctx).secondStep(user, interaction.uid, event.clientId, provider, visitor);
  await ctx.audit.record({ ...event, userId: user.id, type: 'social.login', details: { provider, ...details, ...(step ? { secondStep: step.tokenType } : {}) } });
  return step ?? { redirectTo: await completeLogin(ctx.provider, interaction, user.id, [provider]) };
}

/**
 * A new active account for the provider identity: registration method google or facebook, no
 * password, the provider's name, and its e-mail address only when the provider vouches for it and
 * no other account holds it. An address the provider has not verified is not kept at all: held by
 * an account, it would keep its owner from registering with it, and the owner's own verified
 * sign-in would be offered to link to the squatter's account. The user can add an address in the
 * account area, with a code. The provider's picture becomes its avatar once the account exists
 * (best effort, outside the transaction). Throws the database's unique violation when a concurrent
 * request linked the identity or took the address first; the caller starts over.
 */
export async function createSocialAccount(ctx: AppContext, flow: FlowClient, profile: SocialProfile, meta: VisitorMeta): Promise<UserRow> {
  const now = Date.now();
  const userId = newId();
  const email = profile.email && profile.emailVerified && !(await ctx.users.findByEmail(flow.tenant.id, profile.email)) ? profile.email : null;
  await inTransaction(ctx.db, async (trx) => {
    await createUserQueries(trx).insert({
      id: userId,
      tenant_id: flow.tenant.id,
      email,
      email_verified: email !== null ? 1 : 0,
      name: profile.name,
      locale: meta.locale,
      registration_method: profile.provider,
      status: 'active',
      created_at: now,
    });
    await createSocialQueries(trx).insertIdentity({ tenantId: flow.tenant.id, provider: profile.provider, subject: profile.subject, userId, email: profile.email }, now);
    await createAuditQueries(trx).record(
      {
        ...socialEvent({ tenantId: flow.tenant.id, clientId: flow.client.id }, meta),
        userId,
        type: 'social.registered',
        details: { provider: profile.provider, email: email === null ? (profile.email && !profile.emailVerified ? 'unverified_not_kept' : 'none') : 'verified' },
      },
      now,
    );
  });
  const user = await ctx.users.findById(userId);
  if (!user) throw new ApiError(ErrorCode.AccountNotFound, 404);
  return importSocialPicture(ctx, user, profile);
}
