import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountSignIn, call, userById } from '../../test/account.ts';
import { adminCall, adminSignIn, createAdmin } from '../../test/admin.ts';
import { fakeWebDist } from '../../test/web-dist.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { nulCharacterAt } from './nul-characters.ts';

describe('nulCharacterAt', () => {
  it('names the first string or key holding U+0000, and nothing else', () => {
    expect(nulCharacterAt({ name: 'Ann', address: { line: ['ok', 'b\u0000d'] } })).toBe('address.line.1');
    expect(nulCharacterAt({ ['k\u0000']: 1 })).toBe('body');
    expect(nulCharacterAt('a\u0000')).toBe('');
    expect(nulCharacterAt({ name: 'Ann', n: 1, b: true, z: null, list: [] })).toBeUndefined();
    expect(nulCharacterAt(Buffer.from('a\u0000b'))).toBeUndefined();
    expect(nulCharacterAt(Object.assign(Object.create(null) as object, { q: 'x\u0000' }))).toBe('q');
  });
});

/**
 * U+0000 in any input: PostgreSQL fails a statement that stores or compares it, which answered
 * 500 there (and dropped the CSV export's connection) while SQLite went on. Now refused alike on
 * both engines (the server suite runs on each), and nothing is written.
 */
describe('input holding U+0000', () => {
  let server: TestServer;
  let dist: string;
  beforeAll(async () => {
    dist = fakeWebDist();
    server = await startTestServer({ captureLogs: true, config: { webDistDir: dist } });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('is refused by the API with the field named, and the profile is left as it was', async () => {
    const { token } = await accountSignIn(server.url, 'demo@example.com');
    const before = await call(server.url, 'GET', '/api/v1/me', { token });
    const answer = await call(server.url, 'PATCH', '/api/v1/me', { token, body: { name: 'Mallory\u0000' } });
    expect(answer).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'name' } } });
    expect((await call(server.url, 'GET', '/api/v1/me', { token })).body).toEqual(before.body);
    expect((await userById(server.ctx, before.body.id))?.name).toBe(before.body.name);

    expect(await call(server.url, 'GET', '/api/v1/tenants/%00/password-policy')).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'tenantId' } } });
    expect(await call(server.url, 'GET', '/api/v1/clients/demo%00app')).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'clientId' } } });
  });

  it('is refused in an administrator\'s search and export, which answer 400 instead of failing', async () => {
    const token = await adminSignIn(server.url, await createAdmin(server.ctx, 'operator-nul@example.com', [{ role: 'operator' }]));
    expect(await adminCall(server.url, 'GET', '/tenants?q=%00', { token })).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'q' } } });
    expect(await adminCall(server.url, 'GET', '/audit.csv?user_id=a%00', { token })).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'user_id' } } });
  });

  it('names no client or token at the provider: the OAuth error, not a 500', async () => {
    const auth = await fetch(`${server.url}/oidc/auth?client_id=%00&response_type=code&scope=openid`, { redirect: 'manual' });
    expect(auth.status).toBe(400);
    const tokenWithClient = await fetch(`${server.url}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token&refresh_token=x&client_id=%00&client_secret=y',
    });
    expect(tokenWithClient.status).toBe(401);
    expect(await tokenWithClient.json()).toMatchObject({ error: 'invalid_client' });
    const refresh = await fetch(`${server.url}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('demo-app:demo-secret').toString('base64')}` },
      body: 'grant_type=refresh_token&refresh_token=abc%00def',
    });
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('leaves a page to render, without looking the value up', async () => {
    const page = await fetch(`${server.url}/login?challenge=%00&client_id=%00`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(server.logs.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
  });
});
