import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import type { TestBrowser } from '../../test/browser.ts';
import { relyingParty, signIn, type RelyingParty } from '../../test/relying-party.ts';

/** RP-initiated logout without a post-logout redirect URI ends on Passgate's /logged-out screen, not the provider's page. */
describe('the end of a logout that names no post-logout address', () => {
  let server: TestServer;
  let demoApp: RelyingParty;

  beforeAll(async () => {
    server = await startTestServer();
    demoApp = await relyingParty(server.url, 'demo-app', 'demo-secret');
  });
  afterAll(() => server?.close());

  /** Opens the end-session address, answers Log out on /logout and posts the confirmation: the addresses the browser goes through. */
  async function logOut(browser: TestBrowser, params: Record<string, string>) {
    const endSession = await browser.fetch(`${server.url}/oidc/session/end?${new URLSearchParams(params)}`);
    expect(endSession.status).toBe(303);
    const logoutScreen = new URL(endSession.headers.get('location')!);
    expect(logoutScreen.pathname).toBe('/logout');
    const challenge = logoutScreen.searchParams.get('challenge')!;

    const decision = await browser.postJson(`${server.url}/api/v1/requests/logout/${challenge}`, { confirmed: true });
    const page = await (await browser.fetch(((await decision.json()) as { redirectTo: string }).redirectTo)).text();
    const action = /action="([^"]+)"/.exec(page)![1]!;
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(page)![1]!;
    const confirm = await browser.fetch(action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ xsrf, logout: 'yes' }) });
    expect(confirm.status).toBe(303);
    const success = new URL(confirm.headers.get('location')!, server.url);
    const last = await browser.fetch(success);
    expect(last.status).toBe(303);
    return { logoutScreen, finalScreen: new URL(last.headers.get('location')!) };
  }

  it('lands on /logged-out with the client and the language of the end-session request', async () => {
    const { browser } = await signIn(server.url, demoApp, 'demo@example.com', 'Passw0rd!');
    const { logoutScreen, finalScreen } = await logOut(browser, { client_id: 'demo-app', ui_locales: 'vi' });
    // The /logout address carries its client too, so the screen still knows it once the request is spent.
    expect(logoutScreen.searchParams.get('client_id')).toBe('demo-app');
    expect(logoutScreen.searchParams.get('locale')).toBe('vi');
    expect(`${finalScreen.origin}${finalScreen.pathname}`).toBe(`${server.url}/logged-out`);
    expect(Object.fromEntries(finalScreen.searchParams)).toEqual({ client_id: 'demo-app', locale: 'vi' });
  });

  it('knows the client from the id_token_hint alone', async () => {
    const { browser, tokens } = await signIn(server.url, demoApp, 'demo@example.com', 'Passw0rd!');
    const { logoutScreen, finalScreen } = await logOut(browser, { id_token_hint: tokens.id_token!, ui_locales: 'en-GB' });
    expect(logoutScreen.searchParams.get('client_id')).toBe('demo-app');
    expect(Object.fromEntries(finalScreen.searchParams)).toEqual({ client_id: 'demo-app', locale: 'en' });
  });

  it('lands on /logged-out without a client when the request named none', async () => {
    const { browser } = await signIn(server.url, demoApp, 'demo@example.com', 'Passw0rd!');
    const { logoutScreen, finalScreen } = await logOut(browser, {});
    expect(logoutScreen.searchParams.has('client_id')).toBe(false);
    expect(finalScreen.toString()).toBe(`${server.url}/logged-out`);
  });

  it('still sends the browser to a registered post-logout address when the request names one', async () => {
    const { browser } = await signIn(server.url, demoApp, 'demo@example.com', 'Passw0rd!');
    const endSession = await browser.fetch(`${server.url}/oidc/session/end?${new URLSearchParams({ client_id: 'demo-app', post_logout_redirect_uri: `${server.url}/demo`, state: 's1' })}`);
    const challenge = new URL(endSession.headers.get('location')!).searchParams.get('challenge')!;
    const decision = await browser.postJson(`${server.url}/api/v1/requests/logout/${challenge}`, { confirmed: true });
    const page = await (await browser.fetch(((await decision.json()) as { redirectTo: string }).redirectTo)).text();
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(page)![1]!;
    const confirm = await browser.fetch(`${server.url}/oidc/session/end/confirm`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ xsrf, logout: 'yes' }) });
    expect(confirm.headers.get('location')).toBe(`${server.url}/demo?state=s1`);
  });
});
