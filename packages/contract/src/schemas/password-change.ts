import { z } from 'zod';
import { requestBody } from '../wire.ts';
import { PASSWORD_MAX_LENGTH } from '../validation.ts';
import { passwordSchema } from './common.ts';

/**
 * POST /api/v1/me/password: a signed-in user changes their password. The current one is checked
 * (1017 on current_password); the new one must meet the tenant's policy (1002 on new_password),
 * not be a common breached password (1104) nor a recent one (1031). Accounts without a password
 * get 1105. The user's other sessions are signed out; this one stays.
 */
export const passwordChangeBodySchema = requestBody({
  currentPassword: passwordSchema,
  newPassword: z.string().min(1).max(PASSWORD_MAX_LENGTH),
});
export type PasswordChangeBody = z.output<typeof passwordChangeBodySchema>;

export const passwordChangeResponseSchema = z.object({
  ok: z.literal(true),
  /** How many other sessions were signed out. */
  otherSessionsSignedOut: z.number().int().min(0),
});
export type PasswordChangeResponse = z.infer<typeof passwordChangeResponseSchema>;
