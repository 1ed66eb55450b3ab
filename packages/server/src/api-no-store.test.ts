import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import { TestBrowser } from '../test/browser.ts';
import { authorizationRequest, relyingParty, startSignIn } from '../test/relying-party.ts';
import { accountSignIn, call } from '../test/account.ts';

/**
 * A shared computer's browser cache, or a proxy between the user and Passgate, must not keep what
 * the API answers about one person (their profile, their sessions, the address a relying party
 * sent as login_hint) or a value meant to be used once (a TOTP secret, an MFA token). Every API
 * answer is `no-store` unless its route says otherwise (an avatar, a static script).
 */
describe('API answers are never stored by a cache', () => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer();
    token = (await accountSignIn(server.url, 'demo@example.com')).token;
  });
  afterAll(() => server?.close());

  it("the signed-in user's profile, sessions and security events", async () => {
    for (const path of ['/api/v1/me', '/api/v1/me/sessions', '/api/v1/me/security-events', '/api/v1/me/tenant', '/api/v1/webauthn-credentials/me']) {
      const answer = await call(server.url, 'GET', path, { token });
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get('cache-control'), path).toBe('no-store');
    }
  });

  it('a TOTP secret being set up', async () => {
    const answer = await call(server.url, 'POST', '/api/v1/me/mfa/associate', { token, body: { password: 'Passw0rd!', authenticator_type: 'totp' } });
    expect(answer.status).toBe(200);
    expect(answer.body.secret).toBeTruthy();
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it("a sign-in request carrying the relying party's login_hint, and the answer to its password", async () => {
    const browser = new TestBrowser();
    const rp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    const challenge = await startSignIn(browser, server.url, await authorizationRequest(rp, { login_hint: 'someone@example.com' }));
    const request = await browser.fetch(`${server.url}/api/v1/requests/login/${challenge}`);
    expect(request.status).toBe(200);
    expect(JSON.stringify(await request.json())).toContain('someone@example.com');
    expect(request.headers.get('cache-control')).toBe('no-store');

    const login = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username: 'demo@example.com', password: 'Passw0rd!', client_id: 'demo-app' });
    expect(login.status).toBe(200);
    expect(login.headers.get('cache-control')).toBe('no-store');
  });

  it('refusals too, and the admin API', async () => {
    expect((await call(server.url, 'GET', '/api/v1/me')).headers.get('cache-control')).toBe('no-store');
    expect((await call(server.url, 'GET', '/api/admin/v1/tenants')).headers.get('cache-control')).toBe('no-store');
  });

  it('what may be kept says so itself', async () => {
    const script = await fetch(`${server.url}/api/v1/requests/logout-submit.js`);
    expect(script.headers.get('cache-control')).toBe('public, max-age=3600');
  });
});
