import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { closedLoop } from './load.ts';
import { metered } from './proc.ts';
import { refreshOperation, type Chain } from './phases/tokens.ts';
import { track } from './server-process.ts';
import { pinned, ROOT, type Settings } from './settings.ts';
import { summarise, type PhaseResult } from './stats.ts';

/**
 * The two ceilings Passgate is held against, each measured in a process of its own pinned to the
 * core the server gets, in the same run: what the machine can do at all, right now.
 */

export interface Argon2Ceiling {
  hashes: number;
  wallSeconds: number;
  cpuSeconds: number;
  perSecond: number;
  perCpuSecond: number;
  rssMiB: number;
}

/** Starts a TypeScript file under bench/children (through tsx) and answers its first JSON line. */
async function startChild<T>(settings: Settings, file: string, args: string[]) {
  const [command, argv] = pinned(settings, process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'children', file), ...args]);
  const child = spawn(command, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  track(child);
  // oidc-provider's start-up warnings (runtime, in-memory adapter) are expected here: shown only on failure.
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  const exited = once(child, 'close').then(() => {
    throw new Error(`${file} exited with ${child.exitCode} before it answered:\n${stderr.trim()}`);
  });
  const first = (async () => {
    for await (const line of lines) if (line.startsWith('{')) return JSON.parse(line) as T;
    throw new Error(`${file} closed its output before it answered`);
  })();
  const message = await Promise.race([first, exited]);
  exited.catch(() => undefined);
  return { child, message };
}

export async function measureArgon2Ceiling(settings: Settings): Promise<Argon2Ceiling> {
  const { child, message } = await startChild<Omit<Argon2Ceiling, 'perSecond' | 'perCpuSecond'>>(settings, 'argon2-hash-loop.ts', [String(settings.seconds)]);
  child.kill('SIGTERM');
  return { ...message, perSecond: message.hashes / message.wallSeconds, perCpuSecond: message.hashes / message.cpuSeconds };
}

/** Refresh grants against the bare provider, driven exactly like Passgate's public-client phase. */
export async function measureBareRefreshCeiling(settings: Settings): Promise<PhaseResult> {
  const { child, message } = await startChild<{ tokenUrl: string; clientId: string; refreshTokens: string[] }>(settings, 'bare-provider.ts', [String(settings.tokenConcurrency)]);
  try {
    const chains: Chain[] = message.refreshTokens.map((refreshToken) => ({ refreshToken }));
    const op = refreshOperation({ tokenUrl: message.tokenUrl, clientId: message.clientId }, chains);
    await closedLoop(chains.length, Math.min(2, settings.seconds), op);
    const { result, usage } = await metered(child.pid!, () => closedLoop(chains.length, settings.seconds, op));
    return summarise('bare oidc-provider refresh (ceiling)', result, usage, { concurrency: chains.length });
  } finally {
    child.kill('SIGTERM');
  }
}
