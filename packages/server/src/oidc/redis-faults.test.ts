import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { TestBrowser } from '../../test/browser.ts';
import { authorizationRequest, oidc, relyingParty, signIn, startSignIn, type RelyingParty } from '../../test/relying-party.ts';
import { accountSignIn, call } from '../../test/account.ts';
import { createClient } from '../../test/visitor.ts';
import { generateKeyPair } from 'jose';
import { boundAccountToken, proof } from '../../test/dpop.ts';
import { maskRedisUrl, reconnectDelay } from '../lib/redis.ts';
import { loadConfig } from '../config.ts';
import { createAppContext } from '../context.ts';
import { storedInRedis } from './adapter.ts';
import { consume } from '../plugins/rate-limits.ts';

/**
 * Redis is a cache and a counter store, never the only copy (DESIGN.md sections 4 and 11): a flush
 * signs nobody out, an outage or a silent Redis costs a fast 503, never a hang or a crash, and no
 * key lives for ever. Run on PostgreSQL and Redis (npm run test:postgres); skipped without REDIS_URL.
 */

const REDIS_URL = process.env.REDIS_URL;
const COMMAND_TIMEOUT_MS = 500;
/** The longest a request may take while Redis is away: the command timeout plus generous slack. */
const FAIL_FAST_MS = 3000;

describe('the Redis client, without Redis', () => {
  it('masks the password (or a lone token) of REDIS_URL in log lines', () => {
    expect(maskRedisUrl('redis://:s3cret@cache:6379/0')).not.toContain('s3cret');
    expect(maskRedisUrl('rediss://user:s3cret@cache:6380/1')).toBe('rediss://user:***@cache:6380/1');
    expect(maskRedisUrl('redis://tok3n@cache:6379')).not.toContain('tok3n');
    expect(maskRedisUrl('redis://cache:6379/0')).toBe('redis://cache:6379/0');
    // ioredis also takes the password as a query parameter.
    expect(maskRedisUrl('redis://cache:6379/0?password=s3cret')).toBe('redis://cache:6379/0?password=***');
  });

  it('reconnects with a backoff that grows and stays capped', () => {
    expect(reconnectDelay(1)).toBeLessThan(reconnectDelay(3));
    expect(reconnectDelay(1000)).toBeLessThanOrEqual(3000);
  });

  it('refuses to start, naming REDIS_URL with its password masked, when Redis cannot be reached within STARTUP_TIMEOUT_MS', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const dir = mkdtempSync(join(tmpdir(), 'passgate-redis-'));
    try {
      const config = loadConfig({
        NODE_ENV: 'test',
        DATABASE_URL: `sqlite:${join(dir, 'test.sqlite')}`,
        REDIS_URL: `redis://:s3cret@127.0.0.1:${port}/0`,
        STARTUP_TIMEOUT_MS: '700',
        REDIS_CONNECT_TIMEOUT_MS: '200',
        // Shorter than the start-up wait: its last pings are refused at once, as in an outage.
        REDIS_COMMAND_TIMEOUT_MS: '100',
        LOG_LEVEL: 'silent',
      });
      const started = Date.now();
      const failure = await createAppContext(config).then(() => undefined, (error: unknown) => error as Error);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(failure?.message).toMatch(/REDIS_URL=redis:\/\/:\*\*\*@127\.0\.0\.1/);
      // Why, whichever way the last ping failed: the connection's own error.
      expect(failure?.message).toContain('ECONNREFUSED');
      expect(failure?.message).not.toContain('s3cret');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.runIf(REDIS_URL)('refuses to start, naming REDIS_URL, when it names a database Redis does not have (instead of working in database 0)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'passgate-redis-'));
    try {
      const url = new URL(REDIS_URL!);
      url.pathname = '/99999';
      const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: `sqlite:${join(dir, 'test.sqlite')}`, REDIS_URL: url.toString(), STARTUP_TIMEOUT_MS: '3000', LOG_LEVEL: 'silent' });
      const started = Date.now();
      const failure = await createAppContext(config).then(
        async (ctx) => {
          await ctx.close();
          return undefined;
        },
        (error: unknown) => error as Error,
      );
      expect(failure?.message).toMatch(/^REDIS_URL=redis:\/\/.*\/99999 names database 99999, which Redis refuses: ERR /);
      // Refused at once: a setting to correct, not an outage to wait out.
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps sessions, grants and refresh tokens out of Redis, and unknown models too', () => {
    for (const model of ['Session', 'Grant', 'RefreshToken', 'SomeFutureModel']) expect(storedInRedis(model)).toBe(false);
    for (const model of ['Interaction', 'AuthorizationCode', 'AccessToken']) expect(storedInRedis(model)).toBe(true);
  });
});

