import { z } from 'zod';
import { requestBody } from '../wire.ts';
import { DEVICE_NAME_MAX_LENGTH } from '../validation.ts';
import { challengeSchema, clientIdSchema, displayNameSchema, usernameSchema } from './common.ts';
import { oneTimeCodeSchema } from './visitor.ts';

/**
 * WebAuthn devices (SPEC.md sections 2 to 7; issue 6): the account area registers, activates
 * (with a code) and deletes devices; the login flow signs in with one, on this device or on
 * another that scans a QR code. Top-level body keys travel snake_case; the nested WebAuthn JSON
 * (`publickey_credential`, the options) keeps the exact shape of @simplewebauthn's JSON types.
 */

const base64url = z.string().min(1).max(16_384).regex(/^[A-Za-z0-9_-]+$/, 'base64url');
const transports = z.array(z.string().max(32)).max(10);

/** RegistrationResponseJSON of @simplewebauthn/browser's startRegistration(). */
export const registrationResponseJsonSchema = z.looseObject({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: base64url,
    attestationObject: base64url,
    authenticatorData: base64url.optional(),
    transports: transports.optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url.optional(),
  }),
  clientExtensionResults: z.looseObject({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
});

/** AuthenticationResponseJSON of @simplewebauthn/browser's startAuthentication(). */
export const authenticationResponseJsonSchema = z.looseObject({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: base64url.optional(),
  }),
  clientExtensionResults: z.looseObject({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
});

const credentialDescriptor = z.object({ id: z.string(), type: z.string(), transports: z.array(z.string()).optional() });
const hints = z.array(z.string()).optional();

/** PublicKeyCredentialCreationOptionsJSON: what the browser's create() needs (via startRegistration). */
export const creationOptionsJsonSchema = z.object({
  rp: z.object({ name: z.string(), id: z.string().optional() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  challenge: z.string(),
  pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.string() })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(credentialDescriptor).optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.string().optional(),
      requireResidentKey: z.boolean().optional(),
      residentKey: z.string().optional(),
      userVerification: z.string().optional(),
    })
    .optional(),
  hints,
  attestation: z.string().optional(),
  attestationFormats: z.array(z.string()).optional(),
  extensions: z.unknown().optional(),
});

/** PublicKeyCredentialRequestOptionsJSON: what the browser's get() needs (via startAuthentication). */
export const requestOptionsJsonSchema = z.object({
  challenge: z.string(),
  timeout: z.number().optional(),
  rpId: z.string().optional(),
  allowCredentials: z.array(credentialDescriptor).optional(),
  userVerification: z.string().optional(),
  hints,
  extensions: z.unknown().optional(),
});

/** The id of one of the user's devices (`webauthnCredentialId`). */
export const webauthnCredentialIdSchema = z.string().min(1).max(64);

// ---- Account area (bearer token of the `account` client) ----

/** GET /api/v1/webauthn-credentials/me */
export const webauthnCredentialSchema = z.object({
  id: z.string(),
  deviceName: z.string(),
  active: z.boolean(),
  /** Unix seconds. */
  createdAt: z.number().int(),
  /** Unix seconds; null until the device signs in. */
  lastUsedAt: z.number().int().nullable(),
});
export type WebauthnCredential = z.infer<typeof webauthnCredentialSchema>;
export const webauthnCredentialListSchema = z.object({ items: z.array(webauthnCredentialSchema) });
export type WebauthnCredentialList = z.infer<typeof webauthnCredentialListSchema>;

/** GET /api/v1/webauthn-credentials/register: `challenge` names the ceremony in the POST's query. */
export const webauthnRegistrationOptionsSchema = z.object({ challenge: z.string(), options: creationOptionsJsonSchema });
export type WebauthnRegistrationOptions = z.infer<typeof webauthnRegistrationOptionsSchema>;

/** POST /api/v1/webauthn-credentials/register?challenge=… */
export const webauthnRegisterQuerySchema = z.object({ challenge: challengeSchema });
export const webauthnRegisterBodySchema = requestBody({
  deviceName: displayNameSchema(DEVICE_NAME_MAX_LENGTH),
  publickeyCredential: registrationResponseJsonSchema,
  /** `options.challenge` of the GET. */
  registrationChallenge: base64url,
});
export type WebauthnRegisterBody = z.output<typeof webauthnRegisterBodySchema>;
/** The device is stored inactive; `challenge` is its activation challenge, whose code was sent. */
/** The device is stored inactive; its activation code went to `destination` (masked), the `challenge` names it. */
export const webauthnRegisterResponseSchema = z.object({
  webauthnCredentialId: z.string(),
  challenge: z.string(),
  channel: z.enum(['email', 'sms']),
  destination: z.string(),
});
export type WebauthnRegisterResponse = z.infer<typeof webauthnRegisterResponseSchema>;

// ---- Challenges: POST /api/v2/get-challenge, /api/v2/resend-challenge, /api/v2/resolve-challenge ----

export const challengeTypes = ['ACTIVATION_WEBAUTHN', 'DELETION_WEBAUTHN', 'AUTHN_WEBAUTHN'] as const;
export const challengeTypeSchema = z.enum(challengeTypes);
export type ChallengeType = z.infer<typeof challengeTypeSchema>;

/**
 * POST /api/v2/get-challenge. ACTIVATION_WEBAUTHN / DELETION_WEBAUTHN (bearer): client_id,
 * webauthn_credential_id. AUTHN_WEBAUTHN (anonymous): client_id (optional), oauth_challenge, username.
 */
