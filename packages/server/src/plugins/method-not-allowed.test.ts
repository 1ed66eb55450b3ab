import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountSignIn, call } from '../../test/account.ts';
import { fakeWebDist } from '../../test/web-dist.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Whether the concrete `path` fits the OpenAPI `template` (each {parameter} one segment). */
function fits(template: string, path: string): boolean {
  const want = template.split('/');
  const have = path.split('/');
  return want.length === have.length && want.every((segment, i) => /^\{[^}]+\}$/.test(segment) || segment === have[i]);
}

/**
 * A wrong method on an API path answered 404 'Not found', as if the path did not exist. Now each
 * path of the published OpenAPI document answers a method it does not take with 405, the error
 * envelope and the methods it does take in Allow, and runs none of its handlers.
 */
describe('an API path called with a method it does not take', () => {
  let server: TestServer;
  let dist: string;
  let doc: { paths: Record<string, Record<string, unknown>> };
  beforeAll(async () => {
    dist = fakeWebDist();
    server = await startTestServer({ captureLogs: true, config: { webDistDir: dist } });
    doc = (await (await fetch(`${server.url}/api/docs`)).json()) as typeof doc;
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('answers 405 with Allow naming exactly the documented methods, on every documented path', async () => {
    const paths = Object.entries(doc.paths).filter(([path]) => path.startsWith('/api/'));
    expect(paths.length).toBeGreaterThan(40);
    expect(Object.values(doc.paths).some((ops) => 'get' in ops)).toBe(true);
    const mismatches: string[] = [];
    for (const [template] of paths) {
      const path = template.replace(/\{[^}]+\}/g, 'x1');
      // The methods of every documented template the concrete path fits: /me/sessions/sign-out-others
      // is also /me/sessions/{id}, which takes DELETE.
      const fitting = paths.filter(([other]) => fits(other, path)).map(([, ops]) => ops);
      const documented = METHODS.filter((method) => fitting.some((ops) => method.toLowerCase() in ops));
      const expectedAllow = documented.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method]));
      for (const method of METHODS.filter((m) => !documented.includes(m))) {
        const response = await fetch(`${server.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: method === 'GET' ? undefined : '{}' });
        const body = (await response.json()) as { error?: { code?: number; message?: string; requestId?: string } };
        const allow = (response.headers.get('allow') ?? '').split(', ').sort();
        if (response.status !== 405 || body.error?.code !== 1405 || allow.join() !== [...expectedAllow].sort().join()) {
          mismatches.push(`${method} ${template}: ${response.status} ${response.headers.get('allow')} ${JSON.stringify(body).slice(0, 120)}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(server.logs.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
  });

  it('says what to use, with the request id, and changes nothing', async () => {
    const { token } = await accountSignIn(server.url, 'demo@example.com');
    const before = await call(server.url, 'GET', '/api/v1/me', { token });
    const response = await fetch(`${server.url}/api/v1/me`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Mallory' }) });
    expect(response.status).toBe(405);
    const body = (await response.json()) as { error: { code: number; message: string; requestId: string } };
    expect(body.error).toMatchObject({ code: 1405, message: expect.stringMatching(/^PUT is not allowed on \/api\/v1\/me: use /) });
    expect(body.error.requestId).toBe(response.headers.get('x-request-id'));
    expect((await call(server.url, 'GET', '/api/v1/me', { token })).body).toEqual(before.body);
  });

  it('leaves an unknown path a 404, whatever the method', async () => {
    for (const method of METHODS) {
      const response = await fetch(`${server.url}/api/v1/nowhere`, { method });
      expect([method, response.status, response.headers.get('allow')]).toEqual([method, 404, null]);
      expect(((await response.json()) as { error: { code: number } }).error.code).toBe(1404);
    }
  });
});
