import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { authorizationRequest, finishSignIn, relyingParty, signIn, type RelyingParty } from '../../../test/relying-party.ts';
import { lastCode, postJson, userRow } from '../../../test/visitor.ts';

/**
 * prompt=create (OpenID Connect's "Initiating User Registration"): a relying party's 'Create
 * account' button opens the registration screen of the hosted pages, and the new account's
 * activation finishes the relying party's request.
 */
describe('prompt=create', () => {
  let server: TestServer;
  let demoApp: RelyingParty;

  beforeAll(async () => {
    server = await startTestServer({ env: { CODE_SENDS_PER_IP_PER_HOUR: '1000' } });
    demoApp = await relyingParty(server.url, 'demo-app', 'demo-secret');
  });
  afterAll(() => server?.close());

  /** Follows the authorization request in `browser` to the hosted screen it lands on. */
  async function open(browser: TestBrowser, rp: RelyingParty, params: Record<string, string>) {
    const auth = await authorizationRequest(rp, params);
    const screen = new URL((await browser.follow(auth.url, server.url)).url);
    const challenge = screen.searchParams.get('challenge') ?? '';
    if (challenge) TestBrowser.byChallenge.set(challenge, browser);
    return { auth, screen, challenge };
  }

  it('is announced in discovery, with the languages of the hosted pages', async () => {
    const metadata = (await (await fetch(`${server.url}/oidc/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(metadata.prompt_values_supported).toEqual(['none', 'create', 'login', 'consent']);
    expect(metadata.ui_locales_supported).toEqual(['vi', 'en']);
  });

  it('opens the registration screen, and the activation of the new account signs it in to the relying party', async () => {
    const browser = new TestBrowser();
    const { auth, screen, challenge } = await open(browser, demoApp, { prompt: 'create', ui_locales: 'en' });
    expect(screen.pathname).toBe('/register');
    expect(screen.searchParams.get('client_id')).toBe('demo-app');
    expect(screen.searchParams.get('locale')).toBe('en');
    const info = (await (await browser.fetch(`${server.url}/api/v1/requests/login/${challenge}`)).json()) as { skip: boolean; client: { clientId: string } };
    expect(info).toMatchObject({ skip: false, client: { clientId: 'demo-app' } });

    const registered = await postJson(server.url, '/api/v1/users/register', { client_id: 'demo-app', username: 'new.person@example.com', password: 'Lantern-42', name: 'New Person', challenge });
    expect(registered).toMatchObject({ status: 200, body: { channel: 'email' } });
    const code = await lastCode(server.ctx, 'new.person@example.com');
    const confirmed = await postJson(server.url, '/api/v1/users/confirm', { client_id: 'demo-app', username: 'new.person@example.com', code, challenge });
    expect(confirmed.status).toBe(200);

    // Back at the relying party with a code (not at the registration screen again), for the new account.
    const tokens = await finishSignIn(browser, server.url, demoApp, auth, confirmed.body.redirectTo);
    const user = await userRow(server.ctx, 'demo', 'new.person@example.com');
    expect(tokens.claims()).toMatchObject({ sub: user!.id, email: 'new.person@example.com', email_verified: true, name: 'New Person' });
  });

  it('lets a visitor who has an account sign in from the registration screen instead, once', async () => {
    const browser = new TestBrowser();
    const { auth, screen, challenge } = await open(browser, demoApp, { prompt: 'create' });
    expect(screen.pathname).toBe('/register');
    const login = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username: 'demo@example.com', password: 'Passw0rd!', client_id: 'demo-app' });
    expect(login.status).toBe(200);
    const tokens = await finishSignIn(browser, server.url, demoApp, auth, ((await login.json()) as { redirectTo: string }).redirectTo);
    expect(tokens.claims()?.email).toBe('demo@example.com');
  });

  it('shows the registration screen to a signed-in browser too, rather than handing over its session', async () => {
    const { browser } = await signIn(server.url, demoApp, 'demo@example.com', 'Passw0rd!');
    const { screen, challenge } = await open(browser, demoApp, { prompt: 'create' });
    expect(screen.pathname).toBe('/register');
    const info = (await (await browser.fetch(`${server.url}/api/v1/requests/login/${challenge}`)).json()) as { skip: boolean; redirectTo?: string };
    expect(info.skip).toBe(false);
    expect(info.redirectTo).toBeUndefined();
  });

  it('gives the login screen to a client that cannot register anybody', async () => {
    const partnerShop = await relyingParty(server.url, 'partner-shop', 'partner-secret');
    const { screen } = await open(new TestBrowser(), partnerShop, { prompt: 'create' });
    expect(screen.pathname).toBe('/login');
    expect(screen.searchParams.get('client_id')).toBe('partner-shop');
  });

  it("answers 503 with Retry-After when the database cannot say whether the client may register, and the registration screen once it can", async () => {
    const findTenant = server.ctx.tenants.findById;
    server.ctx.tenants.findById = () => Promise.reject(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }));
    try {
      const auth = await authorizationRequest(demoApp, { prompt: 'create' });
      const answer = await new TestBrowser().fetch(auth.url);
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      server.ctx.tenants.findById = findTenant;
    }
    expect((await open(new TestBrowser(), demoApp, { prompt: 'create' })).screen.pathname).toBe('/register');
  });

  it('cannot be combined with prompt=none', async () => {
    const { screen } = await open(new TestBrowser(), demoApp, { prompt: 'none create' });
    expect(screen.origin + screen.pathname).toBe(demoApp.redirectUri);
    expect(screen.searchParams.get('error')).toBe('invalid_request');
  });
});