export const getChallengeBodySchema = requestBody({
  challengeType: challengeTypeSchema,
  clientId: clientIdSchema.optional(),
  webauthnCredentialId: webauthnCredentialIdSchema.optional(),
  oauthChallenge: challengeSchema.optional(),
  username: usernameSchema.optional(),
});
export type GetChallengeBody = z.output<typeof getChallengeBodySchema>;

/** The activation or deletion code was sent; `destination` is masked. */
export const codeChallengeResponseSchema = z.object({
  challenge: z.string(),
  channel: z.enum(['email', 'sms']),
  destination: z.string(),
  resendAfter: z.number().int(),
});
export type CodeChallengeResponse = z.infer<typeof codeChallengeResponseSchema>;

/** A device sign-in request: this device asserts with the options, or another scans `qrCode` (a PNG data URL of `verifyUrl`). */
export const deviceLoginChallengeResponseSchema = z.object({
  challenge: z.string(),
  /** Seconds. */
  expiresIn: z.number().int(),
  verifyUrl: z.string(),
  qrCode: z.string(),
  challengeRequest: z.object({
    /** Only this device gets it: the poll needs it. */
    redirectUrlKey: z.string(),
    getRedirectUrlChallenge: z.string(),
    publickeyCredentialRequestOptions: requestOptionsJsonSchema,
  }),
});
export type DeviceLoginChallengeResponse = z.infer<typeof deviceLoginChallengeResponseSchema>;

export const getChallengeResponseSchema = z.union([codeChallengeResponseSchema, deviceLoginChallengeResponseSchema]);
export type GetChallengeResponse = z.infer<typeof getChallengeResponseSchema>;

/** POST /api/v2/resend-challenge (bearer): a new code for the same activation or deletion challenge. */
export const resendChallengeBodySchema = requestBody({ challenge: challengeSchema });
export type ResendChallengeBody = z.output<typeof resendChallengeBodySchema>;

/**
 * POST /api/v2/resolve-challenge. ACTIVATION_WEBAUTHN / DELETION_WEBAUTHN (bearer): challenge,
 * webauthn_credential_id, code. AUTHN_WEBAUTHN (anonymous): challenge, oauth_challenge, publickey_credential.
 */
export const resolveChallengeBodySchema = requestBody({
  challengeType: challengeTypeSchema,
  challenge: challengeSchema,
  webauthnCredentialId: webauthnCredentialIdSchema.optional(),
  code: oneTimeCodeSchema.optional(),
  oauthChallenge: challengeSchema.optional(),
  publickeyCredential: authenticationResponseJsonSchema.optional(),
  clientId: clientIdSchema.optional(),
});
export type ResolveChallengeBody = z.output<typeof resolveChallengeBodySchema>;

export const resolveChallengeResponseSchema = z.union([
  z.object({ webauthnCredentialId: z.string(), active: z.literal(true) }),
  z.object({ webauthnCredentialId: z.string(), deleted: z.literal(true) }),
  z.object({ approved: z.literal(true) }),
]);
export type ResolveChallengeResponse = z.infer<typeof resolveChallengeResponseSchema>;

// ---- Sign in with a device: the second device and the poll ----

/** GET /api/v2/device-login/{challenge}?oauth_challenge=… (the verify-device page on the second device). */
export const deviceLoginParamsSchema = z.object({ challenge: challengeSchema });
export const deviceLoginQuerySchema = z.object({ oauth_challenge: challengeSchema });
/**
 * The browser that started the request, so the person asked to approve it can tell a sign-in of
 * their own from one a stranger started and sent them the link of.
 */
export const deviceLoginRequesterSchema = z.object({
  /** 'Chrome 131'; empty when the browser did not say. */
  browser: z.string(),
  /** 'Windows 10'; empty when the browser did not say. */
  os: z.string(),
  /** The address the request came from; null for requests stored before it was recorded. */
  ip: z.string().nullable(),
  /** An approximate place for the address ('Hanoi, Vietnam'), only when the server has a local GeoIP database. */
  place: z.string().optional(),
  /** ISO 8601. */
  requestedAt: z.string(),
});
export type DeviceLoginRequester = z.infer<typeof deviceLoginRequesterSchema>;

export const deviceLoginInfoSchema = z.object({
  clientName: z.string(),
  /** Masked. */
  username: z.string(),
  /** Seconds left. */
  expiresIn: z.number().int(),
  publickeyCredentialRequestOptions: requestOptionsJsonSchema,
  requester: deviceLoginRequesterSchema,
});
export type DeviceLoginInfo = z.infer<typeof deviceLoginInfoSchema>;

/** POST /api/v2/device-login/deny: the person asked to approve refuses ("No, it's not me"). */
export const deviceLoginDenyBodySchema = requestBody({
  challenge: challengeSchema,
  oauthChallenge: challengeSchema,
});
export type DeviceLoginDenyBody = z.output<typeof deviceLoginDenyBodySchema>;
export const deviceLoginDenyResponseSchema = z.object({ denied: z.literal(true) });
export type DeviceLoginDenyResponse = z.infer<typeof deviceLoginDenyResponseSchema>;

/** POST /api/v2/device-login/poll: 409 with code 1200 until approved; then `redirectTo`, once. */
export const deviceLoginPollBodySchema = requestBody({
  challenge: challengeSchema,
  redirectUrlKey: z.string().min(1).max(128),
  oauthChallenge: challengeSchema,
});
export type DeviceLoginPollBody = z.output<typeof deviceLoginPollBodySchema>;
export const deviceLoginPollResponseSchema = z.object({ code: z.literal('approved'), redirectTo: z.string() });
export type DeviceLoginPollResponse = z.infer<typeof deviceLoginPollResponseSchema>;
