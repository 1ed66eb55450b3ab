import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { closedLoop } from './load.ts';
import { metered } from './proc.ts';
import { bareSignInOnce, type BareSignInTarget } from './phases/sign-in.ts';
import { refreshOperation, type Chain } from './phases/tokens.ts';
import { oidc, type RelyingParty } from '../test/relying-party.ts';
import { track } from './server-process.ts';
import { pinned, ROOT, type Settings } from './settings.ts';
import { summarise, type PhaseResult } from './stats.ts';

/**
 * The ceilings Passgate is held against, each measured in a process of its own pinned to the
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

interface BareProviderMessage {
  tokenUrl: string;
  clientId: string;
  refreshTokens: string[];
  signIn: { issuer: string; clientId: string; secret: string; redirectUri: string; username: string; password: string };
}

export interface BareCeilings {
  /** Refresh grants, driven exactly like Passgate's public-client phase. */
  refresh: PhaseResult;
  /** Whole sign-ins with one argon2id verification, driven like Passgate's sign-in phases. */
  signIn: PhaseResult;
}

/** The bare provider's ceilings, one process for both phases. */
export async function measureBareCeilings(settings: Settings, signInConcurrency: number): Promise<BareCeilings> {
  const { child, message } = await startChild<BareProviderMessage>(settings, 'bare-provider.ts', [String(settings.tokenConcurrency)]);
  try {
    const chains: Chain[] = message.refreshTokens.map((refreshToken) => ({ refreshToken }));
    const op = refreshOperation({ tokenUrl: message.tokenUrl, clientId: message.clientId }, chains);
    await closedLoop(chains.length, Math.min(2, settings.seconds), op);
    const measured = await metered(child.pid!, () => closedLoop(chains.length, settings.seconds, op));
    const refresh = summarise('bare oidc-provider refresh (ceiling)', measured.result, measured.usage, { concurrency: chains.length });

    const s = message.signIn;
    const config = await oidc.discovery(new URL(s.issuer), s.clientId, s.secret, oidc.ClientSecretBasic(s.secret), { execute: [oidc.allowInsecureRequests] });
    const rp: RelyingParty = { config, clientId: s.clientId, redirectUri: s.redirectUri };
    const target: BareSignInTarget = { issuer: s.issuer, rp, username: s.username, password: s.password };
    const signInOp = (_worker: number, dueAt: number) => bareSignInOnce(target, dueAt);
    await closedLoop(1, 1, signInOp);
    const signedIn = await metered(child.pid!, () => closedLoop(signInConcurrency, settings.seconds, signInOp));
    const signIn = summarise('bare oidc-provider sign-in + argon2id (ceiling)', signedIn.result, signedIn.usage, { concurrency: signInConcurrency });
    return { refresh, signIn };
  } finally {
    child.kill('SIGTERM');
  }
}
