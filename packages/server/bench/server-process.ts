import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Backend } from './backend.ts';
import { pinned, ROOT, type Settings } from './settings.ts';
import { freePort } from '../test/test-server.ts';

/**
 * The production process (`node packages/server/dist/main.js`, as `npm run build` leaves it),
 * started the way an operator would, pinned to the measured core, and stopped with SIGTERM.
 */
export interface ServerProcess {
  pid: number;
  url: string;
  /** From spawn to discovery answering 200: migrations, keys and the development seed included. */
  readyMs: number;
  env: Record<string, string>;
  logFile: string;
  /** SIGTERM, then the exit code (SIGKILL and null after 15 s: the server's own deadline is 10 s). */
  stop(): Promise<number | null>;
}

const live = new Set<ChildProcess>();
// A benchmark interrupted half-way must not leave a server holding a core.
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** Remembers a child so that it is killed if the benchmark exits without stopping it. */
export function track(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
}


/**
 * The Node.js flags of `npm run start:server` (the heap settings the README tells operators to
 * run with), so that the benchmark measures the process as it runs in production.
 */
export function productionNodeFlags(): string[] {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const words = (scripts['start:server'] ?? '').split(/\s+/);
  if (words[0] !== 'node') throw new Error(`package.json's start:server should run node, not: ${scripts['start:server']}`);
  return words.slice(1).filter((word) => word.startsWith('--'));
}

export async function startServer(settings: Settings, backend: Backend): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: backend.dir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    LOG_LEVEL: settings.logLevel,
    // The budgets protect real accounts from guessing; the benchmark signs a few accounts in
    // thousands of times from one address, which they would rightly refuse.
    LOGIN_RATE_LIMIT_PER_IP: '100000000',
    LOGIN_LOCKOUT_AFTER_FAILURES: '100',
    CODE_SENDS_PER_IP_PER_HOUR: '100000',
    ...backend.env,
    // glibc's allocator knobs (MALLOC_ARENA_MAX, MALLOC_TRIM_THRESHOLD_, ...), to measure what they do to RSS.
    ...Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[0].startsWith('MALLOC_') && entry[1] !== undefined)),
  };
  const logFile = join(backend.dir, 'server.log');
  const log = openSync(logFile, 'a');
  // BENCH_CPU_PROF=dir: a V8 CPU profile of each server, written when it stops, to see what dominates
  // (the profiler itself costs CPU: do not read the rates of such a run against the targets).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', resolve(ROOT, process.env.BENCH_CPU_PROF)] : [];
  const [command, args] = pinned(settings, process.execPath, [...profile, ...productionNodeFlags(), join(ROOT, 'packages/server/dist/main.js')]);
  const started = performance.now();
  const child = spawn(command, args, { cwd: backend.dir, env, stdio: ['ignore', log, log] });
  closeSync(log);
  track(child);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };

  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before it was ready:\n${tail(logFile)}`);
      const ok = await fetch(`${url}/oidc/.well-known/openid-configuration`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (performance.now() - started > 60_000) throw new Error(`the server was not ready after 60 s:\n${tail(logFile)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { pid: child.pid!, url, readyMs: performance.now() - started, env, logFile, stop };
}

/** The end of the server's log, for a failure message. */
export function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
