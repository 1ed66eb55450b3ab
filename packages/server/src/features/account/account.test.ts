import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { relyingParty, signIn } from '../../../test/relying-party.ts';
import { accountSignIn, call, createAccount, expireAccessToken, userById } from '../../../test/account.ts';

describe('GET /api/v1/me and /api/v1/me/tenant', () => {
  let server: TestServer;
  let accountToken: string;
  let relyingPartyToken: string;

  beforeAll(async () => {
    server = await startTestServer();
    const account = await relyingParty(server.url, 'account');
    accountToken = (await signIn(server.url, account, 'demo@example.com', 'Passw0rd!')).tokens.access_token;
    const demoApp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    relyingPartyToken = (await signIn(server.url, demoApp, 'demo@example.com', 'Passw0rd!')).tokens.access_token;
  });
  afterAll(() => server?.close());

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers });

  it("answers the signed-in user's profile to an account access token", async () => {
    const response = await get('/api/v1/me', { authorization: `Bearer ${accountToken}` });
    expect(response.status).toBe(200);
    expect(await response.json() as any).toMatchObject({
      tenantId: 'demo',
      name: 'Demo User',
      email: 'demo@example.com',
      emailVerified: true,
      phoneNumber: null,
      avatarUrl: null,
      enableMfa: false,
      registrationMethod: 'password',
      hasPassword: true,
    });
  });

  it("lists the user's recent security events, newest first, and only security-relevant ones", async () => {
    // The sign-ins above, plus a failed attempt now.
    const demoApp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    await signIn(server.url, demoApp, 'demo@example.com', 'Passw0rd!').catch(() => undefined);
    const user = await server.ctx.users.findByEmail('demo', 'demo@example.com');
    await server.ctx.audit.record({ type: 'login.failure', userId: user!.id, tenantId: 'demo', ip: '198.51.100.7', details: { reason: 'wrong_password' } });
    await server.ctx.audit.record({ type: 'user.created', userId: user!.id, tenantId: 'demo' });

    const response = await get('/api/v1/me/security-events', { authorization: `Bearer ${accountToken}` });
    expect(response.status).toBe(200);
    const { items } = (await response.json()) as any;
    expect(items[0]).toMatchObject({ type: 'login.failure', ip: '198.51.100.7', createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(items.map((i: any) => i.type)).toContain('login.success');
    expect(items.map((i: any) => i.type)).not.toContain('user.created');
    expect(JSON.stringify(items)).not.toMatch(/wrong_password|details/);

    expect((await get('/api/v1/me/security-events')).status).toBe(401);
    expect((await get('/api/v1/me/security-events', { authorization: `Bearer ${relyingPartyToken}` })).status).toBe(401);
  });

  it("answers the user's tenant", async () => {
    const response = await get('/api/v1/me/tenant', { authorization: `Bearer ${accountToken}` });
    expect(response.status).toBe(200);
    expect(await response.json() as any).toMatchObject({ id: 'demo', webauthnAllowed: true, passwordPolicy: { minLength: 6 } });
  });

  it('answers 1101 without a token and 1102 for a bad token or a relying party token', async () => {
    for (const path of ['/api/v1/me', '/api/v1/me/tenant']) {
      const none = await get(path);
      expect(none.status).toBe(401);
      expect((await none.json() as any).error.code).toBe(1101);
      // RFC 6750 section 3: the bare challenge without a token, invalid_token for a refused one.
      expect(none.headers.get('www-authenticate')).toBe('Bearer');
      for (const authorization of ['Bearer not-a-token', 'Basic abc', `Bearer ${relyingPartyToken}`]) {
        const bad = await get(path, { authorization });
        expect(bad.status).toBe(401);
        expect((await bad.json() as any).error.code).toBe(1102);
        expect(bad.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      }
    }
  });

  it('answers 1101 without a token and 1102 for a bad, expired or relying party token on every signed-in call, changing nothing', async () => {
    const id = await createAccount(server.ctx, { email: 'guarded@example.com' });
    const { token } = await accountSignIn(server.url, 'guarded@example.com');
    const expired = (await accountSignIn(server.url, 'guarded@example.com')).token;
    expect((await call(server.url, 'GET', '/api/v1/me', { token: expired })).status).toBe(200);
    await expireAccessToken(server.ctx, expired);
    const before = await userById(server.ctx, id);
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/v1/me'],
      ['GET', '/api/v1/me/tenant'],
      ['PATCH', '/api/v1/me', { name: 'Changed', gender: 'Other' }],
      // Bad input too: without a valid token the body is not even looked at.
      ['PATCH', '/api/v1/me', { name: 'x'.repeat(10_000) }],
      ['POST', '/api/v1/me/avatar', { image: 'aGVsbG8=', mime_type: 'image/png' }],
      ['POST', '/api/v1/me/email/verify', { email: 'new-guarded@example.com' }],
      ['POST', '/api/v1/me/email/update', { email: 'new-guarded@example.com', code: '123456' }],
      ['POST', '/api/v1/me/phoneNumber/verify', { phone_number: '0911222333' }],
      ['POST', '/api/v1/me/phoneNumber/update', { phone_number: '0911222333', code: '123456' }],
      ['DELETE', '/api/v1/me', { password: 'Passw0rd!', confirmation: 'guarded@example.com' }],
      ['POST', '/api/v1/me/deletion/code'],
    ];
    for (const [method, path, body] of calls) {
      const none = await call(server.url, method, path, { body });
      expect([method, path, none.status, none.body.error.code]).toEqual([method, path, 401, 1101]);
      for (const authorization of ['Bearer not-a-token', 'Basic abc', `Bearer ${relyingPartyToken}`, `Bearer ${expired}`]) {
        const bad = await call(server.url, method, path, { authorization, body });
        expect([method, path, authorization, bad.status, bad.body.error.code]).toEqual([method, path, authorization, 401, 1102]);
      }
    }
    expect(await userById(server.ctx, id)).toEqual(before);
    expect(await server.ctx.db.selectFrom('avatars').selectAll().execute()).toEqual([]);
    expect(await server.ctx.messaging.outbox!.list({ to: 'new-guarded@example.com', limit: 10 })).toEqual([]);
    // The token that was not tampered with still works.
    expect((await call(server.url, 'GET', '/api/v1/me', { token })).status).toBe(200);
  });

  it('lists the account calls in the OpenAPI document, with the bearer scheme', async () => {
    const docs = (await (await fetch(`${server.url}/api/docs`)).json()) as any;
    const operations: [string, string][] = [
      ['/api/v1/me', 'get'],
      ['/api/v1/me', 'patch'],
      ['/api/v1/me', 'delete'],
      ['/api/v1/me/avatar', 'post'],
      ['/api/v1/me/email/verify', 'post'],
      ['/api/v1/me/email/update', 'post'],
      ['/api/v1/me/phoneNumber/verify', 'post'],
      ['/api/v1/me/phoneNumber/update', 'post'],
    ];
    for (const [path, method] of operations) {
      const operation = docs.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.tags).toEqual(['account']);
      expect(operation.security).toEqual([{ bearerAuth: [] }]);
    }
    expect(docs.paths['/api/v1/avatars/{key}'].get.tags).toEqual(['account']);
    expect(Object.keys(docs.paths['/api/v1/me'].patch.requestBody.content['application/json'].schema.properties).sort()).toEqual(['birthday', 'gender', 'name']);
  });
});
