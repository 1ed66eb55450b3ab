import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { authorizationRequest, relyingParty, startSignIn, type RelyingParty } from '../../../test/relying-party.ts';
import { parseAnswerBody } from '../../../test/visitor.ts';

/** The login API refuses bad input with its 4xx code and the field, never a 500. */
describe('POST /api/v1/users/login and the login request, with bad input', () => {
  let server: TestServer;
  let demoApp: RelyingParty;
  const browser = new TestBrowser();

  beforeAll(async () => {
    server = await startTestServer();
    demoApp = await relyingParty(server.url, 'demo-app', 'demo-secret');
  });
  afterAll(() => server?.close());

  async function challenge(rp = demoApp) {
    return startSignIn(browser, server.url, await authorizationRequest(rp));
  }
  async function login(body: unknown) {
    const response = await browser.postJson(`${server.url}/api/v1/users/login`, body);
    return { status: response.status, body: parseAnswerBody(await response.text()) };
  }

  it('answers 1017 for a wrong password and for an unknown user alike', async () => {
    const c = await challenge();
    const wrong = await login({ challenge: c, username: 'demo@example.com', password: 'wrong-password' });
    expect(wrong).toEqual({ status: 401, body: { error: { code: 1017, message: expect.any(String) } } });
    const unknown = await login({ challenge: c, username: 'nobody@example.com', password: 'Passw0rd!' });
    expect(unknown).toEqual(wrong);
    const types = await server.ctx.db.selectFrom('audit_events').select('type').where('type', '=', 'login.failure').execute();
    expect(types.length).toBeGreaterThanOrEqual(2);
  });

  it('answers 1026 for an unknown or expired challenge', async () => {
    expect(await login({ challenge: 'no-such-challenge', username: 'demo@example.com', password: 'Passw0rd!' })).toMatchObject({
      status: 400,
      body: { error: { code: 1026, field: 'challenge' } },
    });
    const info = await browser.fetch(`${server.url}/api/v1/requests/login/no-such-challenge`);
    expect(info.status).toBe(400);
    expect((await info.json() as any).error.code).toBe(1026);
  });

  it('answers 1026 once the challenge has expired', async () => {
    const c = await challenge();
    const interaction = await server.ctx.provider.Interaction.find(c);
    await interaction!.save(1);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await login({ challenge: c, username: 'demo@example.com', password: 'Passw0rd!' })).toMatchObject({ status: 400, body: { error: { code: 1026 } } });
    expect((await browser.fetch(`${server.url}/api/v1/requests/login/${c}`)).status).toBe(400);
  });

  it('answers 1000 for malformed JSON and 1001 or 1002 naming the field', async () => {
    const malformed = await browser.fetch(`${server.url}/api/v1/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"challenge": ' });
    expect(malformed.status).toBe(400);
    expect((await malformed.json() as any).error.code).toBe(1000);

    const c = await challenge();
    expect(await login({ challenge: c, username: 'demo@example.com' })).toMatchObject({ status: 400, body: { error: { code: 1001, field: 'password' } } });
    expect(await login({ challenge: c, username: 'a'.repeat(300) + '@example.com', password: 'x' })).toMatchObject({
      status: 400,
      body: { error: { code: 1002, field: 'username' } },
    });
    expect(await login({ challenge: c, username: 'demo@example.com', password: 'p'.repeat(10_000) })).toMatchObject({
      status: 400,
      body: { error: { code: 1002, field: 'password' } },
    });
    expect(await login({ challenge: 'bad challenge!', username: 'demo@example.com', password: 'x' })).toMatchObject({
      status: 400,
      body: { error: { code: 1002, field: 'challenge' } },
    });
    const text = await browser.fetch(`${server.url}/api/v1/users/login`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect(text.status).toBe(400);
    expect((await text.json() as any).error).toMatchObject({ code: 1000, field: 'body' });
  });

  it('answers 1016 with the username for an e-mail of invalid format', async () => {
    const c = await challenge();
    expect(await login({ challenge: c, username: 'demo@example', password: 'Passw0rd!' })).toMatchObject({
      status: 400,
      body: { error: { code: 1016, field: 'username', message: 'demo@example has an invalid format' } },
    });
    expect(await login({ challenge: c, username: '12345', password: 'Passw0rd!' })).toMatchObject({ status: 400, body: { error: { code: 1015 } } });
  });

  it('refuses a client_id that does not match the request, and a client that no longer exists', async () => {
    const c = await challenge();
    expect(await login({ challenge: c, username: 'demo@example.com', password: 'Passw0rd!', client_id: 'partner-shop' })).toMatchObject({
      status: 400,
      body: { error: { code: 1002, field: 'client_id' } },
    });
    const now = Date.now();
    await server.ctx.clients.insert({
      id: 'short-lived',
      tenant_id: 'demo',
      name: 'Short-lived',
      logo_uri: null,
      theme: '{}',
      i18n: '{}',
      permissions: '[]',
      google_app_id: null,
      facebook_app_id: null,
      username_policy: null,
      recaptcha_enabled: 0,
      recaptcha_site_key: null,
      recaptcha_secret_enc: null,
      terms_privacy: '{}',
      redirect_uris: JSON.stringify([`${server.url}/demo/callback`]),
      post_logout_redirect_uris: '[]',
      grant_types: JSON.stringify(['authorization_code']),
      token_endpoint_auth_method: 'none',
      secret_hash: null,
      created_at: now,
      updated_at: now,
    });
    const doomed = await challenge(await relyingParty(server.url, 'short-lived'));
    await server.ctx.clients.remove('short-lived');
    const info = await browser.fetch(`${server.url}/api/v1/requests/login/${doomed}`);
    expect(info.status).toBe(404);
    expect((await info.json() as any).error.code).toBe(1061);
    expect(await login({ challenge: doomed, username: 'demo@example.com', password: 'Passw0rd!' })).toMatchObject({ status: 404, body: { error: { code: 1061 } } });
  });

  it('answers the provider error page (400) for an authorization request from an unknown client', async () => {
    const response = await fetch(`${server.url}/oidc/auth?client_id=nope&response_type=code&scope=openid&redirect_uri=http://evil.example/cb&code_challenge=abc&code_challenge_method=S256`, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('invalid_client');
  });

  it('does not redirect to an unregistered redirect URI', async () => {
    const auth = await authorizationRequest(demoApp, { redirect_uri: 'https://evil.example/callback' });
    const response = await fetch(auth.url, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });

  it('refuses a phone number for a client that only allows e-mail sign-in (1301)', async () => {
    const partnerShop = await relyingParty(server.url, 'partner-shop', 'partner-secret');
    const c = await challenge(partnerShop);
    expect(await login({ challenge: c, username: '0912345678', password: 'Passw0rd!' })).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
  });

  it('locks the account after repeated failures (1302), even for the right password', async () => {
    await server.ctx.users.update((await server.ctx.users.findByEmail('demo', 'demo@example.com'))!.id, { failed_login_count: 0, locked_until: null });
    const c = await challenge();
    for (let i = 0; i < 5; i += 1) {
      expect((await login({ challenge: c, username: 'demo@example.com', password: `wrong-${i}` })).body.error.code).toBe(1017);
    }
    expect(await login({ challenge: c, username: 'demo@example.com', password: 'Passw0rd!' })).toMatchObject({ status: 403, body: { error: { code: 1302 } } });
    const locked = await server.ctx.db.selectFrom('audit_events').select('type').where('type', '=', 'login.locked').execute();
    expect(locked.length).toBeGreaterThan(0);
  });

  it('answers 404 with the envelope for an unknown API path', async () => {
    const response = await fetch(`${server.url}/api/v1/nothing-here`);
    expect(response.status).toBe(404);
    expect((await response.json() as any).error.code).toBe(1404);
  });
});

describe('per-IP rate limit on sign-in', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { LOGIN_RATE_LIMIT_PER_IP: '3' } });
  });
  afterAll(() => server?.close());

  it('answers 429 once an address has spent its budget', async () => {
    const browser = new TestBrowser();
    const rp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    const c = await startSignIn(browser, server.url, await authorizationRequest(rp));
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const r = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge: c, username: `user${i}@example.com`, password: 'whatever' });
      statuses.push(r.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});

