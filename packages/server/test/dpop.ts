import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { exportJWK, SignJWT, type CryptoKey, type JWTHeaderParameters } from 'jose';
import { accessTokenHash } from '../src/plugins/dpop-proof.ts';
import { TestBrowser } from './browser.ts';
import { authorizationRequest, finishSignIn, oidc, relyingParty, startSignIn } from './relying-party.ts';

export interface KeyPair {
  publicKey: CryptoKey;
  privateKey: CryptoKey;
}

/** What a proof says, before it is signed; each test spoils one part of it. */
export interface ProofParts {
  header?: Record<string, unknown>;
  claims?: Record<string, unknown>;
}

export const now = () => Math.floor(Date.now() / 1000);

/** The RFC 9449 proof `key` makes for `method` `url` with `token`, with `parts` replacing or dropping (undefined) members. */
export async function proof(key: KeyPair, method: string, url: string, token: string, parts: ProofParts = {}): Promise<string> {
  const jwk = await exportJWK(key.publicKey);
  const header = { alg: 'ES256', typ: 'dpop+jwt', jwk, ...parts.header };
  const claims = { htm: method, htu: url, ath: accessTokenHash(token), iat: now(), jti: randomUUID(), ...parts.claims };
  return new SignJWT(claims).setProtectedHeader(header as JWTHeaderParameters).sign(key.privateKey);
}

/** The real authorization code + PKCE flow of the account client for `email`, with a proof by `signingKey` at the token endpoint: a token bound to that key. */
export async function boundAccountToken(serverUrl: string, email: string, signingKey: KeyPair): Promise<string> {
  const account = await relyingParty(serverUrl, 'account');
  const browser = new TestBrowser();
  const auth = await authorizationRequest(account);
  const challenge = await startSignIn(browser, serverUrl, auth);
  const login = await browser.postJson(`${serverUrl}/api/v1/users/login`, { challenge, username: email, password: 'Passw0rd!', client_id: 'account' });
  expect(login.status).toBe(200);
  const { redirectTo } = (await login.json()) as { redirectTo: string };
  const tokens = await finishSignIn(browser, serverUrl, account, auth, redirectTo, { DPoP: oidc.getDPoPHandle(account.config, signingKey) });
  expect(tokens.token_type.toLowerCase()).toBe('dpop');
  return tokens.access_token;
}
