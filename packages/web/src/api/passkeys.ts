import type { PasskeyLoginResponse, PasskeyOptionsResponse } from '@passgate/contract';
import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { api } from './client.ts';

/** The options as the browser library types them (the server builds them with @simplewebauthn/server). */
export type PasskeyOptions = Omit<PasskeyOptionsResponse, 'publickeyCredentialRequestOptions'> & { publickeyCredentialRequestOptions: PublicKeyCredentialRequestOptionsJSON };

/** Passkeys with autofill, in the login flow (`challenge` is the sign-in request this browser holds). */
export const passkeyApi = {
  /** Request options for the conditional get(): any passkey of this site, user verification required. */
  options: (body: { challenge: string; clientId: string }, signal?: AbortSignal) => api.post<PasskeyOptions>('/v2/passkey-login/options', { ...body }, { signal }),
  /** Signs in with the picked passkey; answers the provider's resume URL. */
  login: (body: { challenge: string; clientId: string; publickeyCredential: AuthenticationResponseJSON }) => api.post<PasskeyLoginResponse>('/v2/passkey-login', { ...body }),
};
