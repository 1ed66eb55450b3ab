import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from '../validation.ts';

export const passwordPolicySchema = z.object({
  minLength: z.number().int().min(1).max(PASSWORD_MAX_LENGTH),
  uppercase: z.number().int().min(0).max(PASSWORD_MAX_LENGTH),
  number: z.number().int().min(0).max(PASSWORD_MAX_LENGTH),
  special: z.number().int().min(0).max(PASSWORD_MAX_LENGTH),
});
export type PasswordPolicy = z.infer<typeof passwordPolicySchema>;

export const usernamePolicySchema = z.object({
  email: z
    .object({
      allowedDomains: z.array(z.string().min(1).max(253)).max(100).optional(),
      regexValidation: z.string().max(500).optional(),
    })
    .optional(),
  phone: z
    .object({
      regexValidation: z.string().max(500).optional(),
    })
    .optional(),
});
export type UsernamePolicy = z.infer<typeof usernamePolicySchema>;