describe('per-account budget on sign-in', () => {
  let server: TestServer;
  beforeAll(async () => {
    // 2 failures lock the account, so the account's budget is 8 attempts in 15 minutes.
    server = await startTestServer({ env: { LOGIN_LOCKOUT_AFTER_FAILURES: '2', LOGIN_RATE_LIMIT_PER_IP: '1000' } });
  });
  afterAll(() => server?.close());

  async function attempt(browser: TestBrowser, username: string, password: string): Promise<number> {
    const rp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    const c = await startSignIn(browser, server.url, await authorizationRequest(rp));
    return (await browser.postJson(`${server.url}/api/v1/users/login`, { challenge: c, username, password })).status;
  }

  it('counts guesses, not sign-ins: an account signed in more often than its budget is never refused', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) statuses.push(await attempt(new TestBrowser(), 'demo@example.com', 'Passw0rd!'));
    expect(statuses).toEqual(Array(12).fill(200));
  });

  it('still refuses guesses at an unknown username past the budget, with no point back for them', async () => {
    const browser = new TestBrowser();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) statuses.push(await attempt(browser, 'guessed@example.com', `Wrong-${i}`));
    expect(statuses.slice(0, 8).every((status) => status === 401 || status === 403)).toBe(true);
    expect(statuses.slice(8)).toEqual([429, 429]);
  });
});

