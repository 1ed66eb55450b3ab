import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { TestBrowser } from '../../../test/browser.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

describe('/demo relying party', () => {
  it('GET /demo is an HTML page offering both clients, without inline scripts', async () => {
    const response = await fetch(`${server.url}/demo`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('value="demo-app"');
    expect(html).toContain('value="partner-shop"');
    expect(html).toContain('name="locale"');
    expect(html).not.toMatch(/<script/i);
  });

  it('GET /demo/login redirects to the authorization endpoint with PKCE and keeps a signed transaction cookie', async () => {
    const response = await fetch(`${server.url}/demo/login?client=demo-app&locale=en`, { redirect: 'manual' });
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(`${server.ctx.config.issuer}/auth`);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      client_id: 'demo-app',
      response_type: 'code',
      redirect_uri: `${server.url}/demo/callback`,
      scope: 'openid profile email phone offline_access',
      code_challenge_method: 'S256',
      ui_locales: 'en',
      locale: 'en',
    });
    expect(location.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get('state')).toBeTruthy();
    expect(location.searchParams.get('nonce')).toBeTruthy();
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('demo_tx='));
    expect(cookie).toMatch(/Path=\/demo/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
  });

  it('asks for prompt=create when the registration box is ticked, and for no prompt otherwise', async () => {
    const promptOf = async (query: string) => {
      const response = await fetch(`${server.url}/demo/login?${query}`, { redirect: 'manual' });
      return new URL(response.headers.get('location') ?? '').searchParams.get('prompt');
    };
    expect(await promptOf('client=demo-app&prompt=create')).toBe('create');
    expect(await promptOf('client=demo-app')).toBeNull();
    expect(await promptOf('client=demo-app&prompt=login%20consent')).toBeNull();
  });

  it('refuses an unknown client with a readable page', async () => {
    const response = await fetch(`${server.url}/demo/login?client=evil`, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('Unknown client');
  });

  it('GET /demo/callback with a bad state or an OIDC error shows an error page, not a 500', async () => {
    const browser = new TestBrowser();
    await browser.fetch(`${server.url}/demo/login?client=partner-shop`);
    expect(browser.has('demo_tx')).toBe(true);
    const badState = await browser.fetch(`${server.url}/demo/callback?code=abc&state=not-the-state`);
    expect(badState.status).toBe(400);
    expect(badState.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await badState.text()).toContain('does not match a sign-in started here');

    const noCookie = await fetch(`${server.url}/demo/callback?code=abc&state=xyz`);
    expect(noCookie.status).toBe(400);

    const forged = await fetch(`${server.url}/demo/callback?code=abc&state=xyz`, { headers: { cookie: 'demo_tx=eyJzdGF0ZSI6Inh5eiJ9.forged' } });
    expect(forged.status).toBe(400);

    const denied = await fetch(`${server.url}/demo/callback?error=access_denied&error_description=${encodeURIComponent('<b>no</b>')}&state=xyz`);
    expect(denied.status).toBe(400);
    const html = await denied.text();
    expect(html).toContain('access_denied');
    expect(html).toContain('&lt;b&gt;no&lt;/b&gt;');
  });

  it('signs in for real and shows the claims, with a logout link to the end-session endpoint', async () => {
    const browser = new TestBrowser();
    const start = await browser.follow(`${server.url}/demo/login?client=partner-shop`, server.url);
    const login = new URL(start.url);
    expect(login.pathname).toBe('/login');
    const answer = await browser.postJson(`${server.url}/api/v1/users/login`, {
      challenge: login.searchParams.get('challenge'),
      username: 'demo@example.com',
      password: 'Passw0rd!',
      client_id: 'partner-shop',
    });
    expect(answer.status).toBe(200);
    const { redirectTo } = (await answer.json()) as { redirectTo: string };
    const back = await browser.follow(redirectTo, server.url);
    expect(back.url.startsWith(`${server.url}/demo/callback?`)).toBe(true);

    const callback = await browser.fetch(back.url);
    expect(callback.status).toBe(303);
    expect(callback.headers.get('location')).toBe('/demo');
    const page = await (await browser.fetch(`${server.url}/demo`)).text();
    expect(page).toContain('Signed in to Partner Shop as Demo User');
    expect(page).toContain('demo@example.com');
    expect(page).toContain('Userinfo response');
    expect(page).toContain('refresh token issued: yes');
    const logout = /href="([^"]*\/session\/end[^"]*)"/.exec(page)?.[1]?.replaceAll('&amp;', '&');
    const logoutUrl = new URL(logout ?? '');
    expect(`${logoutUrl.origin}${logoutUrl.pathname}`).toBe(`${server.ctx.config.issuer}/session/end`);
    expect(logoutUrl.searchParams.get('client_id')).toBe('partner-shop');
    expect(logoutUrl.searchParams.get('post_logout_redirect_uri')).toBe(`${server.url}/demo`);
    expect(logoutUrl.searchParams.has('id_token_hint')).toBe(false);

    // Coming back from the logout clears what was shown.
    const signedOut = await browser.fetch(`${server.url}/demo?state=signed-out`);
    expect(await signedOut.text()).toContain('You are signed out');
    expect(await (await browser.fetch(`${server.url}/demo`)).text()).not.toContain('Signed in to');
  });
});

describe('/demo without the development tools (production)', () => {
  let production: TestServer;
  const dist = mkdtempSync(join(tmpdir(), 'passgate-dist-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Passgate</title><div id="root"></div>');

  beforeAll(async () => {
    production = await startTestServer({ seed: false, config: { devTools: false, webDistDir: dist } });
  });
  afterAll(async () => {
    await production?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it("is a 404, not the web app's page, as the README says production has no /demo", async () => {
    for (const path of ['/demo', '/demo/', '/demo/login?client=demo-app', '/demo/callback?code=x&state=y']) {
      const response = await fetch(`${production.url}${path}`, { redirect: 'manual' });
      expect(response.status, path).toBe(404);
      expect(((await response.json()) as { error: { code: number } }).error.code).toBe(1404);
    }
    // The web app's own pages are still served.
    const page = await fetch(`${production.url}/login`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
  });
});
