import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import { oidc, relyingParty, signIn } from '../test/relying-party.ts';

describe('the HTTP application', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('publishes the OpenAPI document with snake_case request bodies and camelCase responses', async () => {
    const response = await fetch(`${server.url}/api/docs`);
    expect(response.status).toBe(200);
    const doc = (await response.json()) as any;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/v1/requests/login/{challenge}', '/api/v1/users/login', '/api/v1/requests/logout/{challenge}', '/api/v1/me', '/api/v1/me/tenant']),
    );
    const login = doc.paths['/api/v1/users/login'].post;
    expect(Object.keys(login.requestBody.content['application/json'].schema.properties)).toEqual(['challenge', 'username', 'password', 'client_id', 'recaptcha_token']);
    expect(Object.keys(login.responses['200'].content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['redirectTo', 'mfaRequired', 'tokenType', 'mfaToken', 'passwordWarning']),
    );
  });

  it('sends a strict content security policy and refuses framing', async () => {
    const response = await fetch(`${server.url}/api/v1/config`);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('sends the same security headers on the API and on the provider\'s own answers', async () => {
    const expected = {
      'content-security-policy':
        "default-src 'self';base-uri 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data: blob: https:;font-src 'self' data:;connect-src 'self';frame-src 'none';object-src 'none';frame-ancestors 'none'",
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-site',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'DENY',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    };
    for (const path of ['/api/v1/config', '/oidc/.well-known/openid-configuration', '/api/v2/unknown']) {
      const headers = Object.fromEntries((await fetch(`${server.url}${path}`)).headers);
      expect(headers, path).toMatchObject(expected);
      // Plain HTTP here: no HSTS, which would pin browsers to an https:// that does not answer.
      expect(headers['strict-transport-security'], path).toBeUndefined();
      expect(headers['x-powered-by'], path).toBeUndefined();
    }
  });

  it('sends one framing policy on every kind of answer: frame-ancestors \'none\' and X-Frame-Options DENY, never SAMEORIGIN', async () => {
    // The logout continuation page: a real sign-in, then a confirmed end session.
    const demoApp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    const { tokens, browser } = await signIn(server.url, demoApp, 'demo@example.com', 'Passw0rd!');
    const endSession = oidc.buildEndSessionUrl(demoApp.config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: `${server.url}/demo` });
    const challenge = new URL((await browser.follow(endSession.toString(), server.url)).url).searchParams.get('challenge')!;
    const decision = await browser.postJson(`${server.url}/api/v1/requests/logout/${challenge}`, { confirmed: true });
    const { redirectTo } = (await decision.json()) as any;

    const answers: [string, Response][] = [
      // An SPA page (or the 503 that stands in for it before the web app is built).
      ['page', await fetch(`${server.url}/login`)],
      ['API JSON', await fetch(`${server.url}/api/v1/config`)],
      ['API error', await fetch(`${server.url}/api/v2/unknown`)],
      ['/oidc JSON', await fetch(`${server.url}/oidc/.well-known/openid-configuration`)],
      // An HTML page the provider renders itself, with a policy of its own (a script hash).
      ['/oidc page', await fetch(`${server.url}/oidc/session/end`)],
      ['logout continuation page', await browser.fetch(redirectTo)],
    ];
    const seen = answers.map(([kind, response]) => ({
      kind,
      type: response.headers.get('content-type')?.split(';')[0],
      frameAncestors: /frame-ancestors ([^;]+)/.exec(response.headers.get('content-security-policy') ?? '')?.[1],
      xFrameOptions: response.headers.get('x-frame-options'),
    }));
    expect(seen).toEqual([
      { kind: 'page', type: expect.stringMatching(/^text\/(html|plain)$/), frameAncestors: "'none'", xFrameOptions: 'DENY' },
      { kind: 'API JSON', type: 'application/json', frameAncestors: "'none'", xFrameOptions: 'DENY' },
      { kind: 'API error', type: 'application/json', frameAncestors: "'none'", xFrameOptions: 'DENY' },
      { kind: '/oidc JSON', type: 'application/json', frameAncestors: "'none'", xFrameOptions: 'DENY' },
      { kind: '/oidc page', type: 'text/html', frameAncestors: "'none'", xFrameOptions: 'DENY' },
      { kind: 'logout continuation page', type: 'text/html', frameAncestors: "'none'", xFrameOptions: 'DENY' },
    ]);
  });

  it('answers a JSON body over the 1 MiB limit with 413 and the generic code 1003, not the avatar\'s "file too large"', async () => {
    const post = (body: string) =>
      fetch(`${server.url}/api/v1/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const padding = (length: number) => JSON.stringify({ challenge: 'x', username: 'a'.repeat(length), password: 'p', client_id: 'demo-app' });

    const tooLong = await post(padding(1024 * 1024));
    expect(tooLong.status).toBe(413);
    expect(await tooLong.json()).toEqual({ error: { code: 1003, message: 'Request too large', requestId: tooLong.headers.get('x-request-id') } });

    // Just within the limit the body is read and judged on its content: never a 413.
    const body = padding(1024 * 1024 - 200);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(1024 * 1024);
    const within = await post(body);
    expect(within.status).not.toBe(413);
    expect(((await within.json()) as any).error.code).not.toBe(1003);
  });

  it('answers a broken or over-long address in the API\'s envelope, without echoing it: 400 (1000) for bad %-encoding, 404 or 414 past 1024 characters in a segment', async () => {
    const badEncoding = await fetch(`${server.url}/api/v1/requests/login/Secret-Path-Value%E0%A4%A`);
    expect(badEncoding.status).toBe(400);
    const bad = await badEncoding.text();
    expect(JSON.parse(bad)).toMatchObject({ error: { code: 1000, requestId: expect.any(String) } });
    expect(bad).not.toContain('Secret-Path-Value');

    // Past the router's bound the route is not matched: the SPA's catch-all (when the web app is
    // built) answers an /api path 404 (1404), else the router itself 414 (1003). Either way, the envelope.
    const huge = await fetch(`${server.url}/api/v1/requests/login/${'x'.repeat(1100)}`);
    const hugeBody = (await huge.json()) as { error: { code: number } };
    expect([huge.status, hugeBody.error.code]).toEqual(huge.status === 414 ? [414, 1003] : [404, 1404]);

    // A long challenge within the router's bound is the route's to judge: an invalid field, named.
    const long = await fetch(`${server.url}/api/v1/requests/login/${'x'.repeat(300)}`);
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ error: { code: 1002, field: 'challenge' } });
  });

  it('serves the runtime configuration the SPA needs', async () => {
    const config = (await (await fetch(`${server.url}/api/v1/config`)).json()) as any;
    expect(config).toMatchObject({ authority: `${server.url}/oidc`, clientId: 'account', redirectUri: `${server.url}/user/callback`, policyUrl: `${server.url}/privacy` });
  });

  it('answers JSON 404s under /api and /oidc, and the SPA (or a clear 503 before it is built) elsewhere', async () => {
    const api = await fetch(`${server.url}/api/v2/unknown`);
    expect(api.status).toBe(404);
    expect(((await api.json()) as any).error.code).toBe(1404);
    const page = await fetch(`${server.url}/some/page`);
    expect([200, 503]).toContain(page.status);
    expect(page.headers.get('content-type')).toMatch(/text\/(html|plain)/);
  });
});
