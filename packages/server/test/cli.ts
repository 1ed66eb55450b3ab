import { run } from '../src/cli/main.ts';
import type { TestServer } from './test-server.ts';

/** The command line against the test server's database (and Redis), as an operator runs it. */
export async function runCli(server: TestServer, args: string[]): Promise<{ code: number; out: string; err: string }> {
  const { config } = server.ctx;
  const env = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: config.databaseUrl,
    PUBLIC_URL: config.publicUrl,
    OUTGOING_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
    ...(config.redisUrl ? { REDIS_URL: config.redisUrl, REDIS_KEY_PREFIX: config.redisKeyPrefix } : {}),
  };
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(args, { out: (l) => out.push(l), err: (l) => err.push(l), env });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
