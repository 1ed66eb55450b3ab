import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import { TestBrowser } from '../test/browser.ts';
import { authorizationRequest, relyingParty, startSignIn } from '../test/relying-party.ts';

describe('pages of the single-page app', () => {
  let server: TestServer;
  const dist = mkdtempSync(join(tmpdir(), 'passgate-dist-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Passgate</title><div id="root"></div>');
  // A hashed asset as `npm run build:web` leaves it: precompressed beside the original.
  const asset = `console.log(${JSON.stringify('Passgate '.repeat(300))});\n`;
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'assets', 'index-B1a2C3d4.js'), asset);
  writeFileSync(join(dist, 'assets', 'index-B1a2C3d4.js.gz'), gzipSync(asset));
  writeFileSync(join(dist, 'assets', 'index-B1a2C3d4.js.br'), brotliCompressSync(asset));
  const DEMO_LOGO = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 64"><rect width="56" height="56"/></svg>';
  mkdirSync(join(dist, 'themes'));
  writeFileSync(join(dist, 'themes', 'demo-app-logo.svg'), DEMO_LOGO);

  beforeAll(async () => {
    server = await startTestServer({ config: { webDistDir: dist } });
    const now = Date.now();
    await server.ctx.clients.insert({
      id: 'captcha-shop', tenant_id: 'demo', name: 'Captcha Shop', logo_uri: null, theme: '{}', i18n: '{}', permissions: '[]',
      google_app_id: null, facebook_app_id: null, username_policy: null, recaptcha_enabled: 1, recaptcha_site_key: 'site-key',
      recaptcha_secret_enc: server.ctx.keys.encrypt('secret'), terms_privacy: '{}', redirect_uris: JSON.stringify([`${server.url}/demo/callback`]),
      post_logout_redirect_uris: '[]', grant_types: JSON.stringify(['authorization_code']), token_endpoint_auth_method: 'none', secret_hash: null,
      created_at: now, updated_at: now,
    });
  });
  afterAll(() => server?.close());

  it('renders the sign-in pages of a client whose stored theme is not well-formed Unicode, without the bad values', async () => {
    // As the Admin API stored it before it refused such text: JSON keeps each lone surrogate as an escape.
    const theme = { backgroundImageUri: 'https://acme.test/a\ud800.png', iconUri: 'https://acme.test/i\udc00.png', backgroundColor: '#102030' };
    const now = Date.now();
    await server.ctx.db
      .insertInto('clients')
      .values({
        id: 'surrogate-shop', tenant_id: 'demo', name: 'Surrogate Shop', logo_uri: 'https://acme.test/logo\ud800.png', theme: JSON.stringify(theme), i18n: '{}', permissions: '[]',
        google_app_id: null, facebook_app_id: null, username_policy: null, recaptcha_enabled: 0, recaptcha_site_key: null,
        recaptcha_secret_enc: null, terms_privacy: '{}', redirect_uris: JSON.stringify([`${server.url}/demo/callback`]),
        post_logout_redirect_uris: '[]', grant_types: JSON.stringify(['authorization_code']), token_endpoint_auth_method: 'none', secret_hash: null,
        created_at: now, updated_at: now,
      })
      .execute();
    expect((await server.ctx.db.selectFrom('clients').select('theme').where('id', '=', 'surrogate-shop').executeTakeFirstOrThrow()).theme).toContain('\\ud800');
    const browser = new TestBrowser();
    const challenge = await startSignIn(browser, server.url, await authorizationRequest(await relyingParty(server.url, 'surrogate-shop')));
    for (const path of ['/login', '/register']) {
      const page = await browser.fetch(`${server.url}${path}?challenge=${challenge}`);
      expect(page.status, path).toBe(200);
      const html = await page.text();
      // The frame is drawn, and the page (its sign-in request too) holds the values with U+FFFD in place of the surrogates.
      expect(html).toContain('<div id="passgate-shell" aria-hidden="true" style="background-color:#102030;background-image:url(&quot;https://acme.test/a%EF%BF%BD.png&quot;)">');
      expect(html).not.toMatch(/\\u[dD][89a-fA-F]/);
    }
    const api = await browser.fetch(`${server.url}/api/v1/requests/login/${challenge}`);
    expect(api.status).toBe(200);
    expect(((await api.json()) as { client: { theme: unknown } }).client.theme).toEqual({ ...theme, backgroundImageUri: 'https://acme.test/a\ufffd.png', iconUri: 'https://acme.test/i\ufffd.png' });
  });

  const csp = async (path: string) => {
    const response = await fetch(`${server.url}${path}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<div id="root">');
    return response.headers.get('content-security-policy') ?? '';
  };

  it('lets Google reCAPTCHA in only on the pages of a client that uses it', async () => {
    const browser = new TestBrowser();
    const withCaptcha = await startSignIn(browser, server.url, await authorizationRequest(await relyingParty(server.url, 'captcha-shop')));
    const without = await startSignIn(browser, server.url, await authorizationRequest(await relyingParty(server.url, 'demo-app', 'demo-secret')));

    const open = await csp(`/register?challenge=${withCaptcha}`);
    expect(open).toContain('script-src \'self\' https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/');
    expect(open).toContain("frame-ancestors 'none'");

    for (const path of [`/register?challenge=${without}`, '/login?challenge=unknown', '/user/dashboard', '/privacy']) {
      const strict = await csp(path);
      expect(strict).toContain("script-src 'self';");
      expect(strict).not.toContain('google');
    }
  });

  /** A request exactly as given: unlike fetch, node:http adds no Accept-Encoding of its own. */
  const raw = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const req = request(`${server.url}${path}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });

  it.each([
    ['no Accept-Encoding', {}],
    ['Accept-Encoding: identity', { 'accept-encoding': 'identity' }],
  ])('serves pages and assets uncompressed to a client that sends %s', async (_label, headers: Record<string, string>) => {
    for (const path of ['/', '/login', '/login?challenge=unknown', '/user/dashboard']) {
      const page = await raw(path, headers);
      expect([path, page.status, page.headers['content-type']]).toEqual([path, 200, 'text/html; charset=utf-8']);
      expect(page.headers['content-encoding']).toBeUndefined();
      expect(page.body.toString()).toContain('<div id="root">');
    }
    const script = await raw('/assets/index-B1a2C3d4.js', headers);
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/^application\/javascript/);
    expect(script.headers['content-encoding']).toBeUndefined();
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.body.toString()).toBe(asset);
  });

  it('still sends the precompressed asset to a client that accepts it, and the page at / for HEAD as well as GET', async () => {
    const script = await raw('/assets/index-B1a2C3d4.js', { 'accept-encoding': 'gzip' });
    expect([script.status, script.headers['content-encoding']]).toEqual([200, 'gzip']);
    expect(gunzipSync(script.body).toString()).toBe(asset);

    // A page is made per request and compressed as the browser asks: brotli first, then gzip.
    const root = await raw('/', { 'accept-encoding': 'gzip, br' });
    expect([root.status, root.headers['content-type'], root.headers['content-encoding'], root.headers.vary]).toEqual([200, 'text/html; charset=utf-8', 'br', 'cookie, accept-encoding']);
    expect(brotliDecompressSync(root.body).toString()).toContain('<div id="root">');
    const gzipped = await raw('/login', { 'accept-encoding': 'br;q=0, gzip;q=0.8' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.body).toString()).toContain('<div id="root">');

    const head = await raw('/', {}, 'HEAD');
    expect([head.status, head.headers['content-type'], head.body.length]).toEqual([200, 'text/html; charset=utf-8', 0]);
    // A folder of the build is a page path like any other, never a 403.
    expect((await raw('/assets/')).status).toBe(200);
    // A missing asset stays a 404, not the page.
    expect((await raw('/assets/missing-0000.js')).status).toBe(404);
  });

  it('carries the runtime configuration in every page, as GET /api/v1/config answers it', async () => {
    const config = await (await fetch(`${server.url}/api/v1/config`)).json();
    for (const path of ['/login?challenge=unknown', '/register', '/user/dashboard']) {
      const page = (await raw(path)).body.toString();
      const json = /<script type="application\/json" id="passgate-config">(.*?)<\/script>/.exec(page)?.[1];
      expect(JSON.parse(json ?? 'null'), path).toEqual(config);
    }
  });

  it('comes at once as a page while the database is down or silent, without what it would look up; the API answers 503', async () => {
    const browser = new TestBrowser();
    const challenge = await startSignIn(browser, server.url, await authorizationRequest(await relyingParty(server.url, 'demo-app', 'demo-secret')));
    const clients = server.ctx.clients;
    const { findById } = clients;
    const down = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    try {
      for (const fault of [() => Promise.reject(down), () => new Promise<never>(() => undefined)]) {
        clients.findById = fault;
        for (const path of [`/login?challenge=${challenge}`, '/register', '/user/dashboard', '/']) {
          const page = await browser.fetch(`${server.url}${path}`);
          expect(page.status, path).toBe(200);
          expect(page.headers.get('content-type'), path).toContain('text/html');
          const html = await page.text();
          expect(html, path).not.toContain('id="passgate-login-request"');
          // The configuration still comes with the page: only the account area's social app ids are unknown.
          expect(/<script type="application\/json" id="passgate-config">(.*?)<\/script>/.exec(html)?.[1], path).toContain('"clientId":"account"');
        }
      }
      clients.findById = () => Promise.reject(down);
      // The screen's own request is what says so, on the screen the person is on.
      const api = await browser.fetch(`${server.url}/api/v1/requests/login/${challenge}`);
      expect(api.status).toBe(503);
      expect(api.headers.get('retry-after')).toBe('5');
    } finally {
      clients.findById = findById;
    }
    expect((await browser.fetch(`${server.url}/login?challenge=${challenge}`)).status).toBe(200);
  });

  it('carries the sign-in request in /login and /register, as the API answers it, only for the browser that holds it', async () => {
    const browser = new TestBrowser();
    const challenge = await startSignIn(browser, server.url, await authorizationRequest(await relyingParty(server.url, 'demo-app', 'demo-secret')));
    const inPage = async (holder: TestBrowser, path = '/login') => {
      const response = await holder.fetch(`${server.url}${path}?challenge=${challenge}`);
      const json = /<script type="application\/json" id="passgate-login-request">(.*?)<\/script>/.exec(await response.text())?.[1];
      return { cache: response.headers.get('cache-control'), info: json ? JSON.parse(json) : null };
    };

    const page = await inPage(browser);
    const api = await browser.fetch(`${server.url}/api/v1/requests/login/${challenge}`);
    expect(api.status).toBe(200);
    expect(page.info).toEqual(await api.json());
    expect(page.cache).toBe('private, no-store');
    expect((await inPage(browser, '/register')).info).toEqual(page.info);
    expect((await inPage(browser, '/password/recover')).info).toBeNull();
    // Another browser knows the challenge but not the interaction cookie: its page carries nothing.
    expect(await inPage(new TestBrowser())).toEqual({ cache: 'no-cache', info: null });
  });

  it("draws the client's frame and logo before the scripts run, on /login and /register of the browser that holds the request only", async () => {
    const browser = new TestBrowser();
    const challenge = await startSignIn(browser, server.url, await authorizationRequest(await relyingParty(server.url, 'demo-app', 'demo-secret')));
    const shellOf = async (holder: TestBrowser, path: string) => {
      const html = await (await holder.fetch(`${server.url}${path}?challenge=${challenge}`)).text();
      return /<div id="passgate-shell"[^>]*>.*?<\/div><\/div><\/div>(?=<div id="root">)/.exec(html)?.[0] ?? null;
    };
    const login = await shellOf(browser, '/login');
    expect(login).toContain('aria-hidden="true"');
    // The logo, a small picture of the build, comes in the page itself: it paints with the first frame.
    const logoData = `data:image/svg+xml;base64,${Buffer.from(DEMO_LOGO).toString('base64')}`;
    expect(login).toContain(`<img src="${logoData}" alt="" fetchpriority="high" style="max-height:64px;margin-bottom:16px">`);
    expect(await shellOf(browser, '/register')).toContain('max-height:56px');
    expect(await shellOf(browser, '/password/recover')).toBeNull();
    expect(await shellOf(new TestBrowser(), '/login')).toBeNull();
  });

  it("draws the account area's header bar before the scripts run, on its pages but not its sign-in callback", async () => {
    const shellOf = async (path: string) => {
      const response = await fetch(`${server.url}${path}`);
      const html = await response.text();
      return { shell: /<div id="passgate-shell"[^>]*>.*?<\/div>(?=<div id="root">)/.exec(html)?.[0] ?? null, styled: html.includes('.pg-account-bar{') };
    };
    for (const path of ['/user/dashboard', '/user/profile', '/user/security']) {
      const { shell, styled } = await shellOf(path);
      expect(shell, path).toMatch(/^<div id="passgate-shell" aria-hidden="true" data-release="at-once">.*<span class="pg-account-name">Passgate<\/span>.*<noscript>/);
      expect(styled, path).toBe(true);
    }
    for (const path of ['/user/callback', '/privacy', '/account-deleted', '/admin']) expect((await shellOf(path)).shell, path).toBeNull();
  });

  it("paints the dashboard's heading and description in the language the SPA will show: the address's, else the switcher's choice, else Vietnamese", async () => {
    const dashboard = async (query: string, cookie?: string) => {
      const html = await (await fetch(`${server.url}/user/dashboard${query}`, { headers: cookie ? { cookie } : {} })).text();
      return /<div id="passgate-shell"[^>]*>.*?(?=<div id="root">)/.exec(html)?.[0] ?? '';
    };
    const vietnamese = /<div class="pg-account-h1">Trang chủ<\/div>.*Quản lý thông tin cá nhân, quyền riêng tư và bảo mật/;
    const english = /<div class="pg-account-h1">Dashboard<\/div>.*Manage your personal information, privacy and security/;
    expect(await dashboard('')).toMatch(vietnamese);
    expect(await dashboard('?locale=en')).toMatch(english);
    expect(await dashboard('', 'other=1; passgate_locale=en')).toMatch(english);
    // The address wins over the stored choice, as in the SPA.
    expect(await dashboard('?locale=vi', 'passgate_locale=en')).toMatch(vietnamese);
    // Anything else in the cookie is no language: the default, and nothing of it in the page.
    const forged = await dashboard('', 'passgate_locale=%3Cscript%3E');
    expect(forged).toMatch(vietnamese);
    expect(forged).not.toContain('<script');
    expect(await dashboard('', 'xpassgate_locale=en')).toMatch(vietnamese);
    // Only the dashboard: other pages paint the header alone, nothing of a page they are not.
    const profile = await (await fetch(`${server.url}/user/profile`)).text();
    expect(profile).toContain('pg-account-name');
    expect(profile).not.toContain('class="pg-account-h1"');
  });
});
