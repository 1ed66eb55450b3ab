import { expect, type Page } from '@playwright/test';
import * as oidc from 'openid-client';

/**
 * A confidential relying party played by the scenario itself, for a client made during the run
 * (/demo signs in only as the seeded clients, whose secrets it knows): it builds the authorization
 * request (PKCE, state, nonce) with openid-client, catches the code the browser brings back to its
 * redirect address, and redeems it at the token endpoint with the client's secret.
 */
export class TestRelyingParty {
  private constructor(
    private readonly config: oidc.Configuration,
    readonly clientId: string,
    readonly redirectUri: string,
  ) {}

  static async discover(baseURL: string, clientId: string, secret: string, redirectUri: string): Promise<TestRelyingParty> {
    const config = await oidc.discovery(new URL(`${baseURL}/oidc`), clientId, undefined, oidc.ClientSecretBasic(secret), { execute: [oidc.allowInsecureRequests] });
    return new TestRelyingParty(config, clientId, redirectUri);
  }

  /**
   * Sends `page` to the authorization endpoint (and so to Passgate's Login screen); `finish` then
   * waits for the browser to bring a code back, after the sign-in `act` performs.
   */
  async start(page: Page): Promise<{ finish: (act: () => Promise<void>) => Promise<oidc.IDToken> }> {
    const rp = { codeVerifier: oidc.randomPKCECodeVerifier(), state: oidc.randomState(), nonce: oidc.randomNonce() };
    const url = oidc.buildAuthorizationUrl(this.config, {
      redirect_uri: this.redirectUri,
      scope: 'openid profile email',
      code_challenge: await oidc.calculatePKCECodeChallenge(rp.codeVerifier),
      code_challenge_method: 'S256',
      state: rp.state,
      nonce: rp.nonce,
    });
    await page.goto(url.href);
    const callbackPath = new URL(this.redirectUri).pathname;
    return {
      finish: async (act) => {
        // What counts is the request the browser makes to the redirect address: the provider's
        // 303 leads there, whatever that address then serves.
        const callbackRequest = page.waitForRequest((request) => new URL(request.url()).pathname === callbackPath);
        await act();
        const callback = new URL((await callbackRequest).url());
        expect(callback.searchParams.get('error'), callback.searchParams.get('error_description') ?? '').toBeNull();
        expect(callback.searchParams.get('state')).toBe(rp.state);
        const tokens = await oidc.authorizationCodeGrant(this.config, callback, { pkceCodeVerifier: rp.codeVerifier, expectedState: rp.state, expectedNonce: rp.nonce, idTokenExpected: true });
        const claims = tokens.claims();
        if (!claims) throw new Error('no ID token');
        return claims;
      },
    };
  }
}
