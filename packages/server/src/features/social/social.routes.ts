import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  errorEnvelopeSchema,
  redirectOrMfaStepSchema,
  socialLinkBodySchema,
  socialLinkCodeSentSchema,
  socialLinkSendCodeBodySchema,
  socialLoginBodySchema,
  socialLoginResponseSchema,
} from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { visitorMeta } from '../login-flow/visitor-input.ts';
import { createSocialLinkService } from './social-link.service.ts';
import { createSocialLoginService } from './social-login.service.ts';

const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  429: errorEnvelopeSchema,
  503: errorEnvelopeSchema,
};
const linkErrors =
  '1026 (400, field link_token) the link token is unknown, expired (10 minutes), used, dead after 5 wrong passwords, or belongs to another challenge or client; 1012 (403) disabled account';

/** Sign-in with Google and Facebook, and linking such an identity to an existing account (SPEC.md sections 6 and 7). */
export async function socialRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const login = createSocialLoginService(ctx);
  const link = createSocialLinkService(ctx);

  api.post('/api/v1/social/login', {
    schema: {
      tags: ['login flow'],
      summary: 'Sign in with a Google or Facebook access token obtained by the provider\'s web SDK',
      description:
        'The server checks the token with the provider (Google: tokeninfo, audience = the client\'s Google app id, then userinfo; Facebook: debug_token with the ' +
        'app\'s credentials, then /me with appsecret_proof). Answers `redirectTo` when the identity is linked to an account or a new account was created, or ' +
        '`linkRequired` (with `linkToken`, valid 10 minutes, the masked `email` and the `methods` that can prove the account) when the provider\'s verified e-mail ' +
        'belongs to an existing account that has no link to this identity. 1026 (400, field challenge) unknown or expired challenge; 1301 (403) the client lacks ' +
        'social:<authorizer>:login; 1002 (400, field app_id) not the client\'s app id (or it has none); 1063 (401, field access_token) the token is not valid, not ' +
        'for this app or expired; 1064 (Google) / 1065 (Facebook) (401) the provider gave no id; 1010 (404) no account and the client lacks ' +
        'social:<authorizer>:register or the tenant does not allow registration; 1012 (403) disabled account; 1302 (403) account locked after failed passwords; ' +
        '1293 (503) the provider cannot be reached, failed, or the client has no Facebook app secret configured; 1290 (429) too many sign-in attempts from this address.',
      body: socialLoginBodySchema,
      response: { 200: socialLoginResponseSchema, ...errors },
    },
    handler: (request) => login.login(request.body, visitorMeta(request)),
  });

  api.post('/api/v1/social/link/send-code', {
    schema: {
      tags: ['login flow'],
      summary: 'Send a code to the e-mail of the account a social sign-in wants to link to',
      description: `Answers the masked address and \`resendAfter\` (60). ${linkErrors}; 1291 (429) a code was sent less than 60 s ago; 1290 (429) the hourly budget of codes is spent; 1292 (503) the e-mail could not be sent.`,
      body: socialLinkSendCodeBodySchema,
      response: { 200: socialLinkCodeSentSchema, ...errors },
    },
    handler: (request) => link.sendCode(request.body, visitorMeta(request)),
  });

  api.post('/api/v1/social/link', {
    schema: {
      tags: ['login flow'],
      summary: 'Prove the existing account (its password or the e-mailed code), link the social identity to it and sign in',
      description:
        `Exactly one of \`password\` and \`code\` (1001/1002 otherwise). Answers \`redirectTo\`, or \`mfaRequired\` when the account has 2-step verification on; the identity then signs in directly. ${linkErrors}; ` +
        '1017 (401, field password) wrong password (counts toward the account\'s lockout); 1302 (403) the account is locked; 1103 (403) the password has expired (reset it, or link with the code); 1040 (400, field code) wrong code; ' +
        '1026 (400, field code) the code is expired, used, dead after 5 wrong tries, or was not sent for this link token.',
      body: socialLinkBodySchema,
      response: { 200: redirectOrMfaStepSchema, ...errors },
    },
    handler: (request) => link.link(request.body, visitorMeta(request)),
  });
}
