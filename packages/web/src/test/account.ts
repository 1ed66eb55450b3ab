import { User } from 'oidc-client-ts';
import type { Profile } from '@passgate/contract';
import { testConfig } from './fixtures.ts';

/** Where oidc-client-ts keeps the account area's user in sessionStorage. */
export const USER_KEY = `oidc.user:${testConfig.authority}:${testConfig.clientId}`;

/** Puts a signed-in user (access token `access-token-1`) in sessionStorage, as the sign-in callback would. */
export function signIn(expiresIn = 3600, claims: Record<string, string> = {}): void {
  const now = Math.floor(Date.now() / 1000);
  const user = new User({
    id_token: 'id-token-1',
    session_state: null,
    access_token: 'access-token-1',
    token_type: 'Bearer',
    scope: testConfig.scope,
    profile: { sub: 'u1', iss: testConfig.authority, aud: testConfig.clientId, exp: now + expiresIn, iat: now, ...claims },
    expires_at: now + expiresIn,
  });
  window.sessionStorage.setItem(USER_KEY, user.toStorageString());
}

/** GET /api/v1/me of the demo user. */
export function profile(overrides: Partial<Profile> = {}): Profile {
  return {
    id: 'u1',
    tenantId: 'demo',
    name: 'Nguyễn Văn An',
    email: 'demo@example.com',
    emailVerified: true,
    phoneNumber: null,
    phoneNumberVerified: false,
    avatarUrl: null,
    birthday: null,
    gender: null,
    locale: null,
    enableMfa: false,
    authenticatorType: null,
    registrationMethod: 'password',
    hasPassword: true,
    ...overrides,
  };
}
