import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { TestBrowser } from '../../test/browser.ts';
import { authorizationRequest, oidc, relyingParty, signIn, startSignIn, type RelyingParty } from '../../test/relying-party.ts';
import { postJson } from '../../test/visitor.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { createMetrics } from '../lib/metrics.ts';
import { startMetricsServer, type MetricsServer } from './metrics.ts';
import { startTcpProxy } from '../../test/tcp-proxy.ts';

/** One sample of the exposition text: `name{labels} value`, with every label given matching. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

function labelValues(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => !line.startsWith('#'))
    .flatMap((line) => [...line.matchAll(/\w+="((?:[^"\\]|\\.)*)"/g)].map((m) => m[1] as string));
}

describe('Prometheus metrics on their own listener', () => {
  let server: TestServer;
  let metricsServer: MetricsServer;
  let demoApp: RelyingParty;
  let challenge: string;
  let text: string;

  const scrape = async () => {
    const response = await fetch(`${metricsServer.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  };

  beforeAll(async () => {
    server = await startTestServer({ env: { CODE_SENDS_PER_IP_PER_HOUR: '1000' } });
    const started = await startMetricsServer(server.ctx.metrics.registry, { metricsPort: 0, metricsHost: '127.0.0.1' }, server.ctx.log);
    if (!started) throw new Error('METRICS_PORT 0 must start a listener');
    metricsServer = started;
    demoApp = await relyingParty(server.url, 'demo-app', 'demo-secret');

    // One wrong password, then a whole sign-in with a refresh token, then a refresh and a bad one.
    const browser = new TestBrowser();
    challenge = await startSignIn(browser, server.url, await authorizationRequest(demoApp));
    const wrong = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username: 'demo@example.com', password: 'not-the-password', client_id: 'demo-app' });
    expect(wrong.status).toBe(401);
    const { tokens } = await signIn(server.url, demoApp, 'demo@example.com', 'Passw0rd!', new TestBrowser(), { scope: 'openid profile email offline_access' });
    await oidc.refreshTokenGrant(demoApp.config, tokens.refresh_token as string);
    await expect(oidc.refreshTokenGrant(demoApp.config, 'not-a-refresh-token')).rejects.toThrow();
    // A recovery code for the demo user goes to the dev outbox, through the mail sender.
    expect((await postJson(server.url, '/api/v1/password/recover', { client_id: 'demo-app', username: 'demo@example.com' })).status).toBe(200);

    // A path no route knows, carrying a value that must not become a label.
    expect((await fetch(`${server.url}/api/v1/no-such-path/${challenge}?username=demo@example.com`, { method: 'POST' })).status).toBe(404);

    text = await scrape();
  });
  afterAll(async () => {
    await metricsServer?.close();
    await server?.close();
  });

  it('times HTTP requests by route template, method and status, the provider grouped as /oidc/*', () => {
    expect(sample(text, 'passgate_http_request_duration_seconds_count', { route: '/api/v1/users/login', method: 'POST', status_code: '200' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'passgate_http_request_duration_seconds_count', { route: '/api/v1/users/login', method: 'POST', status_code: '401' })).toBe(1);
    expect(sample(text, 'passgate_http_request_duration_seconds_bucket', { route: '/api/v1/users/login', method: 'POST', status_code: '200', le: '+Inf' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'passgate_http_request_duration_seconds_count', { route: '/oidc/*', method: 'POST', status_code: '200' })).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'passgate_http_request_duration_seconds_count', { route: '/oidc/*', method: 'GET', status_code: '303' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'passgate_http_request_duration_seconds_count', { route: 'not_found', method: 'POST', status_code: '404' })).toBe(1);
  });

  it('counts sign-ins by method and outcome from the audit events', () => {
    expect(sample(text, 'passgate_sign_ins_total', { method: 'password', outcome: 'success' })).toBe(1);
    expect(sample(text, 'passgate_sign_ins_total', { method: 'password', outcome: 'failure' })).toBe(1);
  });

  it('times argon2 verifications and reports how many are in flight', () => {
    expect(sample(text, 'passgate_argon2_duration_seconds_count', { operation: 'verify' })).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'passgate_argon2_in_flight')).toBe(0);
  });

  it('counts token grants by type and outcome from the provider events', () => {
    expect(sample(text, 'passgate_token_grants_total', { grant_type: 'authorization_code', outcome: 'success' })).toBe(1);
    expect(sample(text, 'passgate_token_grants_total', { grant_type: 'refresh_token', outcome: 'success' })).toBe(1);
    expect(sample(text, 'passgate_token_grants_total', { grant_type: 'refresh_token', outcome: 'failure' })).toBe(1);
  });

  it('counts codes sent by channel and outcome', () => {
    expect(sample(text, 'passgate_codes_sent_total', { channel: 'email', outcome: 'sent' })).toBe(1);
  });

  it('reports the database pool, the database and Redis health, and the process', () => {
    expect(sample(text, 'passgate_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'passgate_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'passgate_db_pool_waiting_requests')).toBe(0);
    expect(sample(text, 'passgate_dependency_up', { dependency: 'database' })).toBe(1);
    if (process.env.REDIS_URL) expect(sample(text, 'passgate_dependency_up', { dependency: 'redis' })).toBe(1);
    else expect(sample(text, 'passgate_dependency_up', { dependency: 'redis' })).toBeUndefined();
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    // The sign-ins above looked clients up: on PostgreSQL they are remembered from then on.
    expect(sample(text, 'passgate_client_registrations_remembered')).toBe(process.env.DATABASE_URL?.startsWith('postgres') ? 1 : 0);
  });

  it.runIf(process.env.DATABASE_URL?.startsWith('postgres'))('reads the PostgreSQL pool itself: connections held open show in the counts', async () => {
    const held = Array.from({ length: 3 }, () => sql`select pg_sleep(0.5)`.execute(server.ctx.db));
    const during = await scrape();
    await Promise.all(held);
    // SQLite's fixed answer is 1: three connections can only come from the pool's own counts.
    expect(sample(during, 'passgate_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(3);
    expect(sample(during, 'passgate_dependency_up', { dependency: 'database' })).toBe(1);
  });

  it('keeps label values bounded: no username, challenge, query string or raw URL', () => {
    const values = labelValues(text);
    expect(values.length).toBeGreaterThan(0);
    for (const value of values) {
      expect(value).not.toContain('demo@example.com');
      expect(value).not.toContain(challenge);
      expect(value).not.toContain('?');
      expect(value).not.toContain('not-a-refresh-token');
    }
    const routes = new Set(text.split('\n').flatMap((line) => /^passgate_http_request_duration_seconds_count\{.*route="([^"]*)"/.exec(line)?.[1] ?? []));
    for (const route of routes) expect(route === 'not_found' || route === '/oidc/*' || (route.startsWith('/') && !route.startsWith('/oidc'))).toBe(true);
    // The provider's paths carry the interaction id (/oidc/auth/<uid>): they must all be one group.
    expect([...routes].filter((route) => route.includes(challenge))).toEqual([]);
  });

  it('serves only GET /metrics on its listener, and the main port does not serve the series', async () => {
    expect((await fetch(`${metricsServer.url}/`)).status).toBe(404);
    expect((await fetch(`${metricsServer.url}/metrics`, { method: 'POST' })).status).toBe(404);
    const main = await fetch(`${server.url}/metrics`);
    expect(await main.text()).not.toContain('passgate_http_request_duration_seconds');
  });

  it('counts a request to the main port in the next scrape', async () => {
    const before = sample(await scrape(), 'passgate_http_request_duration_seconds_count', { route: '/api/v1/password/recover', method: 'POST', status_code: '200' }) ?? 0;
    expect((await postJson(server.url, '/api/v1/password/recover', { client_id: 'demo-app', username: 'nobody@example.com' })).status).toBe(200);
    expect(sample(await scrape(), 'passgate_http_request_duration_seconds_count', { route: '/api/v1/password/recover', method: 'POST', status_code: '200' })).toBe(before + 1);
  });
});

describe('metrics configuration', () => {
  it('has no metrics listener without METRICS_PORT, and listens on loopback by default', async () => {
    const config = loadConfig({ NODE_ENV: 'test' });
    expect(config.metricsPort).toBeUndefined();
    expect(config.metricsHost).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'test', METRICS_PORT: '' }).metricsPort).toBeUndefined();
    expect(await startMetricsServer(createMetrics({ db: undefined as never, redis: undefined }).registry, config, { info: () => undefined, warn: () => undefined })).toBeUndefined();
  });

  it('reads METRICS_PORT and METRICS_HOST, and refuses bad values naming the variable', () => {
    expect(loadConfig({ NODE_ENV: 'test', METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' })).toMatchObject({ metricsPort: 9464, metricsHost: '0.0.0.0' });
    expect(() => loadConfig({ NODE_ENV: 'test', METRICS_PORT: 'ninety' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ NODE_ENV: 'test', METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ NODE_ENV: 'test', METRICS_PORT: '3000', PORT: '3000' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'test', METRICS_PORT: '3000', PORT: '3000' })).toThrow(/METRICS_PORT: must differ from PORT/);
  });

  it('gives each context a registry of its own, so two in one process do not clash', () => {
    const first = createMetrics({ db: undefined as never, redis: undefined });
    const second = createMetrics({ db: undefined as never, redis: undefined });
    first.signIns.inc({ method: 'password', outcome: 'success' });
    expect(first.registry).not.toBe(second.registry);
    expect(second.registry.getSingleMetric('passgate_sign_ins_total')).toBeDefined();
  });
});

describe.runIf(process.env.REDIS_URL)('passgate_dependency_up while Redis hangs', () => {
  it('says redis 0 while Redis keeps the connection and never answers, and 1 once it answers again, within a scrape of about a second', async () => {
    const target = new URL(process.env.REDIS_URL!);
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 6379));
    const server = await startTestServer({
      seed: false,
      env: { REDIS_URL: `redis://127.0.0.1:${proxy.port}${target.pathname}`, REDIS_COMMAND_TIMEOUT_MS: '3000' },
    });
    const metricsServer = (await startMetricsServer(server.ctx.metrics.registry, { metricsPort: 0, metricsHost: '127.0.0.1' }, server.ctx.log))!;
    const redisUp = async () => {
      const started = Date.now();
      const text = await (await fetch(`${metricsServer.url}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
      return { up: sample(text, 'passgate_dependency_up', { dependency: 'redis' }), ms: Date.now() - started };
    };
    try {
      expect((await redisUp()).up).toBe(1);
      // The connection stays open (the client still calls itself ready), nothing comes back: the
      // outage every request meets as a 503 and the readiness probe as 'timeout'.
      proxy.silence();
      expect(server.ctx.redis!.status).toBe('ready');
      const during = await redisUp();
      expect(during.up).toBe(0);
      expect(during.ms).toBeLessThan(2500);
      proxy.restore();
      const until = Date.now() + 10_000;
      while ((await redisUp()).up !== 1 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await redisUp()).up).toBe(1);
    } finally {
      await metricsServer.close();
      await server.close();
      await proxy.close();
    }
  }, 30_000);
});
