import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSignIn, createAdmin } from '../../test/admin.ts';
import { freshPostgresSchema, startTestServer, type TestServer } from '../../test/test-server.ts';
import { startTcpProxy, type TcpProxy } from '../../test/tcp-proxy.ts';
import { lastCode } from '../../test/visitor.ts';
import { TestBrowser } from '../../test/browser.ts';
import { authorizationRequest, relyingParty, signIn, startSignIn, type RelyingParty } from '../../test/relying-party.ts';

const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;

/** `url`'s database reached through a TCP proxy the test can cut or silence. */
async function throughProxy(url: string) {
  const target = new URL(postgresUrl!);
  const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
  const viaProxy = new URL(url);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  return { proxy, viaProxy };
}

async function getPolicy(server: TestServer): Promise<{ status: number; retryAfter: string | null; code?: number; ms: number }> {
  return answerOf(server, '/api/v1/tenants/demo/password-policy');
}

async function answerOf(server: TestServer, path: string, init: RequestInit = {}): Promise<{ status: number; retryAfter: string | null; code?: number; ms: number }> {
  const started = Date.now();
  const response = await fetch(`${server.url}${path}`, { signal: AbortSignal.timeout(15_000), ...init });
  const body = (await response.json()) as { error?: { code: number } };
  return { status: response.status, retryAfter: response.headers.get('retry-after'), code: body.error?.code, ms: Date.now() - started };
}

