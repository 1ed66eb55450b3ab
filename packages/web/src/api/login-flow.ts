import type { LoginRequestInfo, LoginResponse, LogoutRequestInfo, PasswordLoginBody, PublicClient } from '@passgate/contract';
import { api } from './client.ts';

const challengePath = (challenge: string) => encodeURIComponent(challenge);

/** The calls of the hosted login flow (SPEC.md section 7). */
export const loginFlowApi = {
  /** With `authnChallenge` on the verify-device page of a second device, which does not hold the sign-in. */
  loginRequest: (challenge: string, authnChallenge?: string | null) =>
    api.get<LoginRequestInfo>(`/v1/requests/login/${challengePath(challenge)}${authnChallenge ? `?authn_challenge=${encodeURIComponent(authnChallenge)}` : ''}`),
  /** A client's public face, for a screen whose sign-in request is gone. */
  publicClient: (clientId: string) => api.get<PublicClient>(`/v1/clients/${encodeURIComponent(clientId)}`),
  passwordLogin: (body: PasswordLoginBody) => api.post<LoginResponse>('/v1/users/login', { ...body }),
  logoutRequest: (challenge: string) => api.get<LogoutRequestInfo>(`/v1/requests/logout/${challengePath(challenge)}`),
  decideLogout: (challenge: string, confirmed: boolean) =>
    api.post<{ redirectTo: string }>(`/v1/requests/logout/${challengePath(challenge)}`, { confirmed }),
};
