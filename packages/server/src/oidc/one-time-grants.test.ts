import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../test/browser.ts';
import { authorizationRequest, relyingParty, signIn, startSignIn, type RelyingParty } from '../../test/relying-party.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { createClient } from '../../test/visitor.ts';

/**
 * A code or a rotating refresh token is good for one request. Two requests presenting it at once
 * both read it unused before either marks it (on PostgreSQL and Redis, where requests run side by
 * side), and each got tokens of its own: two chains from one stolen refresh token, neither ever
 * flagged as reuse. Now exactly one gets tokens, and the other is treated as the reuse it is: the
 * grant is revoked, the winner's new tokens with it. The server suite runs this on SQLite, and on
 * PostgreSQL with Redis (npm run test:postgres).
 */
describe('a code or refresh token presented twice at once', () => {
  let server: TestServer;
  let tokenUrl: string;
  let userinfoUrl: string;
  beforeAll(async () => {
    server = await startTestServer();
    tokenUrl = `${server.url}/oidc/token`;
    userinfoUrl = `${server.url}/oidc/me`;
    // A public client's refresh token rotates at every use (the account area's client gets none).
    await createClient(server.ctx, server.url, { id: 'public-app', tenantId: 'demo' });
  });
  afterAll(() => server?.close());

  const form = (fields: Record<string, string>, authorization?: string) =>
    fetch(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(authorization ? { authorization } : {}) },
      body: new URLSearchParams(fields),
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as Record<string, string> }));
  const refresh = (refreshToken: string) => form({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'public-app' });
  const userinfo = async (accessToken: string) => (await fetch(userinfoUrl, { headers: { authorization: `Bearer ${accessToken}` } })).status;

  async function refreshTokenOfPublicClient() {
    const rp = await relyingParty(server.url, 'public-app');
    const { tokens } = await signIn(server.url, rp, 'demo@example.com', 'Passw0rd!', new TestBrowser(), { scope: 'openid offline_access' });
    expect(tokens.refresh_token).toBeTruthy();
    return tokens.refresh_token!;
  }

  it('a refresh token: one request gets tokens, the other invalid_grant, and the grant is revoked with the winner\'s tokens', async () => {
    const refreshToken = await refreshTokenOfPublicClient();
    const answers = await Promise.all([refresh(refreshToken), refresh(refreshToken)]);
    const winners = answers.filter((a) => a.status === 200);
    expect(winners).toHaveLength(1);
    expect(answers.find((a) => a.status !== 200)).toEqual({ status: 400, body: expect.objectContaining({ error: 'invalid_grant' }) });
    const winner = winners[0]!.body;
    expect((await refresh(winner.refresh_token!)).body.error).toBe('invalid_grant');
    expect(await userinfo(winner.access_token!)).toBe(401);
  });

  it('an authorization code: one of four exchanges gets tokens, the others invalid_grant, and the winner\'s tokens are revoked', async () => {
    const rp: RelyingParty = await relyingParty(server.url, 'demo-app', 'demo-secret');
    const browser = new TestBrowser();
    const auth = await authorizationRequest(rp);
    const challenge = await startSignIn(browser, server.url, auth);
    const login = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username: 'demo@example.com', password: 'Passw0rd!', client_id: rp.clientId });
    const { redirectTo } = (await login.json()) as { redirectTo: string };
    const callback = new URL((await browser.follow(redirectTo, server.url)).url);
    const code = callback.searchParams.get('code')!;
    expect(code).toBeTruthy();
    const basic = `Basic ${Buffer.from('demo-app:demo-secret').toString('base64')}`;
    const exchange = () => form({ grant_type: 'authorization_code', code, redirect_uri: rp.redirectUri, code_verifier: auth.verifier }, basic);
    const answers = await Promise.all([exchange(), exchange(), exchange(), exchange()]);
    const winners = answers.filter((a) => a.status === 200);
    expect(winners).toHaveLength(1);
    for (const loser of answers.filter((a) => a.status !== 200)) expect(loser).toEqual({ status: 400, body: expect.objectContaining({ error: 'invalid_grant' }) });
    expect(await userinfo(winners[0]!.body.access_token!)).toBe(401);
    expect((await exchange()).body.error).toBe('invalid_grant');
  });

  it('the race in slow motion: what the winner saves after the loser revoked is refused too, as the grant itself is gone', async () => {
    const { provider } = server.ctx;
    const stored = (await provider.RefreshToken.find(await refreshTokenOfPublicClient()))!;
    const { grantId, accountId } = stored;
    if (!grantId || !accountId) throw new Error('the refresh token names no grant or account');
    // The winner marks the token used; the loser then finds it marked and revokes the grant.
    await provider.RefreshToken.adapter.consume(stored.jti);
    await expect(provider.RefreshToken.adapter.consume(stored.jti)).rejects.toMatchObject({ error: 'invalid_grant' });
    // Only now does the winner write its new tokens under that grant, as a slower request can.
    const client = (await provider.Client.find('public-app'))!;
    const lateAccess = await new provider.AccessToken({ accountId, grantId, client, scope: 'openid', gty: 'refresh_token' }).save();
    const lateRefresh = await new provider.RefreshToken({ accountId, grantId, client, scope: 'openid offline_access', gty: 'refresh_token' }).save();
    expect(await userinfo(lateAccess)).toBe(401);
    expect(await refresh(lateRefresh)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await provider.Grant.find(grantId)).toBeUndefined();
  });

  it('one request at a time, a rotating refresh token keeps working along its chain', async () => {
    let refreshToken = await refreshTokenOfPublicClient();
    for (let i = 0; i < 3; i++) {
      const answer = await refresh(refreshToken);
      expect(answer.status).toBe(200);
      expect(await userinfo(answer.body.access_token!)).toBe(200);
      refreshToken = answer.body.refresh_token!;
    }
  });
});
