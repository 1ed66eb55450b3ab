import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { TestBrowser } from '../../test/browser.ts';
import { createAccount } from '../../test/account.ts';
import { authorizationRequest, finishSignIn, oidc, relyingParty, signIn, startSignIn, type RelyingParty } from '../../test/relying-party.ts';
import { createClient, createTenant } from '../../test/visitor.ts';

/** The whole OpenID Connect flow, driven by a real relying party (openid-client). */
describe('sign-in through the OpenID Connect flow', () => {
  let server: TestServer;
  let demoApp: RelyingParty;

  beforeAll(async () => {
    server = await startTestServer();
    demoApp = await relyingParty(server.url, 'demo-app', 'demo-secret');
  });
  afterAll(() => server?.close());

  it('publishes discovery with code flow, PKCE S256, userinfo and end session', () => {
    const metadata = demoApp.config.serverMetadata();
    expect(metadata.issuer).toBe(`${server.url}/oidc`);
    expect(metadata.response_types_supported).toEqual(['code']);
    expect(metadata.code_challenge_methods_supported).toContain('S256');
    expect(metadata.userinfo_endpoint).toBe(`${server.url}/oidc/me`);
    expect(metadata.end_session_endpoint).toBe(`${server.url}/oidc/session/end`);
    expect(metadata.claims_supported).toEqual(
      expect.arrayContaining(['sub', 'name', 'email', 'email_verified', 'phone_number', 'phone_number_verified', 'picture', 'locale']),
    );
  });

  it('signs the demo user in and hands the relying party tokens, claims, userinfo and a working refresh token', async () => {
    const browser = new TestBrowser();
    const auth = await authorizationRequest(demoApp, { scope: 'openid profile email phone offline_access' });
    const challenge = await startSignIn(browser, server.url, auth);

    const request = await browser.fetch(`${server.url}/api/v1/requests/login/${challenge}`);
    expect(request.status).toBe(200);
    const info = await request.json() as any;
    expect(info).toMatchObject({ challenge, skip: false, client: { clientId: 'demo-app', clientName: expect.any(String), tenantId: 'demo' } });
    expect(info.client.theme.primaryColor).toBe('#1565C0');
    expect(info.client.tenant).toMatchObject({ passwordBasedAuthenticationAllowed: true, registrationAllowed: true });
    expect(JSON.stringify(info)).not.toMatch(/secret|hash/i);

    const login = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username: 'demo@example.com', password: 'Passw0rd!', client_id: 'demo-app' });
    expect(login.status).toBe(200);
    const { redirectTo } = await login.json() as any;
    expect(redirectTo).toBe(`${server.url}/oidc/auth/${challenge}`);

    const tokens = await finishSignIn(browser, server.url, demoApp, auth, redirectTo);
    const claims = tokens.claims();
    expect(claims).toMatchObject({
      iss: `${server.url}/oidc`,
      aud: 'demo-app',
      name: 'Demo User',
      email: 'demo@example.com',
      email_verified: true,
      nonce: auth.nonce,
    });
    expect(claims?.sub).toEqual(expect.any(String));
    expect(tokens.refresh_token).toEqual(expect.any(String));

    const userinfo = await oidc.fetchUserInfo(demoApp.config, tokens.access_token, claims!.sub);
    expect(userinfo).toMatchObject({ sub: claims!.sub, name: 'Demo User', email: 'demo@example.com', email_verified: true });

    const refreshed = await oidc.refreshTokenGrant(demoApp.config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.claims()?.sub).toBe(claims!.sub);

    // The audit table has the sign-in.
    const events = await server.ctx.audit.listForUser(claims!.sub);
    expect(events.map((e) => e.type)).toContain('login.success');
  });

  it('refuses a sign-in from a browser that did not start the request (the challenge alone is not enough)', async () => {
    const owner = new TestBrowser();
    const auth = await authorizationRequest(demoApp);
    const challenge = await startSignIn(owner, server.url, auth);
    const thief = new TestBrowser();
    const login = await thief.postJson(`${server.url}/api/v1/users/login`, { challenge, username: 'demo@example.com', password: 'Passw0rd!' });
    expect(login.status).toBe(400);
    expect(await login.json()).toMatchObject({ error: { code: 1026, field: 'challenge' } });
    expect((await server.ctx.provider.Interaction.find(challenge))?.result).toBeUndefined();
    // The resume URL does not help the thief either: the provider checks its own resume cookie.
    const resumed = await thief.fetch(`${server.url}/oidc/auth/${challenge}`);
    expect(resumed.headers.get('location') ?? '').not.toContain('code=');
  });

  it('signs a second client in from the same session without asking again (single sign-on: the login screen is skipped)', async () => {
    const { browser } = await signIn(server.url, demoApp, 'demo@example.com', 'Passw0rd!');
    const partnerShop = await relyingParty(server.url, 'partner-shop', 'partner-secret');

    // A client of the same tenant is granted what it asks at once (first-party): straight back with a code.
    const first = await authorizationRequest(partnerShop, { scope: 'openid profile email' });
    const { url } = await browser.follow(first.url, server.url);
    expect(url.startsWith(partnerShop.redirectUri)).toBe(true);
    const tokens = await oidc.authorizationCodeGrant(partnerShop.config, new URL(url), { pkceCodeVerifier: first.verifier, expectedState: first.state, expectedNonce: first.nonce });
    expect(tokens.claims()).toMatchObject({ aud: 'partner-shop', email: 'demo@example.com' });
    expect(tokens.refresh_token).toBeUndefined();

    // offline_access goes through the (automatic) consent: the login screen says skip and goes on.
    const offline = await authorizationRequest(partnerShop, { scope: 'openid email offline_access' });
    const challenge = await startSignIn(browser, server.url, offline);
    const info = await (await browser.fetch(`${server.url}/api/v1/requests/login/${challenge}`)).json() as any;
    expect(info).toMatchObject({ skip: true, redirectTo: `${server.url}/oidc/auth/${challenge}`, client: { clientId: 'partner-shop' } });
    const offlineTokens = await finishSignIn(browser, server.url, partnerShop, offline, info.redirectTo);
    expect(offlineTokens.claims()).toMatchObject({ aud: 'partner-shop', email: 'demo@example.com' });
    expect(offlineTokens.refresh_token).toEqual(expect.any(String));
  });

  it('answers prompt=none with a code for a client of the tenant the user has not used yet, and for a new scope (first-party: no consent)', async () => {
    const { browser } = await signIn(server.url, demoApp, 'demo@example.com', 'Passw0rd!');
    const partnerShop = await relyingParty(server.url, 'partner-shop', 'partner-secret');
    // A relying party checking silently whether the person is signed in, as SPAs do on load.
    for (const [scope, claim] of [['openid email', 'email'], ['openid email profile', 'name']] as const) {
      const auth = await authorizationRequest(partnerShop, { prompt: 'none', scope });
      const { url } = await browser.follow(auth.url, server.url);
      expect(new URL(url).searchParams.get('error')).toBeNull();
      const tokens = await oidc.authorizationCodeGrant(partnerShop.config, new URL(url), { pkceCodeVerifier: auth.verifier, expectedState: auth.state, expectedNonce: auth.nonce });
      expect(tokens.claims()).toMatchObject({ aud: 'partner-shop', email: 'demo@example.com' });
      expect(tokens.claims()?.[claim]).toEqual(expect.any(String));
    }
  });

  it('never hands a session to a client of another tenant: prompt=none is refused, and that client is granted nothing', async () => {
    await createTenant(server.ctx, { id: 'elsewhere' });
    await createClient(server.ctx, server.url, { id: 'elsewhere-app', tenantId: 'elsewhere' });
    const elsewhere = await relyingParty(server.url, 'elsewhere-app');
    const { browser, tokens } = await signIn(server.url, demoApp, 'demo@example.com', 'Passw0rd!');
    const grants = () =>
      server.ctx.db.selectFrom('oidc_payloads').select('id').where('model', '=', 'Grant').where('payload', 'like', '%"clientId":"elsewhere-app"%').execute();

    const silent = await authorizationRequest(elsewhere, { prompt: 'none' });
    const { url } = await browser.follow(silent.url, server.url);
    expect(url.startsWith(elsewhere.redirectUri)).toBe(true);
    expect(new URL(url).searchParams.get('code')).toBeNull();
    // The same answer as for a browser with no session at all: the other tenant's client does not
    // learn that this browser is signed in somewhere.
    const answer = (address: string) => {
      const { error, error_description } = Object.fromEntries(new URL(address).searchParams);
      return { error, error_description };
    };
    const stranger = await authorizationRequest(elsewhere, { prompt: 'none' });
    const strangerUrl = (await new TestBrowser().follow(stranger.url, server.url)).url;
    expect(answer(url)).toEqual({ error: 'login_required', error_description: 'End-User authentication is required' });
    expect(answer(url)).toEqual(answer(strangerUrl));

    // Without prompt=none: the sign-in screen, not skipped, and the demo tenant's password opens nothing there.
    const auth = await authorizationRequest(elsewhere);
    const challenge = await startSignIn(browser, server.url, auth);
    const info = (await (await browser.fetch(`${server.url}/api/v1/requests/login/${challenge}`)).json()) as any;
    expect(info).toMatchObject({ skip: false, client: { clientId: 'elsewhere-app', tenantId: 'elsewhere' } });
    const login = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username: 'demo@example.com', password: 'Passw0rd!', client_id: 'elsewhere-app' });
    expect(login.status).toBe(401);
    expect(await login.json()).toMatchObject({ error: { code: 1017 } });
    expect((await server.ctx.provider.Interaction.find(challenge))?.result).toBeUndefined();
    expect(await grants()).toEqual([]);
    // The session itself is untouched: demo-app still comes straight back with a code.
    const again = await authorizationRequest(demoApp, { prompt: 'none' });
    expect((await browser.follow(again.url, server.url)).url).toContain('code=');
    expect(tokens.claims()?.aud).toBe('demo-app');
  });

  it('forces the login screen when the relying party asks for prompt=login', async () => {
    const { browser } = await signIn(server.url, demoApp, 'demo@example.com', 'Passw0rd!');
    const auth = await authorizationRequest(demoApp, { prompt: 'login', login_hint: 'demo@example.com' });
    const challenge = await startSignIn(browser, server.url, auth);
    const info = await (await browser.fetch(`${server.url}/api/v1/requests/login/${challenge}`)).json() as any;
    expect(info.skip).toBe(false);
    expect(info.oidcContext.loginHint).toBe('demo@example.com');
  });

  it('passes the language the relying party asks for (ui_locales or locale) to the login screen', async () => {
    for (const [params, expected] of [
      [{ ui_locales: 'fr en' }, 'en'],
      [{ locale: 'vi' }, 'vi'],
      [{}, null],
    ] as const) {
      const browser = new TestBrowser();
      const auth = await authorizationRequest(demoApp, params);
      const { url } = await browser.follow(auth.url, server.url);
      expect(new URL(url).searchParams.get('locale')).toBe(expected);
    }
  });

  it('logs out through end session with the confirmation step, after which the session is gone', async () => {
    const { tokens, browser } = await signIn(server.url, demoApp, 'demo@example.com', 'Passw0rd!');
    const endSession = oidc.buildEndSessionUrl(demoApp.config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: `${server.url}/demo`, state: 'bye' });
    const { url } = await browser.follow(endSession.toString(), server.url);
    const logout = new URL(url);
    expect(logout.pathname).toBe('/logout');
    const challenge = logout.searchParams.get('challenge')!;

    const info = await (await browser.fetch(`${server.url}/api/v1/requests/logout/${challenge}`)).json() as any;
    expect(info).toMatchObject({ challenge, autoConfirm: true, client: { clientId: 'demo-app' } });

    const decision = await browser.postJson(`${server.url}/api/v1/requests/logout/${challenge}`, { confirmed: true });
    expect(decision.status).toBe(200);
    const { redirectTo } = await decision.json() as any;
    const page = await browser.fetch(redirectTo);
    const html = await page.text();
    const action = /action="([^"]+)"/.exec(html)![1]!;
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1]!;
    expect(action).toBe(`${server.url}/oidc/session/end/confirm`);

    const confirm = await browser.fetch(action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ xsrf, logout: 'yes' }) });
    expect(confirm.status).toBe(303);
    expect(confirm.headers.get('location')).toBe(`${server.url}/demo?state=bye`);

    // Signed out: a new request goes to the login screen again, and the challenge is spent.
    const again = await authorizationRequest(demoApp);
    await startSignIn(browser, server.url, again);
    expect((await browser.fetch(`${server.url}/api/v1/requests/logout/${challenge}`)).status).toBe(400);
  });

  it('asks before logging out when the id_token_hint is another user\'s (a logout link forged with the sender\'s own token)', async () => {
    await createAccount(server.ctx, { email: 'hint-attacker@example.com' });
    const { tokens: attackerTokens } = await signIn(server.url, demoApp, 'hint-attacker@example.com', 'Passw0rd!');
    const { browser: victim } = await signIn(server.url, demoApp, 'demo@example.com', 'Passw0rd!');

    const forged = oidc.buildEndSessionUrl(demoApp.config, { id_token_hint: attackerTokens.id_token!, post_logout_redirect_uri: `${server.url}/demo` });
    const { url } = await victim.follow(forged.toString(), server.url);
    const challenge = new URL(url).searchParams.get('challenge')!;
    const info = await (await victim.fetch(`${server.url}/api/v1/requests/logout/${challenge}`)).json() as any;
    expect(info.autoConfirm).toBe(false);

    // Nothing was ended: the victim's next request comes straight back with a code.
    const auth = await authorizationRequest(demoApp);
    const { url: callback } = await victim.follow(auth.url, server.url);
    expect(callback).toContain('code=');

    // The victim's own token, from this session, still logs out without a question.
    const { tokens: own, browser: same } = await signIn(server.url, demoApp, 'demo@example.com', 'Passw0rd!');
    const ownEnd = oidc.buildEndSessionUrl(demoApp.config, { id_token_hint: own.id_token!, post_logout_redirect_uri: `${server.url}/demo` });
    const ownChallenge = new URL((await same.follow(ownEnd.toString(), server.url)).url).searchParams.get('challenge')!;
    expect((await (await same.fetch(`${server.url}/api/v1/requests/logout/${ownChallenge}`)).json() as any).autoConfirm).toBe(true);
  });

  it('keeps the language of the end-session request (ui_locales) on the logout screen', async () => {
    const { tokens, browser } = await signIn(server.url, demoApp, 'demo@example.com', 'Passw0rd!');
    for (const [uiLocales, expected] of [['en-GB vi', 'en'], ['vi', 'vi'], ['fr', null]] as const) {
      const endSession = oidc.buildEndSessionUrl(demoApp.config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: `${server.url}/demo`, ui_locales: uiLocales });
      const { url } = await browser.follow(endSession.toString(), server.url);
      expect(new URL(url).pathname).toBe('/logout');
      expect(new URL(url).searchParams.get('locale')).toBe(expected);
    }
  });

  it('asks for confirmation without an id_token_hint, and Back keeps the session', async () => {
    const { browser } = await signIn(server.url, demoApp, 'demo@example.com', 'Passw0rd!');
    const endSession = oidc.buildEndSessionUrl(demoApp.config, { client_id: 'demo-app', post_logout_redirect_uri: `${server.url}/demo` });
    const { url } = await browser.follow(endSession.toString(), server.url);
    const challenge = new URL(url).searchParams.get('challenge')!;
    const info = await (await browser.fetch(`${server.url}/api/v1/requests/logout/${challenge}`)).json() as any;
    expect(info.autoConfirm).toBe(false);

    const back = await browser.postJson(`${server.url}/api/v1/requests/logout/${challenge}`, { confirmed: false });
    expect(await back.json() as any).toEqual({ redirectTo: `${server.url}/demo` });

    // Still signed in: the next request comes straight back with a code.
    const auth = await authorizationRequest(demoApp);
    const { url: callback } = await browser.follow(auth.url, server.url);
    expect(callback).toContain('code=');
  });
});
