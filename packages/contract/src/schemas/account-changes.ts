import { z } from 'zod';
import { requestBody } from '../wire.ts';
import { AVATAR_MAX_BYTES, BIRTHDAY_MIN, EMAIL_MAX_LENGTH, NAME_MAX_LENGTH } from '../validation.ts';
import { genderSchema } from './account.ts';
import { displayNameSchema, passwordSchema } from './common.ts';
import { oneTimeCodeSchema } from './visitor.ts';

/**
 * What a signed-in user changes in their own account (SPEC.md section 7, signed-in calls).
 * Bodies travel snake_case; every call needs the account area's bearer token.
 */


/** PATCH /api/v1/me: only the fields sent change; null clears birthday or gender. */
export const profileUpdateBodySchema = requestBody({
  name: displayNameSchema(NAME_MAX_LENGTH).optional(),
  birthday: z.number().int().min(BIRTHDAY_MIN).nullable().optional(),
  gender: genderSchema.nullable().optional(),
});
export type ProfileUpdateBody = z.output<typeof profileUpdateBodySchema>;


/** POST /api/v1/me/avatar: the (cropped) image as base64, or as a data: URL carrying its type. */
export const avatarUploadBodySchema = requestBody({
  image: z.string().min(1).max(Math.ceil((AVATAR_MAX_BYTES * 4) / 3) + 100),
  /** The declared type, when `image` is plain base64 rather than a data: URL. */
  mimeType: z.string().max(100).optional(),
});
export type AvatarUploadBody = z.output<typeof avatarUploadBodySchema>;

/** POST /api/v1/me/email/verify */
/**
 * `password`: the account's password, needed when the sign-in behind the token is older than
 * RECENT_SIGN_IN_SECONDS (a stolen token alone must not move the address codes and recovery go to).
 */
const contactProof = { password: passwordSchema.optional() };
export const emailVerifyBodySchema = requestBody({ email: z.string().trim().min(1).max(EMAIL_MAX_LENGTH), ...contactProof });
/** POST /api/v1/me/email/update */
export const emailUpdateBodySchema = requestBody({ email: z.string().trim().min(1).max(EMAIL_MAX_LENGTH), code: oneTimeCodeSchema });
/** POST /api/v1/me/phoneNumber/verify */
export const phoneVerifyBodySchema = requestBody({ phoneNumber: z.string().trim().min(1).max(32), ...contactProof });
/** POST /api/v1/me/phoneNumber/update */
export const phoneUpdateBodySchema = requestBody({ phoneNumber: z.string().trim().min(1).max(32), code: oneTimeCodeSchema });

/**
 * DELETE /api/v1/me: the proof (the password of an account that has one, else the code sent by
 * POST /api/v1/me/deletion/code) and the typed confirmation (see `deletionConfirmationOf`).
 */
export const accountDeletionBodySchema = requestBody({
  password: passwordSchema.optional(),
  code: oneTimeCodeSchema.optional(),
  confirmation: z.string().trim().min(1).max(EMAIL_MAX_LENGTH),
});
export type AccountDeletionBody = z.output<typeof accountDeletionBodySchema>;
