import { User } from 'oidc-client-ts';
import { vi } from 'vitest';
import type { AdminClient, AdminMe, AdminTenant, AdminUserDetail } from '@passgate/contract';
import { testConfig } from './fixtures.ts';

/** The admin console's session in sessionStorage, as /admin/callback would leave it. */
export function signInAdmin(accessToken = 'admin-token-1'): void {
  const now = Math.floor(Date.now() / 1000);
  const user = new User({
    id_token: 'id-token-admin',
    session_state: null,
    access_token: accessToken,
    token_type: 'Bearer',
    scope: 'openid profile email',
    profile: { sub: 'u1', iss: testConfig.authority, aud: 'admin-console', exp: now + 3600, iat: now },
    expires_at: now + 3600,
  });
  window.sessionStorage.setItem(`oidc.user:${testConfig.authority}:admin-console`, user.toStorageString());
}

export const operatorMe: AdminMe = { userId: 'u1', email: 'op@example.com', name: 'Operator', operator: true, tenantAdminOf: [] };
export const tenantAdminMe: AdminMe = { userId: 'u2', email: 'quan@example.com', name: 'Quân', operator: false, tenantAdminOf: ['sen-vang'] };

/** GET /tenants as the console's tenant picker reads it. */
export function tenantPage(tenants: { id: string; name: string }[]) {
  return { items: tenants, page: 1, pageSize: 100, total: tenants.length };
}

/** A user's page as the admin API answers it. */
export function adminUser(overrides: Partial<AdminUserDetail> = {}): AdminUserDetail {
  return {
    id: 'user-an',
    tenantId: 'sen-vang',
    email: 'an@example.com',
    emailVerified: true,
    phoneNumber: null,
    phoneNumberVerified: false,
    name: 'Nguyễn Văn An',
    status: 'active',
    registrationMethod: 'password',
    locked: false,
    lockedUntil: null,
    twoStepMethod: null,
    createdAt: '2026-11-01T08:00:00.000Z',
    birthday: null,
    gender: null,
    locale: null,
    avatarUrl: null,
    hasPassword: true,
    passwordChangedAt: '2026-11-01T08:00:00.000Z',
    failedLoginCount: 0,
    lastSignInAt: null,
    identities: [],
    devices: [],
    twoStep: { method: null, backupCodesRemaining: 0 },
    adminRoles: { operator: false, tenantAdminOf: [] },
    recentEvents: [],
    ...overrides,
  };
}

/** The addresses (with their queries) `fetch` was called with for `path`, oldest first. */
export function requestedUrls(path: string): URL[] {
  return vi
    .mocked(fetch)
    .mock.calls.map(([input]) => new URL(input instanceof Request ? input.url : String(input), 'http://localhost:3000'))
    .filter((url) => url.pathname === path);
}

/** A confidential client as the admin API answers it. */
export function adminClient(overrides: Partial<AdminClient> = {}): AdminClient {
  return {
    id: 'shop',
    tenantId: 'demo',
    name: 'Shop',
    logoUri: null,
    theme: { primaryColor: '#1565C0', buttonColor: '#1565C0', backgroundColor: '#E3F2FD' },
    i18n: {},
    permissions: [],
    googleAppId: null,
    facebookAppId: null,
    facebookAppSecretSet: false,
    usernamePolicy: null,
    recaptcha: { enabled: false, siteKey: null, secretSet: false },
    termsPrivacy: {},
    redirectUris: ['https://shop.example/callback'],
    postLogoutRedirectUris: [],
    clientUri: null,
    initiateLoginUri: null,
    backchannelLogoutUri: null,
    backchannelLogoutSessionRequired: false,
    grantTypes: ['authorization_code', 'refresh_token'],
    tokenEndpointAuthMethod: 'client_secret_basic',
    confidential: true,
    hasSecret: true,
    builtIn: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** A tenant as the admin API answers it. */
export function adminTenant(overrides: Partial<AdminTenant> = {}): AdminTenant {
  return {
    id: 'demo',
    name: 'Demo',
    brandName: null,
    termsUri: null,
    privacyUri: null,
    customRegisterCheckbox: null,
    passwordPolicy: { minLength: 8, uppercase: 0, number: 0, special: 0 },
    passwordBasedAuthenticationAllowed: true,
    passwordlessAuthenticationAllowed: true,
    registrationAllowed: true,
    resetPasswordAllowed: true,
    webauthnAllowed: false,
    passwordMaxAgeDays: null,
    passwordWarningDays: null,
    passwordHistorySize: 0,
    rememberBrowserDays: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}
