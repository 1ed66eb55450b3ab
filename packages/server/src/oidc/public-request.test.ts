import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { TestBrowser } from '../../test/browser.ts';
import { authorizationRequest, relyingParty } from '../../test/relying-party.ts';

/** Where the server really listens (its PUBLIC_URL may be a name only a proxy answers to). */
const listening = (server: TestServer) => `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;

describe('the provider answers for PUBLIC_URL only, whatever the request headers say', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: '1' } });
  });
  afterAll(() => server?.close());

  const spoofed = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', host: 'evil.example' };

  it('discovery names the issuer and endpoints under PUBLIC_URL/oidc, not a forwarded host', async () => {
    const response = await fetch(`${server.url}/oidc/.well-known/openid-configuration`, { headers: spoofed });
    const discovery = (await response.json()) as Record<string, string>;
    expect(discovery.issuer).toBe(`${server.url}/oidc`);
    for (const key of ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint', 'jwks_uri', 'end_session_endpoint']) {
      expect(discovery[key]?.startsWith(`${server.url}/oidc/`)).toBe(true);
    }
  });

  it('redirectTo is the resume URL under the issuer even when the request was started with a forged host', async () => {
    const rp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    const auth = await authorizationRequest(rp);
    const browser = new TestBrowser();
    const started = await browser.fetch(auth.url, { headers: spoofed });
    const login = new URL(started.headers.get('location') ?? '', server.url);
    expect(login.origin).toBe(server.url);
    const challenge = login.searchParams.get('challenge') as string;
    // The stored interaction itself points at PUBLIC_URL as well.
    expect((await server.ctx.provider.Interaction.find(challenge))?.returnTo).toBe(`${server.url}/oidc/auth/${challenge}`);

    const answer = await browser.fetch(`${server.url}/api/v1/users/login`, {
      method: 'POST',
      headers: { ...spoofed, 'content-type': 'application/json' },
      body: JSON.stringify({ challenge, username: 'demo@example.com', password: 'Passw0rd!' }),
    });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { redirectTo: string }).redirectTo).toBe(`${server.url}/oidc/auth/${challenge}`);
  });
});

describe('an https PUBLIC_URL behind a proxy that sends no X-Forwarded-Proto', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: '1', PUBLIC_URL: 'https://id.example.test' } });
  });
  afterAll(() => server?.close());

  it('starts a sign-in (no 500) with Secure cookies and links on the public https URL', async () => {
    // The seeded demo-app's redirect URI follows PUBLIC_URL.
    const params = new URLSearchParams({
      client_id: 'demo-app',
      response_type: 'code',
      scope: 'openid',
      redirect_uri: 'https://id.example.test/demo/callback',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    const browser = new TestBrowser();
    const response = await browser.fetch(`${listening(server)}/oidc/auth?${params.toString()}`, { headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toMatch(/^https:\/\/id\.example\.test\/login\?challenge=/);
    const cookies = response.headers.getSetCookie();
    expect(cookies.some((line) => line.startsWith('_interaction=') && /;\s*secure/i.test(line) && /path=\/(;|$)/i.test(line))).toBe(true);

    const discovery = (await (await fetch(`${listening(server)}/oidc/.well-known/openid-configuration`)).json()) as { issuer: string };
    expect(discovery.issuer).toBe('https://id.example.test/oidc');
  });
});

describe("the provider's endpoints called with a method they do not take", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('answer 405 with Allow and the error envelope, and start no sign-in', async () => {
    const rp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    const auth = await authorizationRequest(rp);
    const form = new URLSearchParams(new URL(auth.url).searchParams);
    const browser = new TestBrowser();
    const posted = await browser.fetch(`${server.url}/oidc/auth`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET, HEAD');
    expect(posted.headers.get('location')).toBeNull();
    expect(posted.headers.get('set-cookie')).toBeNull();
    const body = (await posted.json()) as any;
    expect(body.error).toMatchObject({ code: 1405, message: 'POST is not allowed on /oidc/auth: use GET' });
    expect(body.error.requestId).toBe(posted.headers.get('x-request-id'));

    const cases: [string, string, string][] = [
      ['POST', '/oidc/session/end', 'GET, HEAD'],
      ['GET', '/oidc/token', 'POST'],
      ['PUT', '/oidc/me', 'GET, POST, HEAD'],
      ['DELETE', '/oidc/jwks', 'GET, HEAD'],
      ['GET', '/oidc/token/revocation', 'POST'],
      ['GET', '/oidc/token/introspection', 'POST'],
      ['GET', '/oidc/request', 'POST'],
      ['GET', '/oidc/session/end/confirm', 'POST'],
      ['POST', '/oidc/auth/', 'GET, HEAD'],
      ['POST', '/oidc/.well-known/openid-configuration', 'GET, HEAD'],
      ['DELETE', '/oidc/.well-known/oauth-authorization-server', 'GET, HEAD'],
    ];
    for (const [method, path, allow] of cases) {
      const response = await fetch(`${server.url}${path}`, { method });
      expect([method, path, response.status, response.headers.get('allow')]).toEqual([method, path, 405, allow]);
      expect(((await response.json()) as any).error.code).toBe(1405);
    }
  });

  it('still answer the methods they take, and a path no endpoint has with the JSON 404', async () => {
    expect((await fetch(`${server.url}/oidc/jwks`)).status).toBe(200);
    expect((await fetch(`${server.url}/oidc/token`, { method: 'POST' })).status).toBe(400);
    const unknown = await fetch(`${server.url}/oidc/nowhere`, { method: 'POST' });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('allow')).toBeNull();
    expect(((await unknown.json()) as any).error).toMatchObject({ code: 1404, message: 'Not found: POST /oidc/nowhere' });
  });
});
