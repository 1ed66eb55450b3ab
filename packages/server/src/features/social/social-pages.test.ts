import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { createClient } from '../../../test/visitor.ts';
import { fakeWebDist } from '../../../test/web-dist.ts';
import { begin } from './social-test-setup.ts';

/** The login and register pages let Google's and Facebook's SDKs in only for clients that show their buttons. */
describe('pages of clients with Google and Facebook sign-in', () => {
  let server: TestServer;
  const dist = fakeWebDist();

  beforeAll(async () => {
    server = await startTestServer({ config: { webDistDir: dist } });
    const social = ['users:email:login', 'social:google:login', 'social:facebook:login'];
    await createClient(server.ctx, server.url, { id: 'both', tenantId: 'demo', permissions: social, googleAppId: 'g-app', facebookAppId: 'fb-app', facebookAppSecret: 'fb-secret' });
    await createClient(server.ctx, server.url, { id: 'google-only', tenantId: 'demo', permissions: social, googleAppId: 'g-app' });
    await createClient(server.ctx, server.url, { id: 'no-capability', tenantId: 'demo', permissions: ['users:email:login', 'social:google:register'], googleAppId: 'g-app', facebookAppId: 'fb-app' });
    await createClient(server.ctx, server.url, {
      id: 'captcha-and-facebook', tenantId: 'demo', permissions: social, facebookAppId: 'fb-app', recaptcha: { enabled: true, siteKey: 'k', secret: 's' },
    });
  });
  afterAll(() => server?.close());

  async function headers(path: string) {
    const response = await fetch(`${server.url}${path}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<div id="root">');
    return { csp: response.headers.get('content-security-policy') ?? '', coop: response.headers.get('cross-origin-opener-policy') };
  }
  const directive = (csp: string, name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `)) ?? '';

  it('opens Google and Facebook on /login and /register, with popups allowed to answer', async () => {
    const { challenge } = await begin(server, 'both');
    for (const page of ['/login', '/register']) {
      const { csp, coop } = await headers(`${page}?challenge=${challenge}`);
      expect(directive(csp, 'script-src')).toBe("script-src 'self' https://accounts.google.com/gsi/client https://connect.facebook.net");
      expect(directive(csp, 'style-src')).toBe("style-src 'self' 'unsafe-inline' https://accounts.google.com/gsi/style");
      expect(directive(csp, 'frame-src')).toBe('frame-src https://accounts.google.com/gsi/ https://www.facebook.com https://web.facebook.com');
      expect(directive(csp, 'connect-src')).toBe("connect-src 'self' https://accounts.google.com/gsi/ https://graph.facebook.com");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(coop).toBe('same-origin-allow-popups');
    }
  });

  it('opens only what the client uses: Google alone, or reCAPTCHA with Facebook', async () => {
    const google = await headers(`/login?challenge=${(await begin(server, 'google-only')).challenge}`);
    expect(directive(google.csp, 'script-src')).toBe("script-src 'self' https://accounts.google.com/gsi/client");
    expect(google.csp).not.toContain('facebook');

    const mixed = await headers(`/login?challenge=${(await begin(server, 'captcha-and-facebook')).challenge}`);
    expect(directive(mixed.csp, 'script-src')).toBe("script-src 'self' https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/ https://connect.facebook.net");
    expect(mixed.coop).toBe('same-origin-allow-popups');
  });

  it('lists the social calls in the OpenAPI document, bodies in snake_case', async () => {
    const doc = (await (await fetch(`${server.url}/api/docs`)).json()) as any;
    const login = doc.paths['/api/v1/social/login'].post;
    expect(Object.keys(login.requestBody.content['application/json'].schema.properties)).toEqual(['authorizer', 'app_id', 'challenge', 'access_token', 'client_id']);
    expect(JSON.stringify(login.responses['200'])).toContain('linkRequired');
    expect(Object.keys(doc.paths['/api/v1/social/link'].post.requestBody.content['application/json'].schema.properties)).toEqual(['challenge', 'link_token', 'password', 'code', 'client_id']);
    expect(doc.paths['/api/v1/social/link/send-code'].post.responses['200']).toBeDefined();
  });

  it('keeps the strict policy elsewhere: other login-flow pages, clients without the login capability or app id, no challenge', async () => {
    const both = (await begin(server, 'both')).challenge;
    const noCapability = (await begin(server, 'no-capability')).challenge;
    const demo = (await begin(server, 'demo-app')).challenge;
    for (const path of [`/login/mfa?challenge=${both}`, `/login/passwordless?challenge=${both}`, `/login?challenge=${noCapability}`, `/login?challenge=${demo}`, '/login', '/user/dashboard']) {
      const { csp, coop } = await headers(path);
      expect(csp, path).toContain("script-src 'self';");
      expect(csp, path).not.toMatch(/google|facebook/);
      expect(coop, path).toBe('same-origin');
    }
  });
});
