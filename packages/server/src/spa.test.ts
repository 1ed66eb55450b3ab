import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import { TestBrowser } from '../test/browser.ts';
import { authorizationRequest, relyingParty, startSignIn } from '../test/relying-party.ts';

describe('pages of the single-page app', () => {
  let server: TestServer;
  const dist = mkdtempSync(join(tmpdir(), 'passgate-dist-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Passgate</title><div id="root"></div>');

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
});
