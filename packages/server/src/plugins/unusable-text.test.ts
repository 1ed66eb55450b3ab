import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountSignIn, call, userById } from '../../test/account.ts';
import { adminCall, adminSignIn, createAdmin } from '../../test/admin.ts';
import { fakeWebDist } from '../../test/web-dist.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { createTenant } from '../../test/visitor.ts';
import { MAX_INPUT_DEPTH, nestedDeeperThan, unusableTextAt } from './unusable-text.ts';

describe('unusableTextAt', () => {
  const at = (value: unknown) => unusableTextAt(value)?.at;
  it('names the first string or key holding U+0000, and nothing else', () => {
    expect(at({ name: 'Ann', address: { line: ['ok', 'b\u0000d'] } })).toBe('address.line.1');
    expect(at({ ['k\u0000']: 1 })).toBe('body');
    expect(at('a\u0000')).toBe('');
    expect(at({ name: 'Ann', n: 1, b: true, z: null, list: [] })).toBeUndefined();
    expect(at(Buffer.from('a\u0000b'))).toBeUndefined();
    expect(at(Object.assign(Object.create(null) as object, { q: 'x\u0000' }))).toBe('q');
  });

  it('names the first string or key that is not well-formed Unicode, and says why', () => {
    expect(unusableTextAt({ theme: { backgroundImageUri: 'https://acme.test/a\ud800.png' } })).toEqual({ at: 'theme.backgroundImageUri', fault: expect.stringContaining('lone surrogate') });
    expect(at({ name: 'Ann', list: ['\udc00x'] })).toBe('list.0');
    expect(at({ ['k\udbff']: 1 })).toBe('body');
    expect(unusableTextAt({ a: 'b\u0000' })).toEqual({ at: 'a', fault: expect.stringContaining('U+0000') });
    // A pair is one character: well-formed, whatever it is.
    expect(at({ name: 'Ann 😀', other: '\ud83d\ude00', text: 'Nguyễn' })).toBeUndefined();
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

/**
 * A lone UTF-16 surrogate (a JSON body writes one as "\ud800") is not well-formed Unicode: it has no
 * UTF-8 form, and encodeURIComponent throws on it. It answered 500 in the Google sign-in, and a
 * client theme holding one was accepted (201) and then broke that client's /login and /register
 * pages. Now refused on every route of the API, before validation, with the field named.
 */
describe('input that is not well-formed Unicode', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ captureLogs: true, env: { LOGIN_RATE_LIMIT_PER_IP: '1000' } });
  });
  afterAll(() => server?.close());
  const refusal = (field: string) => ({ status: 400, body: { error: { code: 1002, field, message: expect.stringContaining('lone surrogate') } } });

  it('is refused in the account area, and the profile is left as it was', async () => {
    const { token } = await accountSignIn(server.url, 'demo@example.com');
    const before = await call(server.url, 'GET', '/api/v1/me', { token });
    expect(await call(server.url, 'PATCH', '/api/v1/me', { token, body: { name: 'Mallory\ud800' } })).toMatchObject(refusal('name'));
    expect(await call(server.url, 'PATCH', '/api/v1/me', { token, body: { name: '\udfffMallory' } })).toMatchObject(refusal('name'));
    expect((await call(server.url, 'GET', '/api/v1/me', { token })).body).toEqual(before.body);
    expect((await userById(server.ctx, before.body.id))?.name).toBe(before.body.name);
  });

  it("is refused in the admin API: a tenant admin's client theme is not stored", async () => {
    await createTenant(server.ctx, { id: 'acme', name: 'Acme' });
    const token = await adminSignIn(server.url, await createAdmin(server.ctx, 'acme-admin@example.com', [{ role: 'tenant-admin', tenantId: 'acme' }]));
    const client = (theme: Record<string, unknown>) => ({ id: 'acme-shop', name: 'Acme Shop', redirect_uris: ['https://acme.test/cb'], theme });
    const created = await adminCall(server.url, 'POST', '/tenants/acme/clients', { token, body: client({ backgroundImageUri: 'https://acme.test/a\ud800.png' }) });
    expect(created).toMatchObject(refusal('theme.backgroundImageUri'));
    expect(await server.ctx.db.selectFrom('clients').select('id').where('id', '=', 'acme-shop').executeTakeFirst()).toBeUndefined();

    // Nor through a change of a client that exists.
    expect(await adminCall(server.url, 'POST', '/tenants/acme/clients', { token, body: client({ title: 'Acme' }) })).toMatchObject({ status: 201 });
    const patched = await adminCall(server.url, 'PATCH', '/tenants/acme/clients/acme-shop', { token, body: { theme: { backgroundImageUri: 'https://acme.test/b\udc00.png' } } });
    expect(patched).toMatchObject(refusal('theme.backgroundImageUri'));
    const row = await server.ctx.db.selectFrom('clients').select('theme').where('id', '=', 'acme-shop').executeTakeFirstOrThrow();
    expect(JSON.parse(row.theme as string)).toEqual({ title: 'Acme' });
  });

  it('cannot come in a path or a query: percent-encoded, a surrogate is bytes that are not UTF-8', async () => {
    const token = await adminSignIn(server.url, await createAdmin(server.ctx, 'operator-surrogate@example.com', [{ role: 'operator' }]));
    for (const spelling of ['%ED%A0%80', '%uD800']) {
      // A path that does not decode is refused before any route; a query keeps such text as it came.
      expect(await call(server.url, 'GET', `/api/v1/clients/demo${spelling}app`), spelling).toMatchObject({ status: 400, body: { error: { code: 1000 } } });
      expect(await adminCall(server.url, 'GET', `/tenants?q=a${spelling}`, { token }), spelling).toMatchObject({ status: 200, body: { items: [] } });
    }
    expect(server.logs.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
  });
});
