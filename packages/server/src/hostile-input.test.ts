import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, errorCodes } from '@passgate/contract';
import { accountSignIn } from '../test/account.ts';
import { adminSignIn, createAdmin } from '../test/admin.ts';
import { fakeWebDist } from '../test/web-dist.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

/**
 * Every operation of the published OpenAPI document, called the way an attacker or a broken client
 * calls it: bodies that are not JSON or not objects, each field of the wrong type, huge or holding
 * NUL and lone surrogates, path parameters that are traversal, encoded NUL or far too long. Each
 * answer must be a clear refusal in the API's envelope (a 4xx with a code of the catalogue), never a
 * 5xx, and the server must log no error while answering them. A body field holding NUL or a lone
 * surrogate is refused by one rule on every operation: 400, 1002, that field named.
 */

interface Operation {
  method: string;
  path: string;
  bodyFields: string[];
  queryFields: string[];
  auth: boolean;
}

const KNOWN_CODES = new Set<number>(errorCodes);

const HOSTILE_VALUES: [string, unknown][] = [
  ['an object', { $gt: '' }],
  ['an array', ['a', 'b']],
  ['a huge number', 1e308],
  ['a boolean', true],
  ['null', null],
  ['a 100,000-character string', 'x'.repeat(100_000)],
  ['NUL and a lone surrogate', 'a\u0000b\ud800c'],
  ['a lone surrogate', 'b\ud800c'],
  ['a lone low surrogate', '\udc00'],
  ['control and separator characters', 'a\u0001\u001b[31m\u2028b\r\nc'],
  // Each longer than a varchar column PostgreSQL enforces (SQLite does not) unless validation stops it.
  ['a 201-character string', 'x'.repeat(201)],
  ['a 256-character address', `${'a'.repeat(244)}@example.com`],
  ['a 1,001-character string', 'x'.repeat(1001)],
  ['SQL', "' or 1=1 --"],
];

/** Text no input may be (plugins/unusable-text.ts): refused with 400/1002 naming the field, on every route. */
const UNUSABLE_TEXT = new Set(['NUL and a lone surrogate', 'a lone surrogate', 'a lone low surrogate']);

const HOSTILE_SEGMENTS = ['x', '%00', '%ED%A0%80', '%uD800', 'a'.repeat(600), '..%2F..%2Fetc%2Fpasswd', '%F0%9F%98%80', '-1', "'%20or%201%3D1%20--", '%25', '__proto__', 'constructor'];

function operationsOf(doc: any): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(methods)) {
      const schema = op.requestBody?.content?.['application/json']?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        bodyFields: Object.keys(schema?.properties ?? {}),
        queryFields: (op.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => p.name),
        auth: Boolean(op.security),
      });
    }
  }
  return operations;
}

