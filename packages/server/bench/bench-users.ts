import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { cpus } from 'node:os';
import { ROOT, type Settings } from './settings.ts';
import type { ServerProcess } from './server-process.ts';

export const BENCH_TENANT = 'demo';
export const BENCH_PASSWORD = 'Bench-Passw0rd!';

export interface BenchUser {
  username: string;
  password: string;
}

/**
 * Accounts for the sign-ins, made with the production command line against the server's own
 * database. One account would not do: every attempt spends its per-account budget (four times
 * LOGIN_LOCKOUT_AFTER_FAILURES per 15 minutes, at most 400), a 503 turned away under overload
 * included, which a benchmark soon exhausts.
 */
export async function createBenchUsers(settings: Settings, server: ServerProcess, count: number): Promise<BenchUser[]> {
  const users = Array.from({ length: count }, (_, i) => ({ username: `bench-${i + 1}@example.com`, password: BENCH_PASSWORD }));
  let next = 0;
  // Each command is a node start, a database connection and an argon2 hash: four at a time.
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < users.length) {
        const user = users[next]!;
        next += 1;
        await cli(settings, server, ['user', 'create', '--tenant', BENCH_TENANT, '--email', user.username, '--name', `Bench ${next}`], { PASSGATE_PASSWORD: user.password });
      }
    }),
  );
  return users;
}

/** The public client whose refresh tokens the benchmark rotates (the account area's client gets none). */
export const BENCH_PUBLIC_CLIENT = 'bench-public';

export function createBenchPublicClient(settings: Settings, server: ServerProcess): Promise<void> {
  return cli(settings, server, ['client', 'create', '--id', BENCH_PUBLIC_CLIENT, '--tenant', BENCH_TENANT, '--name', 'Bench public client', '--redirect-uris', `${server.url}/demo/callback`, '--auth-method', 'none'], {});
}

function cli(settings: Settings, server: ServerProcess, args: string[], extraEnv: Record<string, string>): Promise<void> {
  const argv = [join(ROOT, 'packages/server/dist/cli/main.js'), ...args];
  // Nothing is measured yet, so setup may use every core, not only the load generator's.
  const [command, commandArgs] = settings.core === undefined ? [process.execPath, argv] : ['taskset', ['-c', `0-${cpus().length - 1}`, process.execPath, ...argv]];
  return new Promise((done, fail) => {
    const child = spawn(command, commandArgs, {
      cwd: ROOT,
      env: { ...server.env, ...extraEnv },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', fail);
    child.once('exit', (code) => (code === 0 ? done() : fail(new Error(`passgate ${args.join(' ')} exited with ${code}: ${stderr.trim()}`))));
  });
}
