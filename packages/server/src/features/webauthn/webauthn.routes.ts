import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  codeChallengeResponseSchema,
  deviceLoginDenyBodySchema,
  deviceLoginDenyResponseSchema,
  deviceLoginInfoSchema,
  deviceLoginParamsSchema,
  deviceLoginPollBodySchema,
  deviceLoginPollResponseSchema,
  deviceLoginQuerySchema,
  errorEnvelopeSchema,
  getChallengeBodySchema,
  getChallengeResponseSchema,
  resendChallengeBodySchema,
  resolveChallengeBodySchema,
  resolveChallengeResponseSchema,
  webauthnCredentialListSchema,
  webauthnRegisterBodySchema,
  webauthnRegisterQuerySchema,
  webauthnRegisterResponseSchema,
  webauthnRegistrationOptionsSchema,
} from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { authenticateForOwnFactors, signedIn } from '../account/signed-in.ts';
import { openPlaceLookup } from '../sessions/geoip.ts';
import { visitorMeta } from '../login-flow/visitor-input.ts';
import { kindOfType } from './device-codes.service.ts';
import { createDeviceLoginService } from './device-login.service.ts';
import { createWebauthnDevicesService } from './webauthn-devices.service.ts';

const bearer = [{ bearerAuth: [] }];
const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
  429: errorEnvelopeSchema,
  503: errorEnvelopeSchema,
};
const tags = ['webauthn'];
const ACCOUNT_AUTH =
  'ACTIVATION_WEBAUTHN and DELETION_WEBAUTHN need the `account` client\'s bearer token (1101, 1102; 1307 (403) for an administrator whose sign-in did not use their ' +
  'authenticator app or device, as for every change of their devices); AUTHN_WEBAUTHN is anonymous (login flow).';
const CODE_ERRORS = '1291 (429) a code was sent less than 60 s ago; 1290 (429) the hourly budget of codes is spent; 1292 (503) the code could not be sent (nothing stored)';

/**
 * WebAuthn devices (issue 6): the account area's list, registration, activation and deletion, and
 * sign-in with a device. The challenge calls of SPEC.md section 7 (/api/v2/get-challenge,
 * /api/v2/resolve-challenge) serve both; /api/v2/resend-challenge, /api/v2/device-login/{challenge},
 * /api/v2/device-login/poll and /api/v2/device-login/deny are the paths the spec leaves open.
 */
