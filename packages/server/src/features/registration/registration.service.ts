import { ErrorCode, type RegisterBody, type RegisterResponse, type UsernameKind } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../plugins/errors.ts';
import { hashSecret } from '../../lib/passwords.ts';
import { newId } from '../../lib/ids.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { createAuditQueries } from '../audit/audit.queries.ts';
import { createUserQueries } from '../users/users.queries.ts';
import { unmetPasswordText } from '../users/password-rules.ts';
import { refuseCommonPassword } from '../users/common-passwords.ts';
import { resolveFlowClient, requireTenantSwitch } from '../login-flow/flow-client.ts';
import { requireHeldInteraction } from '../login-flow/interactions.ts';
import { checkUsername, usernameKinds, type VisitorMeta } from '../login-flow/visitor-input.ts';
import { createCodeService, type CodeService } from '../codes/codes.service.ts';
import { channelOf, deliverCode } from '../codes/code-delivery.ts';
import type { RegistrantBrowser } from './registrant-browser.ts';

/** 409: the address or number belongs to an account that is active (or disabled). */
export function alreadyRegistered(kind: UsernameKind): ApiError {
  return kind === 'email' ? new ApiError(ErrorCode.EmailTaken, 409, 'username') : new ApiError(ErrorCode.PhoneTaken, 409, 'username');
}

/** 1002 on the field password, naming what the tenant's policy still needs. */
export function passwordPolicyError(needs: string): ApiError {
  return new ApiError(ErrorCode.InvalidField, 400, 'password', `The password does not meet the password policy: it needs ${needs}`);
}

/**
 * POST /api/v1/users/register (SPEC.md sections 4-7): a pending account and an activation code sent
 * to the address or number. A pending account registered again is taken over by the new
 * registration (name, password, locale and registering browser replaced, a new code), so nobody can
 * hold an address they cannot read; what it set survives activation only when the code is typed in
 * the browser that registered (registrant-browser.ts). The code is sent before anything is written:
 * a failed send leaves no account.
 */
export function createRegistrationService(ctx: AppContext, codes: CodeService = createCodeService(ctx)) {
  return {
    async register(body: RegisterBody, meta: VisitorMeta, registrant: RegistrantBrowser | null): Promise<RegisterResponse> {
      // As every call that takes a challenge: only from the browser that started it (DESIGN.md section 7).
      if (body.challenge) requireHeldInteraction(meta.browser, body.challenge);
      const flow = await resolveFlowClient(ctx, body.clientId);
      requireTenantSwitch(flow, 'registrationAllowed');
      const { username, kind } = checkUsername(ctx.log, flow, body.username, usernameKinds(flow, 'register'), { requireCapability: true });
      const needs = unmetPasswordText(body.password, flow.tenant.passwordPolicy);
      if (needs) throw passwordPolicyError(needs);
      await refuseCommonPassword(body.password);
      await ctx.recaptcha.verify(flow.client, body.recaptchaToken, meta.ip);

      const tenant = flow.tenant;
      const existing = await ctx.users.findByUsername(tenant.id, username);
      if (existing && existing.status !== 'pending') throw alreadyRegistered(kind);

      const target = { tenantId: tenant.id, purpose: 'activation', destination: username } as const;
      await codes.reserveSend(target, meta.ip);
      const passwordHash = await hashSecret(body.password);
      const userId = existing?.id ?? newId();
      const event = { tenantId: tenant.id, clientId: flow.client.id, ip: meta.ip, userAgent: meta.userAgent, userId: existing?.id ?? null };
      try {
        await codes.sendReserved({ ...target, userId }, {
          deliver: (code) => deliverCode(ctx, { kind: 'activation', usernameKind: kind, to: username, locale: meta.locale, tenant, name: body.name, code }, event),
          saveWith: async (trx) => {
            const now = Date.now();
            const users = createUserQueries(trx);
            const identity = kind === 'email' ? { email: username } : { phone_number: username };
            if (existing) {
              const changes = { name: body.name, password_hash: passwordHash, password_changed_at: now, locale: meta.locale, registrant_browser_hash: registrant?.hash ?? null, updated_at: now };
              if (!(await users.updateIfPending(userId, changes))) throw alreadyRegistered(kind);
              // The earlier registration's password is not this person's history.
              await users.clearPasswordHistory(userId);
            } else {
              await users.insert({
                id: userId,
                tenant_id: tenant.id,
                ...identity,
                name: body.name,
                locale: meta.locale,
                password_hash: passwordHash,
                password_changed_at: now,
                registration_method: 'password',
                status: 'pending',
                registrant_browser_hash: registrant?.hash ?? null,
                created_at: now,
              });
            }
            await users.addPasswordHistory(userId, passwordHash, now);
            await createAuditQueries(trx).record({ ...event, userId, type: 'user.registered', details: { channel: channelOf(kind), reregistered: Boolean(existing) } }, now);
          },
        });
      } catch (error) {
        // Another registration of the same address won the race.
        if (isUniqueViolation(error)) throw alreadyRegistered(kind);
        throw error;
      }
      return { username, channel: channelOf(kind) };
    },
  };
}
export type RegistrationService = ReturnType<typeof createRegistrationService>;
