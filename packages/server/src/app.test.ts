import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/test-server.ts';

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
