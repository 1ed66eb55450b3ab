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
});
export type Profile = z.infer<typeof profileSchema>;
