import * as oidc from 'openid-client';
import { expect } from 'vitest';
import { TestBrowser } from './browser.ts';

export interface RelyingParty {
  config: oidc.Configuration;
  clientId: string;
  redirectUri: string;
}

/** A real relying party (openid-client) for one of the seeded clients. */
export async function relyingParty(baseUrl: string, clientId: string, secret?: string): Promise<RelyingParty> {
  const config = await oidc.discovery(new URL(`${baseUrl}/oidc`), clientId, secret, secret ? oidc.ClientSecretBasic(secret) : oidc.None(), {
    execute: [oidc.allowInsecureRequests],
  });
  const redirectUri = clientId === 'account' ? `${baseUrl}/user/callback` : `${baseUrl}/demo/callback`;
  return { config, clientId, redirectUri };
}

export interface Authorization {
  url: string;
  verifier: string;
  state: string;
  nonce: string;
}

export async function authorizationRequest(rp: RelyingParty, params: Record<string, string> = {}): Promise<Authorization> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(rp.config, {
    redirect_uri: rp.redirectUri,
    scope: 'openid profile email phone',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...params,
  });
  return { url: url.toString(), verifier, state, nonce };
}

/** Starts the request in `browser` and answers the challenge Passgate's login screen receives. */
export async function startSignIn(browser: TestBrowser, baseUrl: string, auth: Authorization): Promise<string> {
  const { url } = await browser.follow(auth.url, baseUrl);
  return loginChallenge(browser, url);
}

/** The challenge of the login screen address `url` reached in `browser`. */
function loginChallenge(browser: TestBrowser, url: string): string {
  const login = new URL(url);
  expect(login.pathname).toBe('/login');
  const challenge = login.searchParams.get('challenge');
  expect(challenge).toBeTruthy();
  TestBrowser.byChallenge.set(challenge as string, browser);
  return challenge as string;
}

/** Follows `redirectTo` back to the relying party and exchanges the code (with a DPoP proof when `options.DPoP` is given). */
export async function finishSignIn(browser: TestBrowser, baseUrl: string, rp: RelyingParty, auth: Authorization, redirectTo: string, options?: oidc.AuthorizationCodeGrantOptions) {
  const { url } = await browser.follow(redirectTo, baseUrl);
  expect(url.startsWith(rp.redirectUri)).toBe(true);
  return oidc.authorizationCodeGrant(
    rp.config,
    new URL(url),
    {
      pkceCodeVerifier: auth.verifier,
      expectedState: auth.state,
      expectedNonce: auth.nonce,
    },
    undefined,
    options,
  );
}

/**
 * The whole sign-in: authorization request, login API, code exchange. A browser already signed in
 * to the client's tenant comes straight back with a code (single sign-on), which is exchanged.
 */
export async function signIn(baseUrl: string, rp: RelyingParty, username: string, password: string, browser = new TestBrowser(), params: Record<string, string> = {}) {
  const auth = await authorizationRequest(rp, params);
  const { url } = await browser.follow(auth.url, baseUrl);
  if (url.startsWith(rp.redirectUri)) {
    const tokens = await oidc.authorizationCodeGrant(rp.config, new URL(url), { pkceCodeVerifier: auth.verifier, expectedState: auth.state, expectedNonce: auth.nonce });
    return { tokens, browser };
  }
  const challenge = loginChallenge(browser, url);
  const response = await browser.postJson(`${baseUrl}/api/v1/users/login`, { challenge, username, password, client_id: rp.clientId });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { redirectTo: string };
  const tokens = await finishSignIn(browser, baseUrl, rp, auth, body.redirectTo);
  return { tokens, browser };
}

export { oidc };
