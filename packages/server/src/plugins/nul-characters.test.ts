import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountSignIn, call, userById } from '../../test/account.ts';
import { adminCall, adminSignIn, createAdmin } from '../../test/admin.ts';
import { fakeWebDist } from '../../test/web-dist.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { MAX_INPUT_DEPTH, nestedDeeperThan, nulCharacterAt } from './nul-characters.ts';

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

describe('nestedDeeperThan', () => {
  it('counts the levels of arrays and objects, without recursion however deep', () => {
    expect(nestedDeeperThan({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(nestedDeeperThan({ a: [{ b: {} }] }, 3)).toBe(true);
    expect(nestedDeeperThan('text', 0)).toBe(false);
    expect(nestedDeeperThan(Buffer.from('[[[[]]]]'), 1)).toBe(false);
    expect(nestedDeeperThan(JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`), MAX_INPUT_DEPTH)).toBe(true);
  });
});

/**
 * A body nested thousands deep (a few kilobytes) overflowed the stack of the U+0000 check below: a
 * 500 and an error in the log, for anyone, on any route of the API.
 */
describe('a body nested deeper than any input', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ captureLogs: true });
  });
  afterAll(() => server?.close());

  it('is refused with 400 (1000) before validation, with no error in the log', async () => {
    const post = (path: string, body: string) => fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    for (const depth of [MAX_INPUT_DEPTH + 1, 10_000, 100_000]) {
      for (const [path, body] of [
        ['/api/v1/users/login', `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`],
        ['/api/v1/password/recover', `${'['.repeat(depth)}${']'.repeat(depth)}`],
      ] as const) {
        const answer = await post(path, body);
        expect(answer.status, `${path} at ${depth}`).toBe(400);
        expect(await answer.json()).toMatchObject({ error: { code: 1000, message: expect.stringContaining(`more than ${MAX_INPUT_DEPTH} levels`) } });
      }
    }
    // Nesting no input needs, short of the limit, goes on to validation as before.
    expect((await post('/api/v1/users/login', `{"username":${'['.repeat(MAX_INPUT_DEPTH - 1)}${']'.repeat(MAX_INPUT_DEPTH - 1)}}`)).status).toBe(400);
    expect(server.logs.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
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
