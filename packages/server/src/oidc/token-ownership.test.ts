import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { oidc, relyingParty, signIn, type RelyingParty } from '../../test/relying-party.ts';
import { createClient, createTenant } from '../../test/visitor.ts';

/**
 * Introspection (RFC 7662) and revocation (RFC 7009) over real HTTP: a client sees and revokes only
 * the tokens issued to itself, whatever its tenant.
 */
describe('introspection and revocation of tokens issued to another client', () => {
  let server: TestServer;
  let demoApp: RelyingParty;
  let partnerShop: RelyingParty;
  let otherTenantApp: RelyingParty;

  beforeAll(async () => {
    server = await startTestServer();
    demoApp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    partnerShop = await relyingParty(server.url, 'partner-shop', 'partner-secret');
    await createTenant(server.ctx, { id: 'elsewhere' });
    await createClient(server.ctx, server.url, { id: 'elsewhere-app', tenantId: 'elsewhere', tokenEndpointAuthMethod: 'client_secret_basic', secret: 'elsewhere-secret' });
    otherTenantApp = await relyingParty(server.url, 'elsewhere-app', 'elsewhere-secret');
  });
  afterAll(() => server?.close());

  /** demo-app's tokens for the demo user, refresh token included. */
  async function demoAppTokens() {
    const { tokens } = await signIn(server.url, demoApp, 'demo@example.com', 'Passw0rd!', undefined, { scope: 'openid profile email offline_access' });
    expect(tokens.refresh_token).toEqual(expect.any(String));
    return { accessToken: tokens.access_token, refreshToken: tokens.refresh_token!, sub: tokens.claims()!.sub };
  }

  /** The raw answer of the revocation endpoint, so its status is asserted rather than assumed. */
  async function revoke(clientId: string, secret: string, token: string, hint?: 'access_token' | 'refresh_token') {
    const response = await fetch(`${server.url}/oidc/token/revocation`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, ...(hint ? { token_type_hint: hint } : {}) }),
    });
    return { status: response.status, body: await response.text() };
  }

  const userinfo = (accessToken: string) => fetch(`${server.url}/oidc/me`, { headers: { authorization: `Bearer ${accessToken}` } });

  it("answers a client's own access and refresh tokens as active, with their claims", async () => {
    const { accessToken, refreshToken, sub } = await demoAppTokens();
    expect(await oidc.tokenIntrospection(demoApp.config, accessToken)).toMatchObject({ active: true, client_id: 'demo-app', sub, token_type: 'Bearer' });
    expect(await oidc.tokenIntrospection(demoApp.config, refreshToken)).toMatchObject({ active: true, client_id: 'demo-app', sub });
  });

  it('answers only active: false to another client of the same tenant, for the access and the refresh token', async () => {
    const { accessToken, refreshToken } = await demoAppTokens();
    for (const [token, hint] of [[accessToken, 'access_token'], [refreshToken, 'refresh_token'], [accessToken, undefined], [refreshToken, undefined]] as const) {
      expect(await oidc.tokenIntrospection(partnerShop.config, token, hint ? { token_type_hint: hint } : {})).toEqual({ active: false });
    }
  });

  it('answers only active: false to a client of another tenant', async () => {
    const { accessToken, refreshToken } = await demoAppTokens();
    expect(await oidc.tokenIntrospection(otherTenantApp.config, accessToken)).toEqual({ active: false });
    expect(await oidc.tokenIntrospection(otherTenantApp.config, refreshToken)).toEqual({ active: false });
  });

  it("answers 200 to another client's revocation and revokes nothing: the tokens keep working for their owner", async () => {
    const { accessToken, refreshToken, sub } = await demoAppTokens();

    // The same answer as for an unknown token (RFC 7009 section 2.2), so nothing is learnt either.
    expect(await revoke('partner-shop', 'partner-secret', 'no-such-token')).toEqual({ status: 200, body: '' });
    for (const [clientId, secret] of [['partner-shop', 'partner-secret'], ['elsewhere-app', 'elsewhere-secret']]) {
      expect(await revoke(clientId!, secret!, refreshToken, 'refresh_token')).toEqual({ status: 200, body: '' });
      expect(await revoke(clientId!, secret!, refreshToken)).toEqual({ status: 200, body: '' });
      expect(await revoke(clientId!, secret!, accessToken, 'access_token')).toEqual({ status: 200, body: '' });
    }

    const answer = await userinfo(accessToken);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ sub, email: 'demo@example.com' });
    expect(await oidc.tokenIntrospection(demoApp.config, accessToken)).toMatchObject({ active: true });
    expect(await oidc.tokenIntrospection(demoApp.config, refreshToken)).toMatchObject({ active: true });
    const refreshed = await oidc.refreshTokenGrant(demoApp.config, refreshToken);
    expect(refreshed.claims()?.sub).toBe(sub);
    expect((await userinfo(refreshed.access_token)).status).toBe(200);
  });

  it('still revokes a refresh token for the client it was issued to, and its access token with it', async () => {
    const { accessToken, refreshToken } = await demoAppTokens();
    expect(await revoke('demo-app', 'demo-secret', refreshToken)).toEqual({ status: 200, body: '' });
    expect(await oidc.tokenIntrospection(demoApp.config, refreshToken)).toEqual({ active: false });
    expect(await oidc.tokenIntrospection(demoApp.config, accessToken)).toEqual({ active: false });
    await expect(oidc.refreshTokenGrant(demoApp.config, refreshToken)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await userinfo(accessToken)).status).toBe(401);
  });
});