describe.skipIf(!postgresUrl)('PostgreSQL faults', () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (error: unknown) => unhandled.push(error);
  beforeAll(() => {
    process.on('uncaughtException', onUnhandled);
    process.on('unhandledRejection', onUnhandled);
  });
  afterAll(() => {
    process.off('uncaughtException', onUnhandled);
    process.off('unhandledRejection', onUnhandled);
  });

  /** The database back behind the proxy: the API answers again, a whole sign-in works, nothing was left unhandled. */
  async function recovered(proxy: TcpProxy, server: TestServer, rp: RelyingParty): Promise<void> {
    proxy.restore();
    expect((await getPolicy(server)).status).toBe(200);
    const { tokens } = await signIn(server.url, rp, 'demo@example.com', 'Passw0rd!');
    expect(tokens.claims()).toMatchObject({ email: 'demo@example.com' });
    expect(unhandled).toEqual([]);
  }

  it('survives pg_terminate_backend on all its connections, during and between requests', async () => {
    // Its own schema and application_name, so only this server's connections are terminated (other
    // test files may be using the same database at the same time).
    const schema = await freshPostgresSchema(postgresUrl!);
    const applicationName = `passgate-faults-${process.pid}-${Date.now()}`;
    const url = new URL(schema.url);
    url.searchParams.set('application_name', applicationName);
    const server = await startTestServer({ databaseUrl: url.toString() });
    const pg = await import('pg');
    const admin = new pg.default.Client({ connectionString: postgresUrl });
    await admin.connect();
    const terminateAll = async () => {
      const { rows } = await admin.query<{ terminated: boolean }>('select pg_terminate_backend(pid) as terminated from pg_stat_activity where application_name = $1', [applicationName]);
      return rows.length;
    };
    try {
      expect((await getPolicy(server)).status).toBe(200);
      // Between requests: every pooled connection of this server dies while idle.
      expect(await terminateAll()).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await getPolicy(server)).status).toBe(200);

      // During requests: terminated again and again while a burst is in flight; whatever fails
      // must be an honest 503, never a crash.
      const burst = Array.from({ length: 30 }, () => getPolicy(server));
      for (let i = 0; i < 5; i++) {
        await terminateAll();
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const results = await Promise.all(burst);
      for (const result of results) expect([200, 503]).toContain(result.status);
      for (const result of results.filter((r) => r.status === 503)) expect(result).toMatchObject({ code: 1294, retryAfter: '5' });

      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await getPolicy(server)).status).toBe(200);
      expect(unhandled).toEqual([]);
    } finally {
      await admin.end();
      await server.close();
      await schema.drop();
    }
  }, 60_000);

  it('answers 503 with Retry-After while the database is cut or silent, and recovers without a restart', async () => {
    const schema = await freshPostgresSchema(postgresUrl!);
    const { proxy, viaProxy } = await throughProxy(schema.url);
    const server = await startTestServer({
      databaseUrl: viaProxy.toString(),
      env: { DATABASE_CONNECT_TIMEOUT_MS: '1000', DATABASE_STATEMENT_TIMEOUT_MS: '1500' },
      captureLogs: true,
    });
    try {
      expect((await getPolicy(server)).status).toBe(200);
      const operator = await createAdmin(server.ctx, 'faults-operator@example.com', [{ role: 'operator' }]);
      const adminToken = await adminSignIn(server.url, operator);

      proxy.cut();
      for (let i = 0; i < 3; i++) {
        const during = await getPolicy(server);
        expect(during).toMatchObject({ status: 503, code: 1294, retryAfter: '5' });
        expect(during.ms).toBeLessThan(4000);
      }
      // The same answer from the admin console's API, whose token check reads the database.
      expect(await answerOf(server, '/api/admin/v1/me', { headers: { authorization: `Bearer ${adminToken}` } })).toMatchObject({ status: 503, code: 1294, retryAfter: '5' });
      // And from a device sign-in's refusal, which reads its request before changing it.
      const deny = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ challenge: 'a-request', oauth_challenge: 'a-sign-in' }) };
      expect(await answerOf(server, '/api/v2/device-login/deny', deny)).toMatchObject({ status: 503, code: 1294, retryAfter: '5' });
      // And from the provider's token endpoint, whose first step reads the client (findProviderClient).
      const started = Date.now();
      const token = await fetch(`${server.url}/oidc/token`, {
        method: 'POST',
        signal: AbortSignal.timeout(15_000),
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('demo-app:demo-secret').toString('base64')}` },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'any' }),
      });
      expect({ status: token.status, retryAfter: token.headers.get('retry-after') }).toEqual({ status: 503, retryAfter: '5' });
      expect(Date.now() - started).toBeLessThan(4000);
      // Counted on the token graph as the outage it is, not as a refused grant.
      const metrics = await server.ctx.metrics.registry.getSingleMetricAsString('passgate_token_grants_total');
      expect(metrics).toContain('passgate_token_grants_total{grant_type="refresh_token",outcome="unavailable"} 1');
      expect(metrics).not.toContain('outcome="failure"');
      proxy.restore();
      expect((await getPolicy(server)).status).toBe(200);

      // A silent peer: connections are accepted (and established ones kept) but nothing answers.
      proxy.silence();
      for (let i = 0; i < 2; i++) {
        const during = await getPolicy(server);
        expect(during).toMatchObject({ status: 503, code: 1294, retryAfter: '5' });
        // Within the statement's read timeout (1.5 s + 1 s) or the connect timeout (1 s), plus slack.
        expect(during.ms).toBeLessThan(5000);
      }
      proxy.restore();
      expect((await getPolicy(server)).status).toBe(200);
      expect((await getPolicy(server)).status).toBe(200);
      expect(unhandled).toEqual([]);

      // Said as a warning without a stack; nothing logged as an unexpected error.
      const lines = server.logs.flatMap((chunk) => chunk.split('\n')).filter(Boolean);
      const warnings = lines.filter((line) => line.includes('a dependency (database or Redis) cannot serve'));
      expect(warnings.length).toBeGreaterThan(0);
      for (const line of warnings) expect(line).not.toContain('"stack"');
      expect(lines.filter((line) => line.includes('unhandled error'))).toEqual([]);
    } finally {
      await server.close();
      await proxy.close();
      await schema.drop();
    }
  }, 60_000);
  it('answers 503 with Retry-After, not 500, while the database refuses writes (a standby after a failover), and recovers', async () => {
    // A role of this test's own whose sessions turn read-only, as the address pointing at a hot
    // standby after a failover: reads work, every write fails with SQLSTATE 25006.
    const role = `passgate_ro_${process.pid}_${Date.now()}`;
    const pg = await import('pg');
    const admin = new pg.default.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE ROLE ${role} LOGIN SUPERUSER`);
    const schema = await freshPostgresSchema(postgresUrl!);
    const url = new URL(schema.url);
    url.username = role;
    url.password = '';
    const server = await startTestServer({ databaseUrl: url.toString(), captureLogs: true });
    const reconnectAll = () => admin.query('select pg_terminate_backend(pid) from pg_stat_activity where usename = $1', [role]);
    const register = (username: string) =>
      answerOf(server, '/api/v1/users/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'demo-app', username, password: 'Lantern-42', name: 'Lan' }),
      });
    try {
      expect((await getPolicy(server)).status).toBe(200);
      await admin.query(`ALTER ROLE ${role} SET default_transaction_read_only = on`);
      await reconnectAll();
      await new Promise((resolve) => setTimeout(resolve, 200));

      expect((await getPolicy(server)).status).toBe(200);
      expect(await register('standby@example.com')).toMatchObject({ status: 503, code: 1294, retryAfter: '5' });
      const lines = server.logs.flatMap((chunk) => chunk.split('\n')).filter(Boolean);
      expect(lines.filter((line) => line.includes('read-only transaction') && line.includes('"stack"'))).toEqual([]);

      await admin.query(`ALTER ROLE ${role} RESET default_transaction_read_only`);
      await reconnectAll();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await register('standby@example.com')).toMatchObject({ status: 200 });
      expect(unhandled).toEqual([]);
    } finally {
      await server.close();
      await schema.drop();
      await admin.query(`DROP OWNED BY ${role}`).catch(() => undefined);
      await admin.query(`DROP ROLE IF EXISTS ${role}`);
      await admin.end();
    }
  }, 60_000);
  it('lets a visitor ask again at once when the database fails after the code went out (the code sent was never stored)', async () => {
    const schema = await freshPostgresSchema(postgresUrl!);
    const { proxy, viaProxy } = await throughProxy(schema.url);
    const server = await startTestServer({ databaseUrl: viaProxy.toString(), env: { DATABASE_CONNECT_TIMEOUT_MS: '1000', DATABASE_STATEMENT_TIMEOUT_MS: '1500' } });
    const register = () =>
      answerOf(server, '/api/v1/users/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'demo-app', username: 'cut-after-send@example.com', password: 'Lantern-42', name: 'Lan' }),
      });
    const mail = server.ctx.messaging.mail;
    const send = mail.send.bind(mail);
    try {
      // The message is handed over, then the database goes before the account and its code are saved.
      mail.send = async (message) => {
        await send(message);
        proxy.cut();
      };
      expect(await register()).toMatchObject({ status: 503, code: 1294, retryAfter: '5' });
      mail.send = send;
      proxy.restore();

      // Told to try again, the visitor is not held off for a minute by the send that did not count.
      expect(await register()).toMatchObject({ status: 200 });
      const code = await lastCode(server.ctx, 'cut-after-send@example.com');
      const confirmed = await answerOf(server, '/api/v1/users/confirm', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'demo-app', username: 'cut-after-send@example.com', code }),
      });
      expect(confirmed.status).toBe(200);
      expect(unhandled).toEqual([]);
    } finally {
      mail.send = send;
      await server.close();
      await proxy.close();
      await schema.drop();
    }
  }, 60_000);
  it("answers a sign-in's resume 503 after one wait when the database goes silent, not one wait per step", async () => {
    const schema = await freshPostgresSchema(postgresUrl!);
    const { proxy, viaProxy } = await throughProxy(schema.url);
    // A read timeout of 2 s (statement 1 s + 1 s) and a connect timeout of 2 s.
    const server = await startTestServer({ databaseUrl: viaProxy.toString(), env: { DATABASE_CONNECT_TIMEOUT_MS: '2000', DATABASE_STATEMENT_TIMEOUT_MS: '1000' } });
    try {
      const rp = await relyingParty(server.url, 'demo-app', 'demo-secret');
      const browser = new TestBrowser();
      const challenge = await startSignIn(browser, server.url, await authorizationRequest(rp));
      const login = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username: 'demo@example.com', password: 'Passw0rd!', client_id: 'demo-app' });
      const { redirectTo } = (await login.json()) as { redirectTo: string };

      proxy.silence();
      const started = Date.now();
      const resumed = await browser.fetch(redirectTo, { signal: AbortSignal.timeout(15_000) });
      const ms = Date.now() - started;
      expect({ status: resumed.status, retryAfter: resumed.headers.get('retry-after') }).toEqual({ status: 503, retryAfter: '5' });
      // The client lookup waited the read timeout; the error page's lookup of the client and the
      // session saved after the answer used to wait a connect timeout each on top (6 s here).
      expect(ms).toBeLessThan(3500);

      await recovered(proxy, server, rp);
    } finally {
      await server.close();
      await proxy.close();
      await schema.drop();
    }
  }, 60_000);
  it("answers 503 once a request's statements together outlast the read timeout, when the database answers each one slowly", async () => {
    const schema = await freshPostgresSchema(postgresUrl!);
    const { proxy, viaProxy } = await throughProxy(schema.url);
    // A read timeout of 2 s (statement 1 s + 1 s): each statement below answers in about 0.6 s.
    const server = await startTestServer({ databaseUrl: viaProxy.toString(), env: { DATABASE_CONNECT_TIMEOUT_MS: '3000', DATABASE_STATEMENT_TIMEOUT_MS: '1000' }, captureLogs: true });
    try {
      const rp = await relyingParty(server.url, 'demo-app', 'demo-secret');
      const browser = new TestBrowser();
      const challenge = await startSignIn(browser, server.url, await authorizationRequest(rp));

      proxy.slow(300);
      const started = Date.now();
      const login = await browser.fetch(`${server.url}/api/v1/users/login`, {
        method: 'POST',
        signal: AbortSignal.timeout(30_000),
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ challenge, username: 'demo@example.com', password: 'Passw0rd!', client_id: 'demo-app' }),
      });
      const ms = Date.now() - started;
      // Every statement was answered within its timeout, one after the other: the sign-in took
      // their sum (over 5 s here, 40 s with the defaults and 2-3 s per packet); now it stops at 2 s.
      expect({ status: login.status, retryAfter: login.headers.get('retry-after'), code: ((await login.json()) as { error?: { code: number } }).error?.code }).toEqual({
        status: 503,
        retryAfter: '5',
        code: 1294,
      });
      expect(ms).toBeLessThan(3500);

      await recovered(proxy, server, rp);
      const lines = server.logs.flatMap((chunk) => chunk.split('\n')).filter(Boolean);
      expect(lines.filter((line) => line.includes('unhandled error'))).toEqual([]);
    } finally {
      await server.close();
      await proxy.close();
      await schema.drop();
    }
  }, 60_000);
});
