import { z } from 'zod';
import { tokenTypeSchema } from '../login-flow.ts';
import { adminListQuerySchema, adminTenantParamsSchema, paginated } from './admin-list.ts';

/**
 * The admin API's users (issue 17): a tenant's user search, a user's page and the support actions
 * on it. Times are ISO 8601 strings. Nothing secret is ever answered: no password hash, no
 * authenticator secret, no code.
 */

export const adminUserStatusSchema = z.enum(['pending', 'active', 'disabled']);
export type AdminUserStatus = z.infer<typeof adminUserStatusSchema>;

/** GET /tenants/{tenantId}/users: `q` is a prefix of the e-mail address, the phone number or the name. */
export const adminUserListQuerySchema = adminListQuerySchema.extend({
  status: adminUserStatusSchema.optional(),
});
export type AdminUserListQuery = z.infer<typeof adminUserListQuerySchema>;

const idSchema = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'not an id');
export const adminUserParamsSchema = adminTenantParamsSchema.extend({ userId: idSchema });
export const adminUserDeviceParamsSchema = adminUserParamsSchema.extend({ deviceId: idSchema });

/** A user in the search results. */
export const adminUserSummarySchema = z.object({
  id: z.string(),
  tenantId: z.string(),
  email: z.string().nullable(),
  emailVerified: z.boolean(),
  phoneNumber: z.string().nullable(),
  phoneNumberVerified: z.boolean(),
  name: z.string().nullable(),
  status: adminUserStatusSchema,
  /** How the account was registered: password, passwordless, google, facebook… */
  registrationMethod: z.string(),
  /** Signing in is refused until `lockedUntil` after repeated wrong passwords. */
  locked: z.boolean(),
  lockedUntil: z.string().nullable(),
  /** The 2-step verification method, or null when 2-step is off. */
  twoStepMethod: tokenTypeSchema.nullable(),
  createdAt: z.string(),
});
export type AdminUserSummary = z.infer<typeof adminUserSummarySchema>;

export const adminUserListSchema = paginated(adminUserSummarySchema);
export type AdminUserList = z.infer<typeof adminUserListSchema>;

export const adminUserEventSchema = z.object({
  id: z.string(),
  type: z.string(),
  createdAt: z.string(),
  clientId: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** What the record says besides (secrets masked), such as who acted: `by` 'admin' and `actorUserId`. */
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type AdminUserEvent = z.infer<typeof adminUserEventSchema>;

/** A user's page. */
export const adminUserDetailSchema = adminUserSummarySchema.extend({
  birthday: z.number().int().nullable(),
  gender: z.string().nullable(),
  locale: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  hasPassword: z.boolean(),
  passwordChangedAt: z.string().nullable(),
  /** Wrong passwords in a row, counted toward the lockout. */
  failedLoginCount: z.number().int(),
  /** The last finished sign-in, any method; null when none is on record. */
  lastSignInAt: z.string().nullable(),
  /** Google and Facebook identities linked to the account. */
  identities: z.array(z.object({ provider: z.string(), subject: z.string(), email: z.string().nullable(), createdAt: z.string() })),
  /** WebAuthn devices; an inactive one awaits its activation code. */
  devices: z.array(z.object({ id: z.string(), deviceName: z.string(), active: z.boolean(), createdAt: z.string(), lastUsedAt: z.string().nullable() })),
  twoStep: z.object({ method: tokenTypeSchema.nullable(), backupCodesRemaining: z.number().int() }),
  /** The admin roles the user holds (an operator's account is acted on by operators only). */
  adminRoles: z.object({ operator: z.boolean(), tenantAdminOf: z.array(z.string()) }),
  /** The 20 most recent audit records of the user, newest first. */
  recentEvents: z.array(adminUserEventSchema),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

/** POST …/activation and …/password-reset: where the code went (the user reads it there). */
export const adminCodeSentSchema = z.object({
  channel: z.enum(['email', 'sms']),
  destination: z.string(),
  /** Seconds before another code may be sent to the same address. */
  resendAfter: z.number().int(),
});
export type AdminCodeSent = z.infer<typeof adminCodeSentSchema>;
