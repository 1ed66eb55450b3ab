import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { codeSentResponseSchema, errorEnvelopeSchema, mfaLoginBodySchema, mfaTriggerBodySchema, redirectSchema } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { visitorMeta } from '../login-flow/visitor-input.ts';
import { createMfaLoginService } from './mfa-login.service.ts';

const errors = { 400: errorEnvelopeSchema, 403: errorEnvelopeSchema, 429: errorEnvelopeSchema, 503: errorEnvelopeSchema };

/** The second step of a sign-in with 2-step verification on (SPEC.md section 7, login flow). */
export async function mfaRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const service = createMfaLoginService(ctx);

  api.post('/api/v1/mfa/trigger-challenge', {
    schema: {
      tags: ['login flow'],
      summary: 'Send the SMS or e-mail code of the second sign-in step',
      description:
        '`mfa_token` and `token_type` as `POST /api/v1/users/login` answered them. The first code is not sent by the sign-in itself: the 2-step screen calls this ' +
        'when it opens, and again for Resend. Sends a 6-digit code (valid 10 minutes, 5 tries) to the account\'s phone (sms) or e-mail address (email) and answers `resendAfter` (60). ' +
        '1002 (400) for token_type totp (the app makes its own codes); 1026 (400, field mfa_token) for a token that is unknown, expired (5 minutes), used, dead or of another type; ' +
        '1291 (429) a code was sent less than 60 s ago; 1290 (429) the hourly budget of codes is spent; 1292 (503) the code could not be sent.',
      body: mfaTriggerBodySchema,
      response: { 200: codeSentResponseSchema, ...errors },
    },
    handler: (request) => service.trigger(request.body, visitorMeta(request)),
  });

  api.post('/api/v1/mfa/login', {
    schema: {
      tags: ['login flow'],
      summary: 'Finish a sign-in with the 2-step verification code',
      description:
        'Checks `otp`: the authenticator app\'s code (TOTP, SHA-1, 6 digits, 30 s, one step of drift either way; each code is accepted once) or the SMS/e-mail code; ' +
        'or, instead of `otp`, `backup_code`: one of the account\'s ten single-use backup codes (case, spaces and hyphens ignored), with `token_type` still the account\'s method. ' +
        'Either spends one of the MFA token\'s 5 tries. ' +
        '`remember_browser` true (the box \'Don\'t ask again on this browser for N days\', offered when the tenant\'s `rememberBrowserDays` is set; ignored otherwise): the answer also sets ' +
        'the HttpOnly cookie `passgate_remembered_browser` (Path=/api/v1/, SameSite=Lax, Max-Age N days) with which later sign-ins of this user on this browser skip the second step. ' +
        'Answers `redirectTo` (the provider\'s resume URL). 1040 (400, field otp or backup_code) wrong or replayed code, or a backup code that is wrong or used already; 1026 (400) the MFA token is unknown, expired (5 minutes), ' +
        'already used, of another type, issued for another challenge, or dead after 5 wrong codes (sign in with the password again), or the SMS/e-mail code is expired, ' +
        'dead after 5 wrong tries or not sent yet (field otp); 1290 (429) too many code checks from this address.',
      body: mfaLoginBodySchema,
      response: { 200: redirectSchema, ...errors },
    },
    handler: async (request, reply) => {
      const { redirectTo, rememberCookie } = await service.login(request.body, visitorMeta(request));
      if (rememberCookie) void reply.header('set-cookie', rememberCookie);
      return { redirectTo };
    },
  });
}
