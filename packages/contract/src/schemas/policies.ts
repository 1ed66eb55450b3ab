import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from '../validation.ts';
import { usernamePatternProblem } from '../username-pattern.ts';

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


/** A pattern as written by an operator: one the linear-time engine runs (username-pattern.ts), else 1002 naming the field. */
const usernamePatternInputSchema = z
  .string()
  .max(500)
  .superRefine((source, ctx) => {
    const problem = usernamePatternProblem(source);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/**
 * The username policy as the admin API, the command line and the admin console write it. What is
 * read back (client views, the sign-in screens' client) keeps the plain schema above, so a pattern
 * stored before this check never makes an answer fail.
 */
export const usernamePolicyInputSchema = z.object({
  email: z
    .object({
      allowedDomains: z.array(z.string().min(1).max(253)).max(100).optional(),
      regexValidation: usernamePatternInputSchema.optional(),
    })
    .optional(),
  phone: z
    .object({
      regexValidation: usernamePatternInputSchema.optional(),
    })
    .optional(),
});
