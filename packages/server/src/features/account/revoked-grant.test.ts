import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { oidc, relyingParty, signIn, type RelyingParty } from '../../../test/relying-party.ts';
import type { TestBrowser } from '../../../test/browser.ts';
import { accountSignIn, call, createAccount, userById } from '../../../test/account.ts';
import { createAdapterFactory } from '../../oidc/adapter.ts';

/**
 * An account access token is only as good as the grant it was issued under: once the grant is
 * revoked or gone, the account API and userinfo refuse the token, and nothing is changed with it.
 */
describe('account access tokens of a revoked grant', () => {
  let server: TestServer;
  let account: RelyingParty;

  beforeAll(async () => {
    server = await startTestServer();
    account = await relyingParty(server.url, 'account');
  });
  afterAll(() => server?.close());

  const userinfo = (token: string) => fetch(`${server.url}/oidc/me`, { headers: { authorization: `Bearer ${token}` } });

  async function grantIdOf(token: string): Promise<string> {
    const accessToken = await server.ctx.provider.AccessToken.find(token);
    expect(accessToken?.grantId).toEqual(expect.any(String));
    return accessToken!.grantId!;
  }

  /** Signed in and working: the account API and userinfo answer the token. */
  async function signedIn(email: string, params: Record<string, string> = {}) {
    const id = await createAccount(server.ctx, { email });
    const signIn = await accountSignIn(server.url, email, undefined, undefined, params);
    expect((await call(server.url, 'GET', '/api/v1/me', { token: signIn.token })).status).toBe(200);
    expect((await userinfo(signIn.token)).status).toBe(200);
    return { id, ...signIn };
  }

  /** The token is refused everywhere, with the answer for any invalid token, and changes nothing. */
  async function expectRefused(id: string, token: string) {
    const before = await userById(server.ctx, id);
    expect(await call(server.url, 'GET', '/api/v1/me', { token })).toMatchObject({ status: 401, body: { error: { code: 1102 } } });
    expect(await call(server.url, 'GET', '/api/v1/me/tenant', { token })).toMatchObject({ status: 401, body: { error: { code: 1102 } } });
    expect(await call(server.url, 'PATCH', '/api/v1/me', { token, body: { name: 'Changed', gender: 'Other' } })).toMatchObject({ status: 401, body: { error: { code: 1102 } } });
    expect(await call(server.url, 'DELETE', '/api/v1/me', { token })).toMatchObject({ status: 401, body: { error: { code: 1102 } } });
    expect(await userById(server.ctx, id)).toEqual(before);
    const answer = await userinfo(token);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toContain('invalid_token');
  }

  it('gives the account client no refresh token, even for offline_access, and refuses one made before', async () => {
    // What a script injected into Passgate's origin could ask for through the user's session.
    const { id, token, tokens } = await signedIn('no-refresh@example.com', { scope: 'openid profile email offline_access' });
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.scope?.split(' ')).not.toContain('offline_access');

    // One issued while the account client was still allowed the grant (an earlier version) is refused.
    const client = (await server.ctx.provider.Client.find('account'))!;
    const old = await new server.ctx.provider.RefreshToken({ accountId: id, grantId: await grantIdOf(token), client, scope: 'openid offline_access', gty: 'authorization_code' }).save();
    await expect(oidc.refreshTokenGrant(account.config, old)).rejects.toMatchObject({ error: 'invalid_request', error_description: 'requested grant type is not allowed for this client' });
    expect((await call(server.url, 'GET', '/api/v1/me', { token })).status).toBe(200);
  });

  /**
   * An access token of `grantId` bound to no provider session, as a relying party's offline_access
   * tokens are: for such a token, only the account API's own grant check stands in the way.
   */
  async function unboundToken(accountId: string, grantId: string): Promise<string> {
    const client = (await server.ctx.provider.Client.find('account'))!;
    return new server.ctx.provider.AccessToken({ accountId, grantId, client, scope: 'openid profile email', gty: 'authorization_code' }).save();
  }

  // A token from a sign-in is also bound to the provider session, which still names the grant; one
  // bound to none has nothing but the grant check between a destroyed grant and the token.
  for (const kind of ['a session-bound', 'an unbound'] as const) {
    it(`refuses ${kind} access token once its grant is destroyed, while the same user keeps another grant`, async () => {
      const signedInAs = await signedIn(`destroyed-${kind.split(' ')[1]}@example.com`);
      const { id } = signedInAs;
      const grantId = await grantIdOf(signedInAs.token);
      const token = kind === 'an unbound' ? await unboundToken(id, grantId) : signedInAs.token;
      expect((await call(server.url, 'GET', '/api/v1/me', { token })).status).toBe(200);
      // A second sign-in in another browser: another session, another grant.
      const other = await accountSignIn(server.url, `destroyed-${kind.split(' ')[1]}@example.com`);
      expect(await grantIdOf(other.token)).not.toBe(grantId);

      const grant = await server.ctx.provider.Grant.find(grantId);
      await grant!.destroy();
      // The token itself is still stored: only the check of its grant can refuse it.
      expect(await server.ctx.provider.AccessToken.find(token)).toBeDefined();

      await expectRefused(id, token);
      expect((await call(server.url, 'GET', '/api/v1/me', { token: other.token })).status).toBe(200);
      expect((await userinfo(other.token)).status).toBe(200);
    });
  }

  it('refuses an access token whose grant belongs to another client or another user', async () => {
    // A token bound to no session, so only the grant check can tell.
    const params = { scope: 'openid profile email offline_access' };
    const signedInAs = await signedIn('foreign-grant@example.com');
    const { id } = signedInAs;
    const token = await unboundToken(id, await grantIdOf(signedInAs.token));
    const demoApp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    const otherClientGrant = await grantIdOf((await signIn(server.url, demoApp, 'foreign-grant@example.com', 'Passw0rd!', undefined, params)).tokens.access_token);
    await createAccount(server.ctx, { email: 'someone-else@example.com' });
    const otherUserGrant = await grantIdOf((await accountSignIn(server.url, 'someone-else@example.com')).token);

    const adapter = createAdapterFactory({ db: server.ctx.db, redis: server.ctx.redis }, async () => undefined)('AccessToken');
    const payload = await adapter.find(token);
    for (const grantId of [otherClientGrant, otherUserGrant]) {
      await adapter.upsert(token, { ...payload!, grantId }, 60);
      expect(await server.ctx.provider.AccessToken.find(token)).toBeDefined();
      await expectRefused(id, token);
    }
    // Pointed back at its own grant, the same token works again: the grant was the only difference.
    await adapter.upsert(token, payload!, 60);
    expect((await call(server.url, 'GET', '/api/v1/me', { token })).status).toBe(200);
  });

  it('refuses the access token after the user signs out through end session', async () => {
    const { id, token, tokens, browser } = await signedIn('signed-out@example.com');
    await endSession(browser, tokens.id_token!);
    await expectRefused(id, token);
  });

  /** RP-initiated logout of the account area, confirmed on the logout screen. */
  async function endSession(browser: TestBrowser, idToken: string) {
    const endSessionUrl = oidc.buildEndSessionUrl(account.config, { id_token_hint: idToken, post_logout_redirect_uri: `${server.url}/user/dashboard` });
    const { url } = await browser.follow(endSessionUrl.toString(), server.url);
    const challenge = new URL(url).searchParams.get('challenge');
    expect(challenge).toBeTruthy();
    const decision = await browser.postJson(`${server.url}/api/v1/requests/logout/${challenge}`, { confirmed: true });
    expect(decision.status).toBe(200);
    const { redirectTo } = (await decision.json()) as { redirectTo: string };
    const html = await (await browser.fetch(redirectTo)).text();
    const action = /action="([^"]+)"/.exec(html)?.[1];
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
    expect(action).toBe(`${server.url}/oidc/session/end/confirm`);
    const confirm = await browser.fetch(action!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf: xsrf!, logout: 'yes' }),
    });
    expect(confirm.status).toBe(303);
  }
});
