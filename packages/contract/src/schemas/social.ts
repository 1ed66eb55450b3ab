import { z } from 'zod';
import { requestBody } from '../wire.ts';
import { challengeSchema, clientIdSchema, passwordSchema, redirectSchema } from './common.ts';
import { oneTimeCodeSchema } from './visitor.ts';
import { mfaStepSchema } from './login-flow.ts';

/**
 * Sign-in with Google and Facebook (SPEC.md sections 2, 6 and 7). The SPA obtains the user's
 * access token with the provider's own web SDK and posts it; the server checks it with the
 * provider. Needs the client's social:<authorizer>:login and its app id; with
 * social:<authorizer>:register a first sign-in creates the account. When the provider's verified
 * e-mail belongs to an account with no link to this identity, the answer is `linkRequired`: the
 * user proves that account (its password, or a code sent to its e-mail) before the identity is
 * linked. `client_id` may be left out: the challenge names the client.
 */

export const socialAuthorizers = ['google', 'facebook'] as const;
export const socialAuthorizerSchema = z.enum(socialAuthorizers);
export type SocialAuthorizer = z.infer<typeof socialAuthorizerSchema>;

/** Random, URL-safe; valid 10 minutes, single use. */
const linkTokenSchema = z.string().min(1).max(128).regex(/^[A-Za-z0-9_-]+$/);

/** POST /api/v1/social/login */
export const socialLoginBodySchema = requestBody({
  authorizer: socialAuthorizerSchema,
  /** The client's Google or Facebook app id, as the SPA read it from the login request. */
  appId: z.string().trim().min(1).max(300),
  challenge: challengeSchema,
  accessToken: z.string().trim().min(1).max(4096),
  clientId: clientIdSchema.optional(),
});
export type SocialLoginBody = z.output<typeof socialLoginBodySchema>;

export const socialLinkMethodSchema = z.enum(['password', 'code']);
export type SocialLinkMethod = z.infer<typeof socialLinkMethodSchema>;

/** The provider's verified e-mail belongs to an existing account: prove it with one of `methods`. */
export const socialLinkRequiredSchema = z.object({
  linkRequired: z.literal(true),
  linkToken: z.string(),
  /** The account's e-mail address, masked (a***@example.com). */
  email: z.string(),
  /** 'password' only when the account has one; 'code' always (a code sent to the e-mail). */
  methods: z.array(socialLinkMethodSchema),
});
export type SocialLinkRequired = z.infer<typeof socialLinkRequiredSchema>;

/** Signed in (`redirectTo`), `linkRequired`, or the 2-step screen next (`mfaRequired`). */
export const socialLoginResponseSchema = z.union([redirectSchema, socialLinkRequiredSchema, mfaStepSchema]);
export type SocialLoginResponse = z.infer<typeof socialLoginResponseSchema>;

/** POST /api/v1/social/link/send-code */
export const socialLinkSendCodeBodySchema = requestBody({
  challenge: challengeSchema,
  linkToken: linkTokenSchema,
  clientId: clientIdSchema.optional(),
});
export type SocialLinkSendCodeBody = z.output<typeof socialLinkSendCodeBodySchema>;

export const socialLinkCodeSentSchema = z.object({
  channel: z.literal('email'),
  /** The masked e-mail address the code went to. */
  destination: z.string(),
  resendAfter: z.number().int(),
});
export type SocialLinkCodeSent = z.infer<typeof socialLinkCodeSentSchema>;

/** POST /api/v1/social/link: exactly one of password and code. */
export const socialLinkBodySchema = requestBody({
  challenge: challengeSchema,
  linkToken: linkTokenSchema,
  password: passwordSchema.optional(),
  code: oneTimeCodeSchema.optional(),
  clientId: clientIdSchema.optional(),
});
export type SocialLinkBody = z.output<typeof socialLinkBodySchema>;
