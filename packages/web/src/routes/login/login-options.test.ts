import { describe, expect, it } from 'vitest';
import type { Capability, PublicClient } from '@passgate/contract';
import { publicClient, tenant } from '../../test/fixtures.ts';
import { flowHref, loginOptions, registerSocialOptions } from './login-options.ts';

const withDevice = { publicKeyCredential: true };
const noDevice = { publicKeyCredential: false };

function client(permissions: Capability[], switches: Partial<PublicClient['tenant']> = {}, extra: Partial<PublicClient> = {}) {
  return publicClient({ permissions, tenant: tenant(switches), ...extra });
}

describe('loginOptions (SPEC.md section 6)', () => {
  it('offers everything when the client lists no capability and every tenant switch is on', () => {
    expect(loginOptions(client([]), withDevice)).toEqual({
      usernameKinds: ['email', 'phone'],
      usernameLabel: 'emailOrPhoneNumber',
      passwordForm: true,
      forgotPassword: true,
      passwordless: true,
      webauthn: true,
      register: true,
      google: true,
      facebook: true,
    });
  });

  describe('username and password form', () => {
    it('accepts e-mail only with users:email:login', () => {
      const options = loginOptions(client(['users:email:login']), withDevice);
      expect(options).toMatchObject({ passwordForm: true, usernameKinds: ['email'], usernameLabel: 'email' });
    });

    it('accepts phone only with users:phoneNumber:login', () => {
      const options = loginOptions(client(['users:phoneNumber:login']), withDevice);
      expect(options).toMatchObject({ passwordForm: true, usernameKinds: ['phone'], usernameLabel: 'phoneNumber' });
    });

    it('accepts both with both capabilities', () => {
      const options = loginOptions(client(['users:email:login', 'users:phoneNumber:login']), withDevice);
      expect(options).toMatchObject({ passwordForm: true, usernameKinds: ['email', 'phone'], usernameLabel: 'emailOrPhoneNumber' });
    });

    it('is hidden without a login capability', () => {
      expect(loginOptions(client(['passwordless:login']), withDevice).passwordForm).toBe(false);
    });

    it('is hidden when the tenant disallows password-based authentication', () => {
      expect(loginOptions(client(['users:email:login'], { passwordBasedAuthenticationAllowed: false }), withDevice).passwordForm).toBe(false);
    });
  });

  describe('Forgot password? (resetPasswordAllowed and password:reset)', () => {
    it('is shown with both', () => {
      expect(loginOptions(client(['users:email:login', 'password:reset']), withDevice).forgotPassword).toBe(true);
    });
    it('is hidden without the capability', () => {
      expect(loginOptions(client(['users:email:login']), withDevice).forgotPassword).toBe(false);
    });
    it('is hidden when the tenant disallows it', () => {
      expect(loginOptions(client(['password:reset'], { resetPasswordAllowed: false }), withDevice).forgotPassword).toBe(false);
    });
  });

  describe('Log in without a password (passwordlessAuthenticationAllowed and passwordless:login)', () => {
    it('is shown with both', () => {
      expect(loginOptions(client(['passwordless:login']), withDevice).passwordless).toBe(true);
    });
    it('is hidden without the capability', () => {
      expect(loginOptions(client(['passwordless:register', 'users:email:login']), withDevice).passwordless).toBe(false);
    });
    it('is hidden when the tenant disallows it', () => {
      expect(loginOptions(client(['passwordless:login'], { passwordlessAuthenticationAllowed: false }), withDevice).passwordless).toBe(false);
    });
  });

  describe('Log in with your device (webauthnAllowed, webauthn:login and PublicKeyCredential)', () => {
    it('is shown with all three', () => {
      expect(loginOptions(client(['webauthn:login']), withDevice).webauthn).toBe(true);
    });
    it('is hidden when the browser has no PublicKeyCredential', () => {
      expect(loginOptions(client(['webauthn:login']), noDevice).webauthn).toBe(false);
    });
    it('is hidden without the capability', () => {
      expect(loginOptions(client(['webauthn:register', 'users:email:login']), withDevice).webauthn).toBe(false);
    });
    it('is hidden when the tenant disallows it', () => {
      expect(loginOptions(client(['webauthn:login'], { webauthnAllowed: false }), withDevice).webauthn).toBe(false);
    });
  });

  describe('Create account (registrationAllowed and a register capability)', () => {
    it('is shown with users:email:register', () => {
      expect(loginOptions(client(['users:email:register']), withDevice).register).toBe(true);
    });
    it('is shown with users:phoneNumber:register', () => {
      expect(loginOptions(client(['users:phoneNumber:register']), withDevice).register).toBe(true);
    });
    it('is hidden with only login capabilities', () => {
      expect(loginOptions(client(['users:email:login', 'users:phoneNumber:login']), withDevice).register).toBe(false);
    });
    it('is hidden when the tenant disallows registration', () => {
      expect(loginOptions(client(['users:email:register'], { registrationAllowed: false }), withDevice).register).toBe(false);
    });
  });

  describe('Google and Facebook buttons (capability and app id)', () => {
    it('are shown with their capability and app id', () => {
      const options = loginOptions(client(['social:google:login', 'social:facebook:login']), withDevice);
      expect(options).toMatchObject({ google: true, facebook: true });
    });
    it('are hidden without their capability', () => {
      const options = loginOptions(client(['social:google:register', 'social:facebook:register', 'users:email:login']), withDevice);
      expect(options).toMatchObject({ google: false, facebook: false });
    });
    it('are hidden without an app id', () => {
      const options = loginOptions(client(['social:google:login', 'social:facebook:login'], {}, { ggApp: null, fbApp: null }), withDevice);
      expect(options).toMatchObject({ google: false, facebook: false });
    });
    it('are independent of each other', () => {
      expect(loginOptions(client(['social:google:login', 'social:facebook:login'], {}, { fbApp: null }), withDevice)).toMatchObject({ google: true, facebook: false });
      expect(loginOptions(client(['social:facebook:login']), withDevice)).toMatchObject({ google: false, facebook: true });
    });
  });

  it('matches the seeded partner-shop: e-mail password login only', () => {
    expect(loginOptions(client(['users:email:login']), withDevice)).toEqual({
      usernameKinds: ['email'],
      usernameLabel: 'email',
      passwordForm: true,
      forgotPassword: false,
      passwordless: false,
      webauthn: false,
      register: false,
      google: false,
      facebook: false,
    });
  });
});

