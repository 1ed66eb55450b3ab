import { effectiveCapabilities, usernameLabelKey } from '@passgate/contract/rules';
import type { PublicClient, UsernameKind } from '@passgate/contract';

/** What the Login screen offers, by the client's capabilities and its tenant's switches (SPEC.md section 6). */
export interface LoginOptions {
  /** The kinds of username the password form accepts (empty: no password form). */
  usernameKinds: UsernameKind[];
  /** The label key of the username field: email, phoneNumber or emailOrPhoneNumber. */
  usernameLabel: 'email' | 'phoneNumber' | 'emailOrPhoneNumber';
  passwordForm: boolean;
  forgotPassword: boolean;
  passwordless: boolean;
  webauthn: boolean;
  register: boolean;
  google: boolean;
  facebook: boolean;
}

export interface BrowserSupport {
  /** `window.PublicKeyCredential` exists. */
  publicKeyCredential: boolean;
}

type ClientAccess = Pick<PublicClient, 'permissions' | 'tenant' | 'ggApp' | 'fbApp'>;

/** The kinds of username the client may register (users:email:register, users:phoneNumber:register). */
export function registerUsernameKinds(client: Pick<PublicClient, 'permissions'>): UsernameKind[] {
  const can = effectiveCapabilities(client.permissions);
  const kinds: UsernameKind[] = [];
  if (can.has('users:email:register')) kinds.push('email');
  if (can.has('users:phoneNumber:register')) kinds.push('phone');
  return kinds;
}

/**
 * The Google and Facebook buttons of the Register screen: the login button's rule (capability and
 * app id; the server checks social:<provider>:login on every call, and only then lets the SDK into
 * the page), plus social:<provider>:register and the tenant's registrationAllowed, since a first
 * sign-in there creates the account.
 */
export function registerSocialOptions(client: ClientAccess): { google: boolean; facebook: boolean } {
  const can = effectiveCapabilities(client.permissions);
  const login = loginOptions(client, { publicKeyCredential: false });
  const open = client.tenant.registrationAllowed;
  return {
    google: open && login.google && can.has('social:google:register'),
    facebook: open && login.facebook && can.has('social:facebook:register'),
  };
}

export function loginOptions(client: ClientAccess, browser: BrowserSupport): LoginOptions {
  const can = effectiveCapabilities(client.permissions);
  const tenant = client.tenant;

  const usernameKinds: UsernameKind[] = [];
  if (can.has('users:email:login')) usernameKinds.push('email');
  if (can.has('users:phoneNumber:login')) usernameKinds.push('phone');

  return {
    usernameKinds,
    usernameLabel: usernameLabelKey(usernameKinds),
    // Login by e-mail or phone needs the matching capability and passwordBasedAuthenticationAllowed.
    passwordForm: tenant.passwordBasedAuthenticationAllowed && usernameKinds.length > 0,
    // The password reset link needs resetPasswordAllowed and password:reset.
    forgotPassword: tenant.resetPasswordAllowed && can.has('password:reset'),
    // Passwordless needs passwordlessAuthenticationAllowed and passwordless:login.
    passwordless: tenant.passwordlessAuthenticationAllowed && can.has('passwordless:login'),
    // Device login needs webauthnAllowed, webauthn:login and browser PublicKeyCredential support.
    webauthn: tenant.webauthnAllowed && can.has('webauthn:login') && browser.publicKeyCredential,
    // Registration needs registrationAllowed and a register capability.
    register: tenant.registrationAllowed && registerUsernameKinds(client).length > 0,
    // Google and Facebook buttons need their capability and app id.
    google: can.has('social:google:login') && Boolean(client.ggApp?.clientId),
    facebook: can.has('social:facebook:login') && Boolean(client.fbApp?.clientId),
  };
}

/** A login-flow address that keeps the challenge (and the client and locale) of the current one. */
export function flowHref(path: string, current: URLSearchParams): string {
  const next = new URLSearchParams();
  for (const key of ['challenge', 'client_id', 'locale']) {
    const value = current.get(key);
    if (value) next.set(key, value);
  }
  const query = next.toString();
  return query ? `${path}?${query}` : path;
}
