import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import nodeModule from 'node:module';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../test/browser.ts';
import { authorizationRequest, relyingParty, startSignIn } from '../test/relying-party.ts';
import { startTcpProxy } from '../test/tcp-proxy.ts';
import { freePort } from '../test/test-server.ts';

const root = resolve(import.meta.dirname, '../../..');
// A build of its own under dist: the test must not race a `npm run build:server` in the same tree,
// and inside packages/server the bundle finds the web build as dist/main.js does.
const outdir = join(root, 'packages/server/dist', `test-${process.pid}`);
const dataDir = mkdtempSync(join(tmpdir(), 'passgate-production-'));
// Where the entry keeps compiled code unless NODE_COMPILE_CACHE says otherwise: a folder of this
// user's own under the temporary directory, not Node's default shared one.
const processTmp = join(dataDir, 'tmp');
const compileCacheDir = join(processTmp, `passgate-compile-cache-${process.getuid?.() ?? ''}`);
const sharedCompileCacheDir = join(processTmp, 'node-compile-cache');
mkdirSync(processTmp);
/** Node 22.1 and later keep compiled code on disk when asked (module.enableCompileCache). */
const nodeHasCompileCache = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function';


/** Whether a new TCP connection to the port is accepted. */
function accepts(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

async function until(what: string, check: () => Promise<boolean> | boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The status and body of the one HTTP/1.1 response that arrives on `socket`. */
function readResponse(socket: Socket): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((done, fail) => {
    let raw = Buffer.alloc(0);
    const parse = () => {
      const end = raw.indexOf('\r\n\r\n');
      if (end < 0) return;
      const headers = raw.subarray(0, end).toString();
      const length = Number(/^content-length:\s*(\d+)/im.exec(headers)?.[1] ?? NaN);
      const body = raw.subarray(end + 4);
      if (Number.isNaN(length) || body.length < length) return;
      done({ status: Number(headers.split(' ')[1]), headers, body: body.subarray(0, length).toString() });
    };
    socket.on('data', (chunk: Buffer) => {
      raw = Buffer.concat([raw, chunk]);
      parse();
    });
    socket.once('error', fail);
    socket.once('close', () => fail(new Error(`connection closed before a whole response: ${raw.toString()}`)));
  });
}

/** The `count` HTTP/1.1 responses that arrive on `socket`, in order, and whether it then closed. */
function readResponses(socket: Socket, count: number): Promise<{ responses: { status: number; headers: string; body: string }[]; closed: Promise<void> }> {
  const closed = new Promise<void>((done) => socket.once('close', () => done()));
  return new Promise((done, fail) => {
    let raw = Buffer.alloc(0);
    const responses: { status: number; headers: string; body: string }[] = [];
    socket.on('data', (chunk: Buffer) => {
      raw = Buffer.concat([raw, chunk]);
      for (;;) {
        const end = raw.indexOf('\r\n\r\n');
        if (end < 0) return;
        const headers = raw.subarray(0, end).toString();
        const length = Number(/^content-length:\s*(\d+)/im.exec(headers)?.[1] ?? NaN);
        if (Number.isNaN(length) || raw.length < end + 4 + length) return;
        responses.push({ status: Number(headers.split(' ')[1]), headers, body: raw.subarray(end + 4, end + 4 + length).toString() });
        raw = raw.subarray(end + 4 + length);
        if (responses.length === count) return done({ responses, closed });
      }
    });
    socket.once('error', fail);
    socket.once('close', () => fail(new Error(`connection closed after ${responses.length} of ${count} responses: ${raw.toString()}`)));
  });
}

describe('the production process (node packages/server/dist/main.js)', () => {
  let child: ChildProcess | undefined;
  let output = '';

  beforeAll(() => {
    const build = spawnSync(process.execPath, [join(root, 'scripts/build-server.mjs'), `--outdir=${outdir}`], { cwd: root, encoding: 'utf8' });
    expect(build.status, build.stderr).toBe(0);
  });

  afterAll(() => {
    child?.kill('SIGKILL');
    rmSync(outdir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is what npm start runs', () => {
    const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    // Plain node, with the heap settings the README gives operators (a small young generation, and
    // an old generation at most 256 MiB, which V8 grows as for a small device).
    expect(scripts['start:server']).toBe('node --max-semi-space-size=4 --max-old-space-size=256 packages/server/dist/main.js');
    expect(scripts.start).toMatch(/npm run build\b.*&& npm run start:server$/);
    expect(scripts['build:server']).toBe('node scripts/build-server.mjs');
  });

  /** Starts the built server with the demo data (and `env` on top) and answers once it is ready. */
  async function startBuilt(env: Record<string, string> = {}) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    output = '';
    child = spawn(process.execPath, [join(outdir, 'main.js')], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: tmpdir(),
        NODE_ENV: 'test',
        PORT: String(port),
        PUBLIC_URL: url,
        DATABASE_URL: `sqlite:${join(dataDir, `production-${port}.sqlite`)}`,
        SEED_DEMO: 'true',
        LOG_LEVEL: 'info',
        TMPDIR: processTmp,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const running = child;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => running.once('exit', (code, signal) => done({ code, signal })));

    await until(
      'readiness',
      () =>
        fetch(`${url}/health/ready`).then(
          (r) => r.ok,
          () => false,
        ),
      20_000,
    ).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}; the process said:\n${output}`);
    });
    return { port, url, child: running, exited };
  }

  // Under `npm run test:postgres` (REDIS_URL set): the bundle must load the Redis driver it runs
  // with in production, which tests from source never exercise.
  it.runIf(process.env.REDIS_URL)('runs on Redis: ready, and a sign-in goes through with its limits kept there', async () => {
    const prefix = `passgate-test:built-${process.pid}:`;
    const { url, child: running, exited } = await startBuilt({ REDIS_URL: process.env.REDIS_URL!, REDIS_KEY_PREFIX: prefix });
    try {
      expect(await (await fetch(`${url}/health/ready`)).json()).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok' } });
      const browser = new TestBrowser();
      const challenge = await startSignIn(browser, url, await authorizationRequest(await relyingParty(url, 'demo-app', 'demo-secret')));
      const login = await browser.postJson(`${url}/api/v1/users/login`, { challenge, username: 'demo@example.com', password: 'Passw0rd!', client_id: 'demo-app' });
      expect(login.status, output).toBe(200);
      expect(output).not.toMatch(/is not a constructor|Cannot find module/);
    } finally {
      running.kill('SIGTERM');
      await exited;
    }
  }, 60_000);

  // The stop's deadline once ignored the mail and SMS providers' 10 s: with a statement timeout below
  // 9 s it was 10 s, and a code sent while Redis and the SMTP server were silent (2 s, then 10 s)
  // had its connection cut and the process exited 1.
  it.runIf(process.env.REDIS_URL)('on SIGTERM, answers a code request held by a silent Redis and a silent SMTP server (503), then exits 0', async () => {
    const redisUrl = new URL(process.env.REDIS_URL!);
    const redis = await startTcpProxy(redisUrl.hostname, Number(redisUrl.port || 6379));
    // An SMTP server that accepts and never greets.
    const held: Socket[] = [];
    const smtp = createServer((socket) => held.push(socket.on('error', () => undefined)));
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    const smtpPort = (smtp.address() as { port: number }).port;
    try {
      const { url, child: running, exited } = await startBuilt({
        REDIS_URL: `redis://127.0.0.1:${redis.port}${redisUrl.pathname}`,
        REDIS_KEY_PREFIX: `passgate-test:stop-${process.pid}:`,
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        DATABASE_STATEMENT_TIMEOUT_MS: '3000',
      });
      redis.silence();
      const started = Date.now();
      const answer = fetch(`${url}/api/v1/password/recover`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'demo@example.com', client_id: 'demo-app' }),
      });
      await new Promise((r) => setTimeout(r, 200));
      running.kill('SIGTERM');

      const response = await answer.catch((error: unknown) => {
        throw new Error(`${String(error)} after ${Date.now() - started} ms; the process said:\n${output}`);
      });
      expect(response.status, output).toBe(503);
      expect(response.headers.get('retry-after')).toBeTruthy();
      expect(((await response.json()) as { error: { code: number } }).error.code).toBe(1292);
      expect(Date.now() - started).toBeGreaterThan(10_000);
      expect(await exited, output).toEqual({ code: 0, signal: null });
      expect(output).not.toContain('exiting anyway');
    } finally {
      for (const socket of held) socket.destroy();
      smtp.close();
      await redis.close();
    }
  }, 60_000);

  // Fastify's default answered such a request with its own bare 503 (no Retry-After, not
  // Passgate's error body): what a proxy's keep-alive connection carried during a rolling restart.
  it('on SIGTERM serves a request that comes on a connection already open, with Connection: close, then exits 0', async () => {
    const { port, url, child, exited } = await startBuilt();
    const browser = new TestBrowser();
    const challenge = await startSignIn(browser, url, await authorizationRequest(await relyingParty(url, 'demo-app', 'demo-secret')));
    const body = JSON.stringify({ challenge, username: 'demo@example.com', password: 'Passw0rd!', client_id: 'demo-app' });
    const socket = connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    const answers = readResponses(socket, 2);
    // The sign-in is in flight when the signal comes; the next request follows it on the same connection.
    socket.write(
      `POST /api/v1/users/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
        `Cookie: ${browser.cookieHeader()}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    await new Promise((r) => setTimeout(r, 200));
    child.kill('SIGTERM');
    await until('the listener to close', async () => !(await accepts(port)), 5_000);
    socket.write(`${body}GET /api/v1/tenants/demo/password-policy HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);

    const { responses, closed } = await answers;
    expect(responses.map((r) => r.status), responses.map((r) => r.body).join('\n')).toEqual([200, 200]);
    expect(responses[1]!.headers).toMatch(/^connection: close$/im);
    expect(responses[1]!.headers).toMatch(/^x-request-id: /im);
    await closed;
    expect(await exited, output).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('on SIGTERM refuses new connections, finishes the sign-in in flight, then exits 0', async () => {
    const { port, url, child, exited } = await startBuilt();

    const browser = new TestBrowser();
    const rp = await relyingParty(url, 'demo-app', 'demo-secret');
    const challenge = await startSignIn(browser, url, await authorizationRequest(rp));

    // The sign-in is in flight when the signal comes: its headers have arrived, its body has not.
    const body = JSON.stringify({ challenge, username: 'demo@example.com', password: 'Passw0rd!', client_id: 'demo-app' });
    const socket = connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    const response = readResponse(socket);
    socket.write(
      `POST /api/v1/users/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
        `Cookie: ${browser.cookieHeader()}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    await new Promise((r) => setTimeout(r, 200));

    const signalled = Date.now();
    child.kill('SIGTERM');
    await until('the listener to close', async () => !(await accepts(port)), 5_000);
    expect(child.exitCode).toBeNull();

    socket.write(body);
    const answer = await response;
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body)).toHaveProperty('redirectTo');
    // The client keeps its connection open, as keep-alive clients do: the process must not wait for
    // it (the stop's deadline would make it exit 1).

    const result = await Promise.race([exited, new Promise<never>((_, fail) => setTimeout(() => fail(new Error(`still running 10 s after SIGTERM:\n${output}`)), 10_000))]);
    expect(result, output).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(output).toContain('"signal":"SIGTERM"');
    // The entry turned the compile cache on before the server's modules loaded: the next start
    // reads their compiled code instead of compiling it again (on Node 20 there is none to keep).
    const filesIn = (dir: string) => {
      try {
        return readdirSync(dir, { recursive: true }).length;
      } catch {
        return 0;
      }
    };
    if (nodeHasCompileCache) expect(filesIn(compileCacheDir)).toBeGreaterThan(0);
    else expect(filesIn(compileCacheDir)).toBe(0);
    expect(filesIn(sharedCompileCacheDir)).toBe(0);
  }, 60_000);
});
