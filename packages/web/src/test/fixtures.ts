import type { LoginRequestInfo, PublicClient, RuntimeConfig, Tenant } from '@passgate/contract';

export const testConfig: RuntimeConfig = {
  apiUrl: 'http://localhost:3000/api',
  authority: 'http://localhost:3000/oidc',
  clientId: 'account',
  redirectUri: 'http://localhost:3000/user/callback',
  postLogoutRedirectUri: 'http://localhost:3000/user/dashboard',
  scope: 'openid profile email phone',
  googleAppId: null,
  facebookAppId: null,
  policyUrl: 'http://localhost:3000/privacy',
  trackingAppId: null,
};

export function tenant(overrides: Partial<Tenant> = {}): Tenant {
  return {
    id: 'demo',
    name: 'Demo',
    brandName: 'Demo',
    termsUri: null,
    privacyUri: null,
    customRegisterCheckbox: null,
    passwordPolicy: { minLength: 8, uppercase: 1, number: 1, special: 0 },
    passwordlessAuthenticationAllowed: true,
    passwordBasedAuthenticationAllowed: true,
    registrationAllowed: true,
    resetPasswordAllowed: true,
    webauthnAllowed: true,
    rememberBrowserDays: null,
    ...overrides,
  };
}

/** The seeded demo-app: every capability, every tenant switch on. */
export function publicClient(overrides: Partial<PublicClient> = {}): PublicClient {
  return {
    clientId: 'demo-app',
    clientName: 'Demo App',
    logoUri: 'http://localhost:3000/themes/demo-app-logo.svg',
    theme: {
      primaryColor: '#1565C0',
      buttonColor: '#1565C0',
      backgroundColor: '#E3F2FD',
      title: 'Demo App',
      iconUri: 'http://localhost:3000/themes/demo-app-icon.svg',
      hyperlink: 'https://example.com/help',
      hyperlinkedText: 'Help centre',
    },
    i18n: {},
    permissions: [],
    ggApp: { clientId: 'google-app-id' },
    fbApp: { clientId: 'facebook-app-id' },
    tenantId: 'demo',
    tenant: tenant(),
    usernamePolicy: null,
    recaptchaConfiguration: { enabled: false },
    termsPrivacy: {},
    homeUri: 'http://localhost:3000/demo/login?client=demo-app',
    ...overrides,
  };
}

export function loginRequest(overrides: Partial<LoginRequestInfo> = {}, client: Partial<PublicClient> = {}): LoginRequestInfo {
  return {
    challenge: 'challenge-1',
    skip: false,
    client: publicClient(client),
    oidcContext: {},
    ...overrides,
  };
}
