import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { fakeWebDist } from '../../test/web-dist.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function call(server: TestServer, path: string, init: RequestInit = {}) {
  const response = await fetch(`${server.url}${path}`, { redirect: 'manual', ...init });
  const text = await response.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, type: response.headers.get('content-type') ?? '', requestId: response.headers.get('x-request-id'), body };
}

/** The parsed log lines that carry this request id. */
function linesOf(server: TestServer, requestId: string): Record<string, unknown>[] {
  return server.logs
    .join('')
    .split('\n')
    .filter((line) => line.includes(requestId))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('unknown machine paths and request ids', () => {
  let server: TestServer;
  const dist = fakeWebDist();
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'assets', 'index-A1b2C3d4.js'), 'console.log("Passgate");\n');
  beforeAll(async () => {
    server = await startTestServer({ captureLogs: true, config: { webDistDir: dist } });
  });
  afterAll(async () => {
    await server.close();
  });

  it.each([
    ['GET', '/api/nope'],
    ['POST', '/api/v1/nope'],
    ['GET', '/api'],
    ['GET', '/oidc/nope'],
    ['POST', '/oidc/nope/deeper'],
    ['GET', '/health/nope'],
    ['GET', '/health'],
    ['GET', '/metrics'],
    ['GET', '/metrics/'],
    ['GET', '/dev/nope'],
    ['GET', '/readyz'],
    ['GET', '/livez'],
    ['GET', '/.well-known/webfinger'],
  ])('%s %s answers a JSON 404 with the error envelope, never the SPA page', async (method, path) => {
    const answer = await call(server, path, { method });
    expect([answer.status, answer.type]).toEqual([404, expect.stringContaining('application/json')]);
    expect(answer.body).toEqual({ error: { code: 1404, message: expect.stringContaining('Not found'), requestId: answer.requestId } });
    expect(answer.requestId).toMatch(UUID);
    if (method === 'GET') expect(answer.body.error.message).toBe(`Not found: GET ${path}`);
  });

  it.each(['/login', '/user/dashboard', '/healthcheck-page', '/developer'])('%s is still a page of the SPA', async (path) => {
    const answer = await call(server, path);
    expect(answer.type).toMatch(/^text\/(html|plain)/);
    expect(answer.requestId).toMatch(UUID);
  });

  it('puts a fresh X-Request-Id on every kind of response', async () => {
    const answers = {
      page: await call(server, '/login'),
      staticFile: await call(server, '/assets/index-A1b2C3d4.js'),
      apiJson: await call(server, '/api/v1/config'),
      apiError: await call(server, '/api/v1/users/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }),
      oidcJson: await call(server, '/oidc/.well-known/openid-configuration'),
      oidcError: await call(server, '/oidc/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=nope' }),
      oidcRedirect: await call(server, '/oidc/auth?client_id=demo-app'),
      probe: await call(server, '/health/live'),
      notFound: await call(server, '/api/nope'),
    };
    const ids = Object.entries(answers).map(([kind, answer]) => [kind, answer.requestId]);
    expect(ids).toEqual(Object.keys(answers).map((kind) => [kind, expect.stringMatching(UUID)]));
    expect(new Set(ids.map(([, id]) => id)).size).toBe(ids.length);
    expect(answers.apiError.status).toBe(400);
    expect(answers.apiError.body.error.requestId).toBe(answers.apiError.requestId);
    expect(answers.oidcError.status).toBe(400);
  });

  it('logs every line of a request under the same requestId its error body carries', async () => {
    const answer = await call(server, '/api/v1/users/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"challenge":' });
    expect(answer.status).toBe(400);
    const requestId = answer.body.error.requestId as string;
    expect(requestId).toBe(answer.requestId);
    const lines = linesOf(server, requestId);
    // One line per request, written when it is answered, with what was asked and the answer.
    const completed = lines.filter((line) => line.msg === 'request completed');
    expect(completed).toEqual([expect.objectContaining({ req: expect.objectContaining({ method: 'POST', url: '/api/v1/users/login' }), res: { statusCode: 400 } })]);
    expect(lines.filter((line) => line.msg === 'incoming request')).toEqual([]);
    for (const line of lines) expect([line.msg, line.requestId, line.reqId]).toEqual([line.msg, requestId, undefined]);
  });

  it('ignores an X-Request-Id from a client when no proxy is trusted', async () => {
    const answer = await call(server, '/api/nope', { headers: { 'x-request-id': 'chosen-by-the-client' } });
    expect(answer.requestId).toMatch(UUID);
    expect(answer.body.error.requestId).toBe(answer.requestId);
    expect(linesOf(server, 'chosen-by-the-client').filter((line) => line.requestId === 'chosen-by-the-client')).toEqual([]);
  });
});

describe('request ids behind a trusted proxy', () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.close();
  });
  async function behind(trustProxy: string) {
    const server = await startTestServer({ seed: false, captureLogs: true, env: { TRUST_PROXY: trustProxy } });
    servers.push(server);
    return server;
  }

  it('echoes the X-Request-Id of a trusted proxy (TRUST_PROXY=1, peer 127.0.0.1) in the header, the error body and the log lines', async () => {
    const server = await behind('1');
    const answer = await call(server, '/api/nope', { headers: { 'x-request-id': 'lb-7f3a.2:0001' } });
    expect([answer.requestId, answer.body.error.requestId]).toEqual(['lb-7f3a.2:0001', 'lb-7f3a.2:0001']);
    expect(linesOf(server, 'lb-7f3a.2:0001').map((line) => line.requestId)).toEqual(expect.arrayContaining(['lb-7f3a.2:0001']));
    // The provider's own answers carry it too.
    expect((await call(server, '/oidc/.well-known/openid-configuration', { headers: { 'x-request-id': 'lb-oidc-1' } })).requestId).toBe('lb-oidc-1');
  });

  it('trusts by the peer address: a listed proxy range is believed, another address is not', async () => {
    expect((await call(await behind('loopback'), '/health/live', { headers: { 'x-request-id': 'from-loopback' } })).requestId).toBe('from-loopback');
    expect((await call(await behind('10.0.0.0/8'), '/health/live', { headers: { 'x-request-id': 'from-elsewhere' } })).requestId).toMatch(UUID);
  });

  it('replaces an id that is not a sane token, even from a trusted proxy', async () => {
    const server = await behind('1');
    for (const value of ['has spaces', 'x'.repeat(129), 'quote"d', '']) {
      expect((await call(server, '/health/live', { headers: { 'x-request-id': value } })).requestId).toMatch(UUID);
    }
  });
});

describe("oidc-provider's own failures", () => {
  it('logs a server_error with the request id and the reason, and answers with X-Request-Id', async () => {
    const server = await startTestServer({ seed: false, captureLogs: true });
    try {
      await server.ctx.db.destroy();
      if (server.ctx.redis) server.ctx.redis.disconnect();
      const answer = await call(server, '/oidc/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials&client_id=demo-app&client_secret=x',
      });
      expect(answer.status).toBeGreaterThanOrEqual(500);
      expect(answer.body).toMatchObject({ error: 'server_error' });
      expect(answer.requestId).toMatch(UUID);
      const logged = linesOf(server, answer.requestId!).filter((line) => String(line.msg).startsWith('oidc-provider server_error'));
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ requestId: answer.requestId, path: '/oidc/token', status: answer.status });
      expect(JSON.stringify(logged[0])).toMatch(/destroyed|closed|Connection/i);
    } finally {
      await server.close().catch(() => undefined);
    }
  });
});
