import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startupFailureMessage } from './startup.ts';

const root = resolve(import.meta.dirname, '../../../..');
const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');

/** Runs the real entry point (as `npm start` does) and collects what it says until it exits. */
function runMain(env: Record<string, string>, options: { uid?: number; gid?: number } = {}): Promise<{ code: number | null; output: string; ms: number }> {
  const started = Date.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [tsx, join(root, 'packages/server/src/main.ts')], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), NODE_ENV: 'test', PORT: '0', SEED_DEMO: 'false', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...options,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', fail);
    child.on('exit', (code) => {
      clearTimeout(killer);
      done({ code, output, ms: Date.now() - started });
    });
  });
}

describe('start-up against a database that is not there', () => {
  it('retries an unreachable PostgreSQL for STARTUP_TIMEOUT_MS, then exits non-zero naming DATABASE_URL without its password', async () => {
    // pg also takes the password as a query parameter (libpq's ?password=), which once went into every line.
    const [inUser, inQuery] = await Promise.all([
      runMain({ DATABASE_URL: 'postgres://user:secret@127.0.0.1:1/x', STARTUP_TIMEOUT_MS: '1500' }),
      runMain({ DATABASE_URL: 'postgres://user@127.0.0.1:1/x?sslmode=disable&password=secret', STARTUP_TIMEOUT_MS: '1500' }),
    ]);
    for (const [result, masked] of [
      [inUser, 'DATABASE_URL=postgres://user:***@127.0.0.1:1/x'],
      [inQuery, 'DATABASE_URL=postgres://user@127.0.0.1:1/x?sslmode=disable&password=***'],
    ] as const) {
      expect(result.code).not.toBe(0);
      expect(result.code).not.toBeNull();
      expect(result.output).toContain(masked);
      expect(result.output).toMatch(/retrying/);
      expect(result.output).toContain('ECONNREFUSED');
      expect(result.output).not.toContain('secret');
      expect(result.output).not.toContain('Passgate is running');
    }
  }, 40_000);

  it('stops at once, naming DATABASE_URL, when the driver cannot parse it (a password with an unencoded /)', async () => {
    const result = await runMain({ DATABASE_URL: 'postgres://user:se/cret+x@127.0.0.1:5432/x', STARTUP_TIMEOUT_MS: '20000' });
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/^DATABASE_URL=postgres:\/\/user:\*\*\*@127\.0\.0\.1:5432\/x is not a valid URL: percent-encode /m);
    expect(result.output).not.toMatch(/retrying|cret| {4}at /);
    expect(result.ms).toBeLessThan(15_000);
  }, 40_000);

  it('gives up on a silent peer (accepts, never answers) within the bounds, without hanging', async () => {
    const held: Socket[] = [];
    const silent = createServer((socket) => void held.push(socket));
    await new Promise<void>((ready) => silent.listen(0, '127.0.0.1', ready));
    const address = silent.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const result = await runMain({ DATABASE_URL: `postgres://user:secret@127.0.0.1:${port}/x`, STARTUP_TIMEOUT_MS: '1500', DATABASE_CONNECT_TIMEOUT_MS: '500' });
      expect(result.code).not.toBe(0);
      expect(result.code).not.toBeNull();
      expect(result.output).toContain(`DATABASE_URL=postgres://user:***@127.0.0.1:${port}/x`);
      expect(result.output).not.toContain('secret');
      // The timeout plus one connect attempt plus the start of node and tsx, far from the 30 s kill.
      expect(result.ms).toBeLessThan(20_000);
    } finally {
      for (const socket of held) socket.destroy();
      silent.close();
    }
  }, 40_000);

  it('stops with a message naming the SQLite file when it is read-only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'passgate-ro-'));
    const data = join(dir, 'data');
    mkdirSync(data);
    const file = join(data, 'passgate.sqlite');
    writeFileSync(file, '');
    chmodSync(file, 0o444);
    chmodSync(data, 0o555);
    chmodSync(dir, 0o755);
    // root writes through permissions: run as nobody then, for whom the file is truly read-only.
    const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    try {
      const result = await runMain({ DATABASE_URL: `sqlite:${file}` }, asNobody);
      expect(result.code).not.toBe(0);
      expect(result.output).toContain(file);
      expect(result.output).toMatch(/SQLite database file .* cannot be opened for writing/);
      expect(result.output).toMatch(/SQLITE_(READONLY|CANTOPEN)/);
    } finally {
      chmodSync(data, 0o755);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);
});

describe('the message start-up prints when it gives up', () => {
  const config = { databaseUrl: 'postgres://user:secret@db.example/x', logLevel: 'info' } as const;

  it('is the error message on one line, the password masked, the stack only at LOG_LEVEL debug or trace', () => {
    const error = new Error('cannot use postgres://user:secret@db.example/x: wrong APP_SECRET');
    const message = startupFailureMessage(error, config);
    expect(message).toBe('Passgate could not start: cannot use postgres://user:***@db.example/x: wrong APP_SECRET');
    for (const logLevel of ['debug', 'trace'] as const) {
      const verbose = startupFailureMessage(error, { ...config, logLevel });
      expect(verbose.startsWith(`${message}\nError: cannot use postgres://user:***@db.example/x`)).toBe(true);
      expect(verbose).toContain('    at ');
      expect(verbose).not.toContain('secret@');
    }
    expect(startupFailureMessage('plain text', config)).toBe('Passgate could not start: plain text');
  });
});