describe('registerSocialOptions (Google and Facebook on the Register screen)', () => {
  const both: Capability[] = ['social:google:login', 'social:google:register', 'social:facebook:login', 'social:facebook:register'];

  it('shows both with every capability, the app ids and registration allowed (also when the client lists none)', () => {
    expect(registerSocialOptions(client(both))).toEqual({ google: true, facebook: true });
    expect(registerSocialOptions(client([]))).toEqual({ google: true, facebook: true });
  });

  it('needs the register capability of that provider', () => {
    expect(registerSocialOptions(client(['social:google:login', 'social:google:register', 'social:facebook:login']))).toEqual({ google: true, facebook: false });
  });

  it('needs the login capability too: the sign-in call itself requires it', () => {
    expect(registerSocialOptions(client(['social:google:register', 'social:facebook:login', 'social:facebook:register']))).toEqual({ google: false, facebook: true });
  });

  it('needs the app id', () => {
    expect(registerSocialOptions(client(both, {}, { ggApp: null, fbApp: { clientId: '' } }))).toEqual({ google: false, facebook: false });
    expect(registerSocialOptions(client(both, {}, { fbApp: null }))).toEqual({ google: true, facebook: false });
  });

  it('is hidden when the tenant disallows registration', () => {
    expect(registerSocialOptions(client(both, { registrationAllowed: false }))).toEqual({ google: false, facebook: false });
  });
});

describe('flowHref', () => {
  it('keeps the challenge and the locale, and nothing else', () => {
    expect(flowHref('/register', new URLSearchParams('challenge=abc&locale=en&other=1'))).toBe('/register?challenge=abc&locale=en');
    expect(flowHref('/register', new URLSearchParams('challenge=abc'))).toBe('/register?challenge=abc');
    expect(flowHref('/register', new URLSearchParams(''))).toBe('/register');
  });
});