describe('hostile input on every API operation', () => {
  let server: TestServer;
  let dist: string;
  let doc: any;
  let userToken: string;
  let adminToken: string;
  beforeAll(async () => {
    dist = fakeWebDist();
    server = await startTestServer({ captureLogs: true, config: { webDistDir: dist } });
    doc = await (await fetch(`${server.url}/api/docs`)).json();
    userToken = (await accountSignIn(server.url, 'demo@example.com')).token;
    adminToken = await adminSignIn(server.url, await createAdmin(server.ctx, 'operator@example.com', [{ role: 'operator' }]));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('answers each with a 4xx in the error envelope (or a success), never a 5xx, and logs no error', { timeout: 600_000 }, async () => {
    const operations = operationsOf(doc).filter((op) => op.path.startsWith('/api/'));
    expect(operations.length).toBeGreaterThan(60);
    const failures: string[] = [];
    let requests = 0;

    async function attempt(label: string, op: Operation, path: string, init: { body?: string; contentType?: string; query?: string; refusedField?: string } = {}) {
      const headers: Record<string, string> = { 'accept-language': 'en' };
      if (op.auth) headers.authorization = `Bearer ${op.path.startsWith('/api/admin/') ? adminToken : userToken}`;
      if (init.contentType) headers['content-type'] = init.contentType;
      requests += 1;
      const where = `${op.method} ${op.path} with ${label}`;
      let response: Response;
      let text: string;
      try {
        response = await fetch(`${server.url}${path}${init.query ?? ''}`, { method: op.method, headers, ...(init.body !== undefined ? { body: init.body } : {}) });
        text = await response.text();
      } catch (error) {
        failures.push(`${where}: no answer (${String((error as Error).cause ?? error)})`);
        return;
      }
      if (response.status >= 500) {
        failures.push(`${where}: ${response.status} ${text.slice(0, 200)}`);
        return;
      }
      if (response.status >= 400 || init.refusedField !== undefined) {
        let error: { code?: unknown; field?: unknown } | undefined;
        try {
          error = JSON.parse(text)?.error;
        } catch {
          error = undefined;
        }
        if (init.refusedField !== undefined && (response.status !== 400 || error?.code !== ErrorCode.InvalidField || error.field !== init.refusedField)) {
          failures.push(`${where}: not refused with 1002 naming ${init.refusedField}: ${response.status} ${text.slice(0, 200)}`);
          return;
        }
        if (!KNOWN_CODES.has(error?.code as number)) failures.push(`${where}: ${response.status} without a catalogue code: ${text.slice(0, 200)}`);
        // 'Required field' and 'Invalid field' say which field (SPEC.md section 8, DESIGN.md section 6).
        else if ((error?.code === ErrorCode.RequiredField || error?.code === ErrorCode.InvalidField) && typeof error.field !== 'string') failures.push(`${where}: ${error.code} names no field: ${text.slice(0, 200)}`);
      }
    }

    for (const op of operations) {
      const plainPath = op.path.replace(/\{[^}]+\}/g, 'unknown');
      for (const segment of HOSTILE_SEGMENTS) {
        const params = op.path.match(/\{[^}]+\}/g) ?? [];
        for (const param of params) {
          await attempt(`${param} = ${segment.slice(0, 30)}`, op, op.path.replace(param, segment).replace(/\{[^}]+\}/g, 'unknown'));
        }
      }
      for (const field of op.queryFields) {
        for (const value of ['', '%00', '%ED%A0%80', '%uD800', 'a'.repeat(5000), '-1', '1e400', '[object%20Object]']) await attempt(`?${field}=${value.slice(0, 20)}`, op, plainPath, { query: `?${field}=${value}` });
        await attempt(`?${field} twice`, op, plainPath, { query: `?${field}=1&${field}=2` });
      }
      if (op.method === 'GET' || op.method === 'HEAD') continue;
      await attempt('no body and no type', op, plainPath);
      await attempt('an empty JSON body', op, plainPath, { body: '', contentType: 'application/json' });
      await attempt('broken JSON', op, plainPath, { body: '{"a":', contentType: 'application/json' });
      await attempt('a prototype-polluting body', op, plainPath, { body: '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}', contentType: 'application/json' });
      for (const body of ['[]', '"text"', 'null', '123', 'true']) await attempt(`the JSON body ${body}`, op, plainPath, { body, contentType: 'application/json' });
      await attempt('a text/plain body', op, plainPath, { body: 'a=b', contentType: 'text/plain' });
      await attempt('a form body', op, plainPath, { body: 'a=b&c=d', contentType: 'application/x-www-form-urlencoded' });
      await attempt('a multipart body', op, plainPath, { body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n', contentType: 'multipart/form-data; boundary=x' });
      for (const field of op.bodyFields) {
        for (const [label, value] of HOSTILE_VALUES) {
          await attempt(`${field} as ${label}`, op, plainPath, { body: JSON.stringify({ [field]: value }), contentType: 'application/json', ...(UNUSABLE_TEXT.has(label) ? { refusedField: field } : {}) });
        }
      }
    }

    const errorLogs = server.logs.filter((line) => /"level":(50|60)/.test(line));
    expect({ requests, failures, errorLogs: errorLogs.map((l) => l.slice(0, 1000)) }).toEqual({ requests, failures: [], errorLogs: [] });
    // The server runs in this process: a body that reached Object.prototype would show here.
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('answers the provider\'s endpoints and the pages the same way, whatever their parameters hold', { timeout: 600_000 }, async () => {
    const discovery = (await (await fetch(`${server.url}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    const endpoints: string[] = Object.entries(discovery)
      .filter(([key]) => key.endsWith('_endpoint') || key === 'jwks_uri')
      .map(([, url]) => new URL(String(url)).pathname);
    expect(endpoints).toEqual(expect.arrayContaining(['/oidc/auth', '/oidc/token', '/oidc/me', '/oidc/session/end']));
    const pages = ['/login', '/login/mfa', '/login/passwordless', '/login/webauthn', '/login/webauthn/verify-device', '/login/social-link', '/logout', '/register', '/activation', '/activation/resend', '/password/recover', '/password/update', '/password/coming-expire', '/request-expired', '/user/dashboard', '/user/callback', '/demo', '/demo/login', '/demo/callback'];
    const params = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'nonce', 'code', 'grant_type', 'refresh_token', 'token', 'id_token_hint', 'post_logout_redirect_uri', 'ui_locales', 'login_hint', 'prompt', 'max_age', 'claims', 'request', 'request_uri', 'code_challenge', 'code_challenge_method', 'code_verifier', 'challenge', 'client', 'locale', 'username', 'key', 'error'];
    const values = ['', '%00', 'a'.repeat(6000), '%F0%9F%98%80', '%ED%A0%80', '%uD800', '%ED%A0', '{"userinfo":{"email":null}}', '-1', '1e400', 'javascript:alert(1)', '..%2F..%2Fetc%2Fpasswd', '%25'];
    const failures: string[] = [];
    let requests = 0;
    async function attempt(method: string, path: string, query: string, init: { body?: string; headers?: Record<string, string> } = {}) {
      requests += 1;
      const response = await fetch(`${server.url}${path}${query}`, { method, redirect: 'manual', headers: { 'accept-language': 'en', ...init.headers }, ...(init.body !== undefined ? { body: init.body } : {}) });
      const text = await response.text();
      if (response.status >= 500) failures.push(`${method} ${path}${query.slice(0, 80)}${init.body ? ` body ${init.body.slice(0, 80)}` : ''}: ${response.status} ${text.slice(0, 200)}`);
    }
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    // The pages read a few parameters of their own; the provider's endpoints are tried with all.
    const pageParams = ['challenge', 'client_id', 'client', 'locale', 'ui_locales', 'username', 'login_hint', 'key', 'error', 'state', 'code', 'redirect_uri'];
    const calls: (() => Promise<void>)[] = [];
    for (const path of [...endpoints, ...pages]) {
      const endpoint = endpoints.includes(path);
      for (const param of endpoint ? params : pageParams) {
        for (const value of values) calls.push(() => attempt('GET', path, `?${param}=${value}`));
        calls.push(() => attempt('GET', path, `?${param}=1&${param}=2`));
        if (!endpoint) continue;
        for (const value of values) calls.push(() => attempt('POST', path, '', { body: `client_id=demo-app&${param}=${value}`, headers: form }));
        calls.push(() => attempt('POST', path, '', { body: `${param}=1&${param}=2`, headers: form }));
      }
      if (!endpoint) continue;
      calls.push(() => attempt('POST', path, '', { body: '{"a":', headers: { 'content-type': 'application/json' } }));
      calls.push(() => attempt('POST', path, '', { body: 'grant_type=refresh_token&refresh_token=x', headers: { ...form, authorization: 'Basic %%%' } }));
      calls.push(() => attempt('POST', path, '', { body: 'grant_type=refresh_token&refresh_token=x', headers: { ...form, authorization: `Basic ${Buffer.from('demo-app:').toString('base64')}` } }));
      calls.push(() => attempt('GET', path, '', { headers: { authorization: 'Bearer !!!' } }));
      calls.push(() => attempt('GET', path, '', { headers: { authorization: `Bearer ${'a'.repeat(6000)}` } }));
      calls.push(() => attempt('GET', path, '', { headers: { cookie: `_session=${'%'.repeat(500)}; _interaction=%ZZ; _session.legacy.sig=x` } }));
    }
    // A few at a time, as several clients would send them.
    await Promise.all(Array.from({ length: 6 }, async () => {
      for (let next = calls.shift(); next; next = calls.shift()) await next();
    }));

    const errorLogs = server.logs.filter((line) => /"level":(50|60)/.test(line));
    expect({ requests, failures, errorLogs: errorLogs.map((l) => l.slice(0, 1000)) }).toEqual({ requests, failures: [], errorLogs: [] });
  });
});