export async function webauthnRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const auth = signedIn(ctx);
  const devices = createWebauthnDevicesService(ctx);
  // Opened once, as for the session list: the verify-device page names the requester's place with it.
  const place = ctx.config.geoipDb ? await openPlaceLookup(ctx.config.geoipDb) : undefined;
  const deviceLogin = createDeviceLoginService(ctx, { place });

  api.get('/api/v1/webauthn-credentials/me', {
    schema: {
      tags,
      summary: "The signed-in user's devices",
      description: '`createdAt` and `lastUsedAt` are unix seconds (`lastUsedAt` null until the device signs in). 1303 (403) the tenant does not allow devices.',
      security: bearer,
      response: { 200: webauthnCredentialListSchema, ...errors },
    },
    onRequest: auth.authenticate,
    handler: (request) => devices.list(auth.user(request)),
  });

  api.get('/api/v1/webauthn-credentials/register', {
    schema: {
      tags,
      summary: 'Start registering a device: the options for the browser\'s create()',
      description:
        '`challenge` names this registration ceremony (5 minutes, single use, this user\'s) in the POST; `options` is a PublicKeyCredentialCreationOptionsJSON ' +
        '(RP id and origin from PUBLIC_URL, attestation none, resident key and user verification preferred) excluding every device of the user. 1303 (403) the tenant does not allow devices; ' +
        '1307 (403) an administrator whose sign-in did not use their authenticator app or device.',
      security: bearer,
      response: { 200: webauthnRegistrationOptionsSchema, ...errors },
    },
    onRequest: auth.authenticateForOwnFactors,
    handler: (request) => devices.registrationOptions(auth.user(request)),
  });

  api.post('/api/v1/webauthn-credentials/register', {
    schema: {
      tags,
      summary: 'Register the device: verifies the attestation, stores it inactive and sends its activation code',
      description:
        '`publickey_credential` is the RegistrationResponseJSON of the browser; `registration_challenge` the `options.challenge` of the GET. Answers the device id and the ' +
        'activation challenge (10 minutes) whose code went to the e-mail address, else the phone. 1001/1002 (field device_name) missing, blank or over 255 characters; ' +
        '1026 (field challenge) unknown, expired or used ceremony, or a registration_challenge that is not its own; 1002 (field publickey_credential) the attestation ' +
        `does not verify (origin, RP id, challenge, format); 1028 (409) this authenticator is already registered; 1303 (403); 1307 (403) as for the GET; ${CODE_ERRORS}.`,
      security: bearer,
      querystring: webauthnRegisterQuerySchema,
      body: webauthnRegisterBodySchema,
      response: { 200: webauthnRegisterResponseSchema, ...errors },
    },
    onRequest: auth.authenticateForOwnFactors,
    handler: (request) => devices.register(auth.user(request), request.query.challenge, request.body, visitorMeta(request)),
  });

  api.post('/api/v2/get-challenge', {
    schema: {
      tags,
      summary: 'A device challenge: an activation or deletion code, or a sign-in with a device',
      description:
        `${ACCOUNT_AUTH} ACTIVATION_WEBAUTHN / DELETION_WEBAUTHN (client_id, webauthn_credential_id): a challenge (10 minutes, single use) whose code goes to the ` +
        'e-mail address, else the phone (`destination` masked); 1002 (404, field webauthn_credential_id) not one of the user\'s devices; 1013 (409) activating an active device; ' +
        `${CODE_ERRORS}. AUTHN_WEBAUTHN (oauth_challenge = the sign-in challenge, username, client_id optional): a device sign-in request (300 s) with the request options ` +
        '(the account\'s active devices), `verifyUrl` and its QR code (PNG data URL) for another device, and the redirect URL key only this device gets (the poll needs it); ' +
        '1014 (field username) neither an e-mail address nor a phone number; 1027 (404) no such account or no active device; 1026 (field oauth_challenge) expired sign-in request; ' +
        '1303 (403) the tenant does not allow devices; 1301 (403) the client lacks webauthn:login; 1302/1012 (403) locked or disabled account; 1290 (429) too many attempts.',
      body: getChallengeBodySchema,
      response: { 200: getChallengeResponseSchema, ...errors },
    },
    handler: async (request) => {
      const { body } = request;
      const meta = visitorMeta(request);
      if (body.challengeType === 'AUTHN_WEBAUTHN') return deviceLogin.start(body, meta);
      const user = await authenticateForOwnFactors(ctx, request);
      return devices.codeChallenge(user, { ...body, challengeType: body.challengeType }, meta);
    },
  });

  api.post('/api/v2/resend-challenge', {
    schema: {
      tags,
      summary: 'A new code for the same activation or deletion challenge',
      description: `Answers as get-challenge; the earlier code stops working. 1026 (field challenge) unknown, expired or used challenge, or another user's; ${CODE_ERRORS}.`,
      security: bearer,
      body: resendChallengeBodySchema,
      response: { 200: codeChallengeResponseSchema, ...errors },
    },
    onRequest: auth.authenticateForOwnFactors,
    handler: async (request) => {
      const user = auth.user(request);
      const tenant = await devices.allowedTenant(user);
      return devices.deviceCodes.resend(user, tenant, request.body.challenge, visitorMeta(request));
    },
  });

  api.post('/api/v2/resolve-challenge', {
    schema: {
      tags,
      summary: 'Resolve a device challenge: activate or delete the device with its code, or approve a device sign-in with an assertion',
      description:
        `${ACCOUNT_AUTH} ACTIVATION_WEBAUTHN / DELETION_WEBAUTHN (challenge, webauthn_credential_id, code): answers the device id with \`active: true\` or \`deleted: true\`; ` +
        '1040 (field code) wrong code; 1026 expired, used or dead (5 wrong tries) code or challenge, or a challenge of another user, device or type. ' +
        'AUTHN_WEBAUTHN (challenge, oauth_challenge, publickey_credential = AuthenticationResponseJSON): verifies the assertion (origin, RP id, challenge, signature, ' +
        'a signature counter that moves forward, an active device of the request\'s user) and approves the request, once: `approved: true`. ' +
        '1102 (400, field publickey_credential, "Verify device failed") the assertion is refused; 1026 (field challenge) expired, used or unknown request, or another sign-in\'s.',
      body: resolveChallengeBodySchema,
      response: { 200: resolveChallengeResponseSchema, ...errors },
    },
    handler: async (request) => {
      const { body } = request;
      const meta = visitorMeta(request);
      if (body.challengeType === 'AUTHN_WEBAUTHN') return deviceLogin.resolve(body, meta);
      const user = await authenticateForOwnFactors(ctx, request);
      await devices.allowedTenant(user);
      return devices.deviceCodes.resolve(user, kindOfType(body.challengeType), body, meta);
    },
  });

  api.get('/api/v2/device-login/:challenge', {
    schema: {
      tags,
      summary: 'A device sign-in request, for the verify-device page of another device',
      description:
        '`challenge` is the request (authnChallenge of the QR link), `oauth_challenge` the sign-in challenge. Answers the client\'s name, the masked username, the seconds left, ' +
        'the request options to assert with, and `requester`: the browser and OS (from its user agent), address, `place` (only when the server has a local GeoIP database, ' +
        'named in the Accept-Language) and time of the browser that asked, so the person can tell whether it is their own sign-in. ' +
        '1026 (field challenge) expired, used, refused or unknown request, or another sign-in\'s; 1303, 1301 (403).',
      params: deviceLoginParamsSchema,
      querystring: deviceLoginQuerySchema,
      response: { 200: deviceLoginInfoSchema, ...errors },
    },
    handler: (request) => deviceLogin.info(request.params.challenge, request.query.oauth_challenge, visitorMeta(request).locale),
  });

  api.post('/api/v2/device-login/poll', {
    schema: {
      tags,
      summary: 'Poll a device sign-in request (the first device, with its redirect URL key)',
      description:
        '`challenge` is `getRedirectUrlChallenge`. 1200 (409, pending) not approved yet: poll again; approved: finishes the sign-in and answers `code: approved` and ' +
        '`redirectTo` (the provider\'s resume URL), once. 1026 (field challenge) expired, used or unknown request, or a wrong key; 1302/1012 (403) locked or disabled account.',
      body: deviceLoginPollBodySchema,
      response: { 200: deviceLoginPollResponseSchema, ...errors },
    },
    handler: (request) => deviceLogin.poll(request.body, visitorMeta(request)),
  });

  api.post('/api/v2/device-login/deny', {
    schema: {
      tags,
      summary: 'Refuse a device sign-in request ("No, it\'s not me", on the verify-device page)',
      description:
        '`challenge` is the request (authnChallenge of the QR link), `oauth_challenge` the sign-in challenge. A pending request becomes refused, once: it can no longer ' +
        'be approved, and the first device\'s poll answers 1026. Audited as webauthn.login_denied. Answers `denied: true`. ' +
        '1026 (field challenge) expired, used, already refused or unknown request, or another sign-in\'s; 1290 (429) too many attempts.',
      body: deviceLoginDenyBodySchema,
      response: { 200: deviceLoginDenyResponseSchema, ...errors },
    },
    handler: (request) => deviceLogin.deny(request.body, visitorMeta(request)),
  });
}