/**
 * A TCP proxy in front of Redis that can be cut (nothing listens: connection refused), made
 * silent (accepts, never answers) and restored on the same port.
 */
class RedisProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  mode: 'forward' | 'silent' = 'forward';
  port = 0;

  constructor(private readonly target: URL) {}

  async start(): Promise<void> {
    this.server = createServer((client) => {
      this.sockets.add(client);
      client.on('close', () => this.sockets.delete(client));
      client.on('error', () => undefined);
      if (this.mode === 'silent') return;
      const upstream = connect(Number(this.target.port || 6379), this.target.hostname);
      this.sockets.add(upstream);
      upstream.on('close', () => {
        this.sockets.delete(upstream);
        client.destroy();
      });
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.port, '127.0.0.1', () => resolve());
    });
    const address = this.server.address();
    if (typeof address === 'object' && address) this.port = address.port;
  }

  private dropConnections() {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  /** Redis down: open connections reset, new ones refused. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.dropConnections();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Redis hung or behind a black hole: connections accepted, nothing ever answered. */
  silence(): void {
    this.mode = 'silent';
    this.dropConnections();
  }

  async restore(): Promise<void> {
    this.mode = 'forward';
    this.dropConnections();
    if (!this.server) await this.start();
  }

  async stop(): Promise<void> {
    await this.cut();
  }
}

