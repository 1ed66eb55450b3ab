import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, USERNAME_MAX_LENGTH } from '../validation.ts';
import { LOCALES } from '../locale.ts';

export const errorEnvelopeSchema = z.object({
  error: z.object({
    code: z.number().int(),
    message: z.string(),
    /** The offending field (snake_case, as sent) for validation errors. */
    field: z.string().optional(),
    /** The id of the request (also its X-Request-Id and the `requestId` of its log lines), to quote to support. */
    requestId: z.string().optional(),
    /** Seconds until trying again may succeed (also the Retry-After header): the end of an account's lock (1302). */
    retryAfter: z.number().int().positive().optional(),
  }),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

export const localeSchema = z.enum(LOCALES);

/** Interaction uids and other opaque challenges: URL-safe random strings. */
export const challengeSchema = z.string().min(1).max(128).regex(/^[A-Za-z0-9_-]+$/);
export const clientIdSchema = z.string().min(1).max(100);
export const usernameSchema = z.string().trim().min(1).max(USERNAME_MAX_LENGTH);
export const passwordSchema = z.string().min(1).max(PASSWORD_MAX_LENGTH);

/** A C0 or C1 control character (tab and line breaks included). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001F\u007F-\u009F]/;

/**
 * A name people read (a person's, a device's, a tenant's or a client's): one line of text, shown on
 * screens and in e-mails and SMS, so no control character, which would only break what shows it.
 */
export const displayNameSchema = (maxLength: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(maxLength)
    .refine((value) => !CONTROL_CHARACTER.test(value), 'must not hold control characters (tab and line breaks included)');

export const redirectSchema = z.object({ redirectTo: z.string() });
