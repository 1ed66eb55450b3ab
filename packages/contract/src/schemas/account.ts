import { z } from 'zod';
import { tokenTypeSchema } from './login-flow.ts';

export const genderSchema = z.enum(['Male', 'Female', 'Other']);
export type Gender = z.infer<typeof genderSchema>;

export const registrationMethodSchema = z.enum(['password', 'passwordless', 'google', 'facebook', 'apple', 'webauthn']);

/** GET /api/v1/me */
export const profileSchema = z.object({
  id: z.string(),
  tenantId: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  emailVerified: z.boolean(),
  phoneNumber: z.string().nullable(),
  phoneNumberVerified: z.boolean(),
  avatarUrl: z.string().nullable(),
  /** Unix time in seconds. */
  birthday: z.number().int().nullable(),
  gender: genderSchema.nullable(),
  locale: z.string().nullable(),
  enableMfa: z.boolean(),
  authenticatorType: tokenTypeSchema.nullable(),
  registrationMethod: registrationMethodSchema,
  /** Whether the account has a password: deleting it then asks for the password, else for a code. */
  hasPassword: z.boolean(),
});
export type Profile = z.infer<typeof profileSchema>;

/** Audit events a user is shown about their own account (GET /api/v1/me/security-events). */
export const securityEventTypes = [
  'login.success',
  'signin.new_browser',
  'login.failure',
  'login.locked',
  'password.reset',
  'password.changed',
  'email.changed',
  'phone.changed',
  'mfa.enabled',
  'mfa.disabled',
  'mfa.method_changed',
  'mfa.failure',
  'mfa.backup_codes_generated',
  'mfa.backup_code_used',
  'passwordless.success',
  'webauthn.registered',
  'webauthn.activated',
  'webauthn.deleted',
  'webauthn.login',
  'webauthn.login_failed',
  'webauthn.login_denied',
  'social.login',
  'social.registered',
  'social.linked',
  'session.ended',
] as const;

export const securityEventsSchema = z.object({
  items: z.array(
    z.object({
      type: z.enum(securityEventTypes),
      /** ISO 8601. */
      createdAt: z.string(),
      ip: z.string().nullable(),
      userAgent: z.string().nullable(),
    }),
  ),
});
export type SecurityEvents = z.infer<typeof securityEventsSchema>;