describe.skipIf(!REDIS_URL)('Passgate with Redis that is flushed, cut or silent', () => {
  let server: TestServer;
  let proxy: RedisProxy;
  let demoApp: RelyingParty;
  const stderr: string[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (error: unknown) => unhandled.push(error);

  beforeAll(async () => {
    proxy = new RedisProxy(new URL(REDIS_URL!));
    await proxy.start();
    server = await startTestServer({
      captureLogs: true,
      env: {
        REDIS_URL: `redis://127.0.0.1:${proxy.port}/${new URL(REDIS_URL!).pathname.slice(1) || '0'}`,
        REDIS_CONNECT_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS),
        REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS),
      },
    });
    demoApp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    // ioredis prints unhandled 'error' events with console.error; none may appear.
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void stderr.push(args.map(String).join(' ')));
    process.on('unhandledRejection', onUnhandled);
    process.on('uncaughtException', onUnhandled);
  });

  afterEach(async () => {
    await proxy.restore();
    await redisReady();
  });

  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    process.off('uncaughtException', onUnhandled);
    vi.restoreAllMocks();
    await server?.close();
    await proxy?.stop();
  });

  async function redisReady(): Promise<void> {
    const until = Date.now() + 10_000;
    while (server.ctx.redis!.status !== 'ready' || !(await server.ctx.redis!.ping().then(() => true, () => false))) {
      if (Date.now() > until) throw new Error(`Redis not ready again: ${server.ctx.redis!.status}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Every key of this server, without the prefix (which the client adds again). */
  async function serverKeys(): Promise<string[]> {
    const prefix = server.ctx.config.redisKeyPrefix;
    return (await server.ctx.redis!.keys(`${prefix}*`)).map((key) => key.slice(prefix.length));
  }

  async function flushServerKeys(): Promise<void> {
    const keys = await serverKeys();
    if (keys.length > 0) await server.ctx.redis!.del(...keys);
  }

  /** Whether the provider session in `browser` skips the login screen for a new request of demo-app. */
  async function sessionSignsIn(browser: TestBrowser): Promise<boolean> {
    const auth = await authorizationRequest(demoApp);
    const { url } = await browser.follow(auth.url, server.url);
    const landing = new URL(url);
    if (landing.pathname !== '/login') return true;
    const request = await browser.fetch(`${server.url}/api/v1/requests/login/${landing.searchParams.get('challenge')}`);
    expect(request.status).toBe(200);
    return ((await request.json()) as { skip: boolean }).skip;
  }

  /** Answers `request`'s response and how long it took. */
  async function timed<T>(request: () => Promise<T>): Promise<{ answer: T; ms: number }> {
    const started = Date.now();
    const answer = await request();
    return { answer, ms: Date.now() - started };
  }

  it('signs nobody out when Redis is flushed: the refresh token refreshes and the session skips the login screen', async () => {
    const browser = new TestBrowser();
    const account = await accountSignIn(server.url, 'demo@example.com', 'Passw0rd!', browser);
    const { tokens } = await signIn(server.url, demoApp, 'demo@example.com', 'Passw0rd!', browser, { scope: 'openid profile email offline_access' });
    expect(await call(server.url, 'GET', '/api/v1/me', { token: account.token })).toMatchObject({ status: 200 });

    await flushServerKeys();
    expect(await serverKeys()).toEqual([]);

    // Durable: in the database.
    const refreshed = await oidc.refreshTokenGrant(demoApp.config, tokens.refresh_token!);
    expect(refreshed.access_token).toEqual(expect.any(String));
    const userinfo = await oidc.fetchUserInfo(demoApp.config, refreshed.access_token, tokens.claims()!.sub);
    expect(userinfo).toMatchObject({ email: 'demo@example.com' });
    expect(await sessionSignsIn(browser)).toBe(true);
    // Short-lived and in Redis: an access token issued before the flush is gone (documented in the
    // README); a relying party refreshes, the account area signs in again through the live session.
    expect(await call(server.url, 'GET', '/api/v1/me', { token: account.token })).toMatchObject({ status: 401 });
    const fresh = (await accountSignIn(server.url, 'demo@example.com')).token;
    expect(await call(server.url, 'GET', '/api/v1/me', { token: fresh })).toMatchObject({ status: 200, body: { email: 'demo@example.com' } });
  });

  it('answers 503 with Retry-After fast while Redis is cut, survives, and works again once it is back', async () => {
    const browser = new TestBrowser();
    const challenge = await startSignIn(browser, server.url, await authorizationRequest(demoApp));
    await proxy.cut();

    const login = await timed(() => browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username: 'demo@example.com', password: 'Passw0rd!' }));
    expect(login.ms).toBeLessThan(FAIL_FAST_MS);
    expect(login.answer.status).toBe(503);
    expect(login.answer.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await login.answer.json()).toMatchObject({ error: { code: 1294 } });

    await proxy.restore();
    await redisReady();
    const { tokens } = await signIn(server.url, demoApp, 'demo@example.com', 'Passw0rd!');
    expect(tokens.claims()).toMatchObject({ email: 'demo@example.com' });

    expect(unhandled).toEqual([]);
    expect(stderr.filter((line) => /ioredis|Unhandled error/i.test(line))).toEqual([]);
    // One warning for the outage, with REDIS_URL named and no stack per failed reconnect.
    const warnings = server.logs.filter((line) => line.includes('Redis (REDIS_URL) unreachable'));
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    expect(warnings.length).toBeLessThanOrEqual(2);
    expect(server.logs.some((line) => line.includes('Redis (REDIS_URL) reachable again'))).toBe(true);
  });

  it("loses Redis just as a DPoP proof's use is recorded: 503 with Retry-After fast, and a fresh proof works once Redis is back", async () => {
    const key = await generateKeyPair('ES256');
    const token = await boundAccountToken(server.url, 'demo@example.com', key);
    const url = `${server.url}/api/v1/me`;
    const me = async () => fetch(url, { headers: { authorization: `DPoP ${token}`, dpop: await proof(key, 'GET', url, token) } });
    expect((await me()).status).toBe(200);

    // The token is read from Redis first; Redis goes away just before the proof's jti is stored.
    const redis = server.ctx.redis!;
    const set = redis.set.bind(redis);
    let fired = false;
    redis.set = (async (...args: Parameters<typeof redis.set>) => {
      if (!fired && String(args[0]).includes('DPoPProof')) {
        fired = true;
        await proxy.cut();
      }
      return (set as (...a: unknown[]) => Promise<unknown>)(...args);
    }) as typeof redis.set;
    try {
      const refused = await timed(me);
      expect(fired).toBe(true);
      expect(refused.ms).toBeLessThan(FAIL_FAST_MS);
      expect(refused.answer.status).toBe(503);
      expect(refused.answer.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await refused.answer.json()).toMatchObject({ error: { code: 1294 } });
    } finally {
      redis.set = set;
      await proxy.restore();
      await redisReady();
    }
    expect((await me()).status).toBe(200);
    expect(unhandled).toEqual([]);
  });

  /** A fresh authorization code of demo-app for the demo user, and its exchange at the token endpoint. */
  async function codeExchange(): Promise<() => Promise<Response>> {
    const browser = new TestBrowser();
    const auth = await authorizationRequest(demoApp);
    const challenge = await startSignIn(browser, server.url, auth);
    const login = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username: 'demo@example.com', password: 'Passw0rd!', client_id: demoApp.clientId });
    const callback = new URL((await browser.follow(((await login.json()) as { redirectTo: string }).redirectTo, server.url)).url);
    return () =>
      fetch(`${server.url}/oidc/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('demo-app:demo-secret').toString('base64')}` },
        body: new URLSearchParams({ grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: demoApp.redirectUri, code_verifier: auth.verifier }),
      });
  }

  /** Cuts Redis the first time the provider calls `method` of `model`'s storage, just before the call runs. */
  function cutRedisBefore(model: 'AuthorizationCode' | 'AccessToken', method: 'consume' | 'upsert'): () => void {
    const adapter = (server.ctx.provider as unknown as Record<string, { adapter: Record<string, (...args: unknown[]) => Promise<unknown>> }>)[model]!.adapter;
    const original = adapter[method]!;
    let fired = false;
    adapter[method] = async (...args: unknown[]) => {
      if (!fired) {
        fired = true;
        await proxy.cut();
      }
      return original.apply(adapter, args);
    };
    return () => {
      adapter[method] = original;
    };
  }

  /** `exchange` with Redis cut just before `model`'s `method` runs: refused fast with 503; Redis is back once it returns. */
  async function exchangeLosingRedisBefore(exchange: () => Promise<Response>, model: 'AuthorizationCode' | 'AccessToken', method: 'consume' | 'upsert'): Promise<Response> {
    const uncut = cutRedisBefore(model, method);
    try {
      const refused = await timed(exchange);
      expect(refused.ms).toBeLessThan(FAIL_FAST_MS);
      expect(refused.answer.status).toBe(503);
      return refused.answer;
    } finally {
      uncut();
      await proxy.restore();
      await redisReady();
    }
  }

  it('answers a code exchange 503 with Retry-After fast while Redis is cut, and the code, left unused, works once it is back', async () => {
    const exchange = await codeExchange();
    await proxy.cut();

    const refused = await timed(exchange);
    expect(refused.ms).toBeLessThan(FAIL_FAST_MS);
    expect(refused.answer.status).toBe(503);
    expect(refused.answer.headers.get('retry-after')).toMatch(/^\d+$/);
    // The relying party's library shows error_description: it says to retry, not 'oops'.
    expect(await refused.answer.json()).toEqual({ error: 'server_error', error_description: 'the service is temporarily unavailable; try again shortly' });

    await proxy.restore();
    await redisReady();
    const exchanged = await exchange();
    expect(exchanged.status).toBe(200);
    expect(await exchanged.json()).toMatchObject({ access_token: expect.any(String), id_token: expect.any(String) });
    expect((await exchange()).status).toBe(400);
    expect(unhandled).toEqual([]);
  });

  it('loses Redis between reading a code and marking it used: 503 fast, and the code, never marked, works once when Redis is back', async () => {
    const exchange = await codeExchange();
    const refused = await exchangeLosingRedisBefore(exchange, 'AuthorizationCode', 'consume');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await exchange()).status).toBe(200);
    expect((await exchange()).status).toBe(400);
    expect(unhandled).toEqual([]);
  });

  it('loses Redis after the code is marked used, before its tokens are stored: 503 fast, and the code is spent (no tokens from it, ever)', async () => {
    const exchange = await codeExchange();
    await exchangeLosingRedisBefore(exchange, 'AccessToken', 'upsert');
    // A code works once: the retry is refused as a reuse, and the relying party starts a new sign-in.
    const retried = await exchange();
    expect(retried.status).toBe(400);
    expect(((await retried.json()) as { error: string }).error).toBe('invalid_grant');
    expect(unhandled).toEqual([]);
  });

  it("loses Redis after a rotating refresh token is marked used, before the new access token is stored: 503 fast, and the same refresh token works once when Redis is back", async () => {
    // A public client's refresh token rotates at every use: the provider marks it used and saves its
    // successor in the database before it stores the access token in Redis. The client never got
    // the successor, so it retries with the token it holds; refused as a reuse, the grant would be
    // revoked and the person signed out of the application by a Redis blip.
    await createClient(server.ctx, server.url, { id: 'rotating-app', tenantId: 'demo' });
    const rp = await relyingParty(server.url, 'rotating-app');
    const { tokens } = await signIn(server.url, rp, 'demo@example.com', 'Passw0rd!', new TestBrowser(), { scope: 'openid offline_access' });
    const refreshToken = tokens.refresh_token!;
    const refresh = () =>
      fetch(`${server.url}/oidc/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'rotating-app' }),
      });
    const refused = await exchangeLosingRedisBefore(refresh, 'AccessToken', 'upsert');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);

    const retried = await refresh();
    expect(retried.status).toBe(200);
    const fresh = (await retried.json()) as { access_token: string; refresh_token: string };
    expect(fresh.refresh_token).not.toBe(refreshToken);
    const userinfo = await fetch(`${server.url}/oidc/me`, { headers: { authorization: `Bearer ${fresh.access_token}` } });
    expect(userinfo.status).toBe(200);
    // It rotated once: the token the client held is spent now, its successor goes on.
    const again = await fetch(`${server.url}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: fresh.refresh_token, client_id: 'rotating-app' }),
    });
    expect(again.status).toBe(200);
    expect(unhandled).toEqual([]);
  });

  it('answers 503 within the timeout when Redis accepts connections and never answers, and recovers', async () => {
    const browser = new TestBrowser();
    const challenge = await startSignIn(browser, server.url, await authorizationRequest(demoApp));
    proxy.silence();

    const login = await timed(() => browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username: 'demo@example.com', password: 'Passw0rd!' }));
    expect(login.ms).toBeLessThan(FAIL_FAST_MS);
    expect(login.answer.status).toBe(503);
    expect(await login.answer.json()).toMatchObject({ error: { code: 1294 } });

    await proxy.restore();
    await redisReady();
    const { tokens } = await signIn(server.url, demoApp, 'demo@example.com', 'Passw0rd!');
    expect(tokens.claims()).toMatchObject({ email: 'demo@example.com' });
    expect(unhandled).toEqual([]);
    expect(stderr.filter((line) => /ioredis|Unhandled error/i.test(line))).toEqual([]);
  });

  it('answers 503 with Retry-After fast when an authorization request cannot be started (Redis cut, then silent)', async () => {
    for (const fault of [() => proxy.cut(), () => proxy.silence()]) {
      await fault();
      const start = await timed(async () => new TestBrowser().fetch((await authorizationRequest(demoApp)).url));
      expect(start.ms).toBeLessThan(FAIL_FAST_MS);
      expect(start.answer.status).toBe(503);
      expect(start.answer.headers.get('retry-after')).toMatch(/^\d+$/);
      await proxy.restore();
      await redisReady();
      const { url } = await new TestBrowser().follow((await authorizationRequest(demoApp)).url, server.url);
      expect(new URL(url).pathname).toBe('/login');
    }
    expect(unhandled).toEqual([]);
  });

  it('once the outage has outlasted a command timeout, answers a request that needs Redis at once, and uses Redis again when it is back', async () => {
    const warnedBefore = server.logs.filter((line) => line.includes('Redis (REDIS_URL) unreachable')).length;
    await proxy.cut();
    // Within the command timeout a command waits in the offline queue, as it would through a restart.
    const first = await timed(async () => new TestBrowser().fetch((await authorizationRequest(demoApp)).url));
    expect(first.answer.status).toBe(503);
    // The outage counts from the client's first failed reconnect, which the log says.
    const until = Date.now() + 5_000;
    while (server.logs.filter((line) => line.includes('Redis (REDIS_URL) unreachable')).length === warnedBefore && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, COMMAND_TIMEOUT_MS + 100));

    // Past it, the command is refused before it is queued: a 503 with Retry-After, without the wait.
    const later = await timed(async () => new TestBrowser().fetch((await authorizationRequest(demoApp)).url));
    expect(later.answer.status).toBe(503);
    expect(later.answer.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(later.ms).toBeLessThan(COMMAND_TIMEOUT_MS / 2);
    expect(server.logs.some((line) => line.includes('the command was not sent'))).toBe(true);

    await proxy.restore();
    await redisReady();
    const { tokens } = await signIn(server.url, demoApp, 'demo@example.com', 'Passw0rd!');
    expect(tokens.claims()).toMatchObject({ email: 'demo@example.com' });
    expect(unhandled).toEqual([]);
  });

  it('keeps the rate limits while Redis is away: counted in memory, neither opened nor failing', async () => {
    await proxy.cut();
    const { loginPerIp } = server.ctx.rateLimits;
    const key = `outage-${Date.now()}`;
    const started = Date.now();
    for (let i = 0; i < loginPerIp.points; i += 1) await consume(loginPerIp, key);
    await expect(consume(loginPerIp, key)).rejects.toMatchObject({ status: 429 });
    expect(Date.now() - started).toBeLessThan(FAIL_FAST_MS);
  });

  it('gives every key it creates an expiry: after many sign-ins, refreshes and a sign-in failure, no key lives for ever', async () => {
    for (let i = 0; i < 5; i += 1) {
      const { tokens } = await signIn(server.url, demoApp, 'demo@example.com', 'Passw0rd!', new TestBrowser(), { scope: 'openid profile email offline_access' });
      await oidc.refreshTokenGrant(demoApp.config, tokens.refresh_token!);
    }
    const browser = new TestBrowser();
    const challenge = await startSignIn(browser, server.url, await authorizationRequest(demoApp));
    await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username: 'demo@example.com', password: 'wrong-password' });

    const keys = await serverKeys();
    expect(keys.length).toBeGreaterThan(0);
    const forever = [];
    for (const key of keys) if ((await server.ctx.redis!.ttl(key)) <= 0) forever.push(key);
    expect(forever).toEqual([]);
    // Nothing durable in Redis.
    expect(keys.filter((key) => /^oidc:(Session|Grant|RefreshToken):/.test(key))).toEqual([]);
    // The indexes live no longer than their longest member (an access token at most).
    const longest = server.ctx.config.ttl.accessToken;
    for (const key of keys.filter((k) => /^oidc:(grant-index|account):/.test(k))) expect(await server.ctx.redis!.ttl(key)).toBeLessThanOrEqual(longest);
  });
});
