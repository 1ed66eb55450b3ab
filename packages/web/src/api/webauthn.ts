import type {
  CodeChallengeResponse,
  DeviceLoginChallengeResponse,
  DeviceLoginDenyResponse,
  DeviceLoginInfo,
  DeviceLoginPollResponse,
  WebauthnCredentialList,
  WebauthnRegisterResponse,
  WebauthnRegistrationOptions,
} from '@passgate/contract';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { api } from './client.ts';

// The contract describes the WebAuthn JSON loosely (any extra member passes); the browser library
// wants its own precise types. The server builds these objects with @simplewebauthn/server, so
// the answers are read with the browser library's types.
export type RegistrationOptions = Omit<WebauthnRegistrationOptions, 'options'> & { options: PublicKeyCredentialCreationOptionsJSON };
export type DeviceLoginChallenge = Omit<DeviceLoginChallengeResponse, 'challengeRequest'> & {
  challengeRequest: Omit<DeviceLoginChallengeResponse['challengeRequest'], 'publickeyCredentialRequestOptions'> & {
    publickeyCredentialRequestOptions: PublicKeyCredentialRequestOptionsJSON;
  };
};
export type DeviceLoginRequest = Omit<DeviceLoginInfo, 'publickeyCredentialRequestOptions'> & {
  publickeyCredentialRequestOptions: PublicKeyCredentialRequestOptionsJSON;
};

export type CodeChallengeType = 'ACTIVATION_WEBAUTHN' | 'DELETION_WEBAUTHN';

/** The account area's device calls (bearer token of the `account` client). */
export const webauthnAccountApi = {
  list: (token: string) => api.get<WebauthnCredentialList>('/v1/webauthn-credentials/me', { token }),
  registrationOptions: (token: string) => api.get<RegistrationOptions>('/v1/webauthn-credentials/register', { token }),
  /** Stores the device inactive and sends its activation code; answers the activation challenge. */
  register: (token: string, ceremony: string, body: { deviceName: string; publickeyCredential: RegistrationResponseJSON; registrationChallenge: string }) =>
    api.post<WebauthnRegisterResponse>(`/v1/webauthn-credentials/register?challenge=${encodeURIComponent(ceremony)}`, { ...body }, { token }),
  /** A new activation or deletion challenge for one device: its code is sent at once. */
  codeChallenge: (token: string, body: { challengeType: CodeChallengeType; clientId: string; webauthnCredentialId: string }) =>
    api.post<CodeChallengeResponse>('/v2/get-challenge', { ...body }, { token }),
  resendCode: (token: string, challenge: string) => api.post<CodeChallengeResponse>('/v2/resend-challenge', { challenge }, { token }),
  resolveCode: (token: string, body: { challengeType: CodeChallengeType; challenge: string; webauthnCredentialId: string; code: string }) =>
    api.post<{ webauthnCredentialId: string; active?: true; deleted?: true }>('/v2/resolve-challenge', { ...body }, { token }),
};

/** Signing in with a device (anonymous, in the login flow: `oauthChallenge` is the interaction). */
export const deviceLoginApi = {
  start: (body: { clientId: string; oauthChallenge: string; username: string }) =>
    api.post<DeviceLoginChallenge>('/v2/get-challenge', { challengeType: 'AUTHN_WEBAUTHN', ...body }),
  /** The second device reads the request it was sent to approve. */
  request: (challenge: string, oauthChallenge: string) =>
    api.get<DeviceLoginRequest>(`/v2/device-login/${encodeURIComponent(challenge)}?oauth_challenge=${encodeURIComponent(oauthChallenge)}`),
  /** The assertion of a registered device approves the request (from this device or the second one). */
  approve: (body: { challenge: string; oauthChallenge: string; publickeyCredential: AuthenticationResponseJSON; clientId?: string }) =>
    api.post<{ approved: true }>('/v2/resolve-challenge', { challengeType: 'AUTHN_WEBAUTHN', ...body }),
  /** "No, it's not me": the request can no longer be approved, and the first device stops waiting. */
  deny: (body: { challenge: string; oauthChallenge: string }) => api.post<DeviceLoginDenyResponse>('/v2/device-login/deny', { ...body }),
  /** 409/1200 while pending; `redirectTo` once approved. */
  poll: (body: { challenge: string; redirectUrlKey: string; oauthChallenge: string }) => api.post<DeviceLoginPollResponse>('/v2/device-login/poll', { ...body }),
};
