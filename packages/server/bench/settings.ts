import { spawnSync } from 'node:child_process';
import { availableParallelism, cpus } from 'node:os';
import { resolve } from 'node:path';

/** The repository root: the server, its CLI and the results file are found from here. */
export const ROOT = resolve(import.meta.dirname, '../../..');

export interface Settings {
  /** Seconds each measured phase runs (BENCH_SECONDS). */
  seconds: number;
  /** Concurrent browsers of the closed-loop sign-in phases (BENCH_CONCURRENCY, comma-separated). */
  signInConcurrency: number[];
  /** Concurrent token chains of the refresh and userinfo phases (BENCH_TOKEN_CONCURRENCY). */
  tokenConcurrency: number;
  /** Accounts the sign-ins rotate through (BENCH_USERS): each has a per-account sign-in budget. */
  users: number;
  /** Cold starts behind "time to ready" (BENCH_READY_STARTS); the worst one counts. */
  readyStarts: number;
  /** The server's LOG_LEVEL (BENCH_LOG_LEVEL): info, as production runs, logs every request. */
  logLevel: string;
  /** The core every measured process is pinned to, or undefined without taskset. */
  core: number | undefined;
  /** The other cores, for the load generator, so it does not take CPU from the measured process. */
  driverCores: number[];
  postgres: { databaseUrl: string; redisUrl: string } | undefined;
  resultsPath: string;
}

function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not '${raw}'`);
  return value;
}

function hasTaskset(): boolean {
  return spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;
}

export function readSettings(argv: string[]): Settings {
  const unknown = argv.filter((a) => a !== '--postgres');
  if (unknown.length > 0) throw new Error(`unknown argument ${unknown.join(' ')} (only --postgres is accepted)`);
  const cores = availableParallelism();
  const requested = process.env.BENCH_CPU ? Number(process.env.BENCH_CPU) : cores > 1 ? 1 : 0;
  if (!Number.isInteger(requested) || requested < 0 || requested >= cores) throw new Error(`BENCH_CPU must be a core number below ${cores}`);
  const pinned = hasTaskset() ? requested : undefined;
  return {
    seconds: positive('BENCH_SECONDS', 8),
    signInConcurrency: (process.env.BENCH_CONCURRENCY ?? '1,4,8,16').split(',').map((c) => Math.floor(Number(c))).filter((c) => c > 0),
    tokenConcurrency: Math.floor(positive('BENCH_TOKEN_CONCURRENCY', 8)),
    users: Math.floor(positive('BENCH_USERS', 16)),
    readyStarts: Math.floor(positive('BENCH_READY_STARTS', 3)),
    logLevel: process.env.BENCH_LOG_LEVEL ?? 'info',
    core: pinned,
    driverCores: pinned === undefined ? [] : Array.from({ length: cores }, (_, i) => i).filter((i) => i !== pinned),
    postgres: argv.includes('--postgres')
      ? { databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test', redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0' }
      : undefined,
    resultsPath: resolve(ROOT, process.env.BENCH_RESULTS ?? 'bench-results.json'),
  };
}

/** Prefixes `command` with taskset when there is a core to pin to (taskset execs it: same pid). */
export function pinned(settings: Settings, command: string, args: string[]): [string, string[]] {
  return settings.core === undefined ? [command, args] : ['taskset', ['-c', String(settings.core), command, ...args]];
}

/** Moves this process (every thread) off the measured core, when there is another one. */
export function pinDriver(settings: Settings): boolean {
  if (settings.driverCores.length === 0) return false;
  return spawnSync('taskset', ['-a', '-p', '-c', settings.driverCores.join(','), String(process.pid)], { stdio: 'ignore' }).status === 0;
}

export function machineInfo(settings: Settings, driverPinned: boolean) {
  return {
    cpuModel: cpus()[0]?.model ?? 'unknown',
    // cpus(), not availableParallelism(): this process has been pinned away from the server's core by now.
    cores: cpus().length,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    taskset: settings.core !== undefined,
    serverCore: settings.core ?? null,
    driverCores: driverPinned ? settings.driverCores : null,
    logLevel: settings.logLevel,
    secondsPerPhase: settings.seconds,
  };
}
