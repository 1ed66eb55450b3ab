import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { createTenant } from '../../../test/visitor.ts';

describe('GET /api/v1/tenants/{tenantId}/password-policy', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await createTenant(server.ctx, { id: 'strict', passwordPolicy: { minLength: 12, uppercase: 1, number: 2, special: 1 } });
  });
  afterAll(() => server?.close());

  const get = async (tenantId: string) => {
    const response = await fetch(`${server.url}/api/v1/tenants/${encodeURIComponent(tenantId)}/password-policy`);
    return { status: response.status, body: (await response.json()) as any };
  };

  it("answers the tenant's policy, or the default one when it sets none", async () => {
    expect(await get('demo')).toEqual({ status: 200, body: { minLength: 6, uppercase: 0, number: 0, special: 0 } });
    expect(await get('strict')).toEqual({ status: 200, body: { minLength: 12, uppercase: 1, number: 2, special: 1 } });
  });

  it('answers 404 (1404) for an unknown tenant and 400 for an over-long id', async () => {
    expect(await get('nope')).toMatchObject({ status: 404, body: { error: { code: 1404 } } });
    expect(await get('t'.repeat(65))).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'tenantId' } } });
  });

  it('lists the visitor-flow calls in the OpenAPI document, with snake_case bodies', async () => {
    const doc = (await (await fetch(`${server.url}/api/docs`)).json()) as any;
    for (const path of ['/api/v1/users/register', '/api/v1/users/confirm', '/api/v1/users/activation/resend', '/api/v1/password/recover', '/api/v1/password/reset']) {
      expect(doc.paths[path].post.tags).toEqual(['visitor flow']);
    }
    expect(doc.paths['/api/v1/tenants/{tenantId}/password-policy'].get.tags).toEqual(['visitor flow']);
    const register = doc.paths['/api/v1/users/register'].post;
    expect(Object.keys(register.requestBody.content['application/json'].schema.properties)).toEqual(['client_id', 'username', 'password', 'name', 'recaptcha_token', 'challenge']);
    expect(Object.keys(register.responses)).toEqual(expect.arrayContaining(['200', '400', '403', '404', '409', '429', '503']));
  });
});
