import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  backupCodesResponseSchema,
  backupCodesStatusSchema,
  errorEnvelopeSchema,
  mfaAssociateBodySchema,
  mfaAssociateResponseSchema,
  mfaConfigResponseSchema,
  mfaConfirmBodySchema,
  mfaConfirmResponseSchema,
  mfaPasswordBodySchema,
  profileSchema,
} from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { visitorMeta } from '../login-flow/visitor-input.ts';
import { createMfaSettingsService } from '../mfa/mfa-settings.service.ts';
import type { SignedIn } from './signed-in.ts';

const bearer = [{ bearerAuth: [] }];
const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 429: errorEnvelopeSchema, 503: errorEnvelopeSchema };
const PASSWORD_ERRORS =
  '1017 (400, field password) wrong password; 1301 (403, "Registration does not support 2-Step Verification") the account does not sign in with a password ' +
  '(registered by phone code or a social provider); 1290 (429) too many password checks; 1307 (403) an administrator whose sign-in did not use their ' +
  'authenticator app or device (a change of their 2-step needs one: sign in again).';

/** 2-step verification settings of the signed-in user; every call re-checks the password. */
export function mfaSettingsRoutes(app: FastifyInstance, ctx: AppContext, auth: SignedIn): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const service = createMfaSettingsService(ctx);

  api.post('/api/v1/me/mfa/config', {
    schema: {
      tags: ['account'],
      summary: 'Re-check the password before the security settings; answers whether 2-step verification is on',
      description: `Answers \`enabledMfa\` and \`authenticatorType\` (totp, sms, email or null). ${PASSWORD_ERRORS}`,
      security: bearer,
      body: mfaPasswordBodySchema,
      response: { 200: mfaConfigResponseSchema, ...errors },
    },
    onRequest: auth.authenticate,
    handler: (request) => service.config(auth.user(request), request.body.password, visitorMeta(request)),
  });

  api.post('/api/v1/me/mfa/associate', {
    schema: {
      tags: ['account'],
      summary: 'Start setting up a 2-step verification method',
      description:
        'totp: a new authenticator secret, kept (encrypted) pending until confirmed; answers `qrcode` (PNG data URL of the `otpauthUri`), `secret` (base32, to type by hand) and `otpauthUri`. ' +
        'sms / email: sends a 6-digit code to the verified phone number / e-mail address and answers `resendAfter` (60); call again to resend. ' +
        `1002 (400, field authenticator_type) "Active your phone number first" / "Active your email first" without a verified one; 1291 (429) resend within 60 s; 1292 (503) the code could not be sent; ${PASSWORD_ERRORS}`,
      security: bearer,
      body: mfaAssociateBodySchema,
      response: { 200: mfaAssociateResponseSchema, ...errors },
    },
    onRequest: auth.authenticateForOwnFactors,
    handler: (request) => service.associate(auth.user(request), request.body.password, request.body.authenticatorType, visitorMeta(request)),
  });

  api.post('/api/v1/me/mfa/confirm', {
    schema: {
      tags: ['account'],
      summary: 'Turn 2-step verification on with the code of the method being set up',
      description:
        'The authenticator app\'s code (one step of clock drift either way) or the SMS / e-mail code. Turns 2-step on with this method (replacing an earlier one) and answers the updated profile. ' +
        'When 2-step was off, the answer also carries `backupCodes`: ten new single-use backup codes (`xxxxx-xxxxx`), shown in this answer only (stored as keyed hashes); changing the method keeps the earlier codes. ' +
        `1040 (400, field code) wrong code; 1026 (400, field code) no pending setup, or the code is expired, used or dead (5 wrong tries); ${PASSWORD_ERRORS}`,
      security: bearer,
      body: mfaConfirmBodySchema,
      response: { 200: mfaConfirmResponseSchema, ...errors },
    },
    onRequest: auth.authenticateForOwnFactors,
    handler: (request) => service.confirm(auth.user(request), request.body.password, request.body.authenticatorType, request.body.code, visitorMeta(request)),
  });

  api.post('/api/v1/me/mfa/disable', {
    schema: {
      tags: ['account'],
      summary: 'Turn 2-step verification off',
      description: `Not shown by the specification (its path is ours). Turns 2-step off, forgets the authenticator secret, deletes the backup codes and answers the updated profile. ${PASSWORD_ERRORS}`,
      security: bearer,
      body: mfaPasswordBodySchema,
      response: { 200: profileSchema, ...errors },
    },
    onRequest: auth.authenticateForOwnFactors,
    handler: (request) => service.disable(auth.user(request), request.body.password, visitorMeta(request)),
  });

  api.get('/api/v1/me/mfa/backup-codes', {
    schema: {
      tags: ['account'],
      summary: 'How many 2-step verification backup codes are left',
      description: 'Not shown by the specification (its path is ours). Answers `remaining` (unused codes; 0 with 2-step off) and `total` (10, the size of a set). Never the codes themselves.',
      security: bearer,
      response: { 200: backupCodesStatusSchema, ...errors },
    },
    onRequest: auth.authenticate,
    handler: (request) => service.backupCodesStatus(auth.user(request)),
  });

  api.post('/api/v1/me/mfa/backup-codes', {
    schema: {
      tags: ['account'],
      summary: 'Generate new 2-step verification backup codes',
      description:
        'Not shown by the specification (its path is ours). Replaces every earlier backup code (used or not: they stop working) with ten new single-use codes, ' +
        'answered in `backupCodes` (`xxxxx-xxxxx`) this once only. 1000 (400) 2-step verification is off; ' +
        PASSWORD_ERRORS,
      security: bearer,
      body: mfaPasswordBodySchema,
      response: { 200: backupCodesResponseSchema, ...errors },
    },
    onRequest: auth.authenticateForOwnFactors,
    handler: (request) => service.regenerateBackupCodes(auth.user(request), request.body.password, visitorMeta(request)),
  });
}
