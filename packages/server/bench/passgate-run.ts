import { performance } from 'node:perf_hooks';
import { relyingParty } from '../test/relying-party.ts';
import { freshBackend } from './backend.ts';
import { BENCH_PUBLIC_CLIENT, createBenchPublicClient, createBenchUsers } from './bench-users.ts';
import { closedLoop, openLoop, type Operation } from './load.ts';
import { signInOnce, tokensBySigningIn, type SignInTarget } from './phases/sign-in.ts';
import { refreshOperation, userinfoOperation, type Chain, type TokenClient } from './phases/tokens.ts';
import { metered, rssMiB } from './proc.ts';
import { startServer, tail, type ServerProcess } from './server-process.ts';
import type { Settings } from './settings.ts';
import { summarise, type PhaseResult } from './stats.ts';
import { measureTimeToReady, type ReadyResult } from './time-to-ready.ts';

/** Everything measured on one database (SQLite, or PostgreSQL with Redis). */
export interface BackendResult {
  backend: 'sqlite' | 'postgres';
  timeToReady: ReadyResult;
  rssIdleMiB: number;
  signIns: PhaseResult[];
  paced?: PhaseResult;
  refreshPublic?: PhaseResult;
  refreshConfidential?: PhaseResult;
  userinfo?: PhaseResult;
  /** The server's exit code after SIGTERM at the end: 0 is a clean stop. */
  stopExitCode: number | null;
  /** Phases that could not run, and why. */
  failures: string[];
}

const PACED_FRACTION = 0.8;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runPassgate(settings: Settings, log: (line: string) => void): Promise<BackendResult> {
  log('time to ready: cold starts on empty data');
  const timeToReady = await measureTimeToReady(settings);
  const backend = await freshBackend(settings, 'main');
  let server: ServerProcess | undefined;
  const failures: string[] = [];
  const result: BackendResult = { backend: backend.name, timeToReady, rssIdleMiB: NaN, signIns: [], stopExitCode: null, failures };
  try {
    server = await startServer(settings, backend);
    const { pid, url } = server;
    log(`server pid ${pid} on ${url}; creating ${settings.users} accounts with the command line`);
    const users = await createBenchUsers(settings, server, settings.users);
    await createBenchPublicClient(settings, server);
    const confidential = await relyingParty(url, 'demo-app', 'demo-secret');
    const target: SignInTarget = { url, rp: confidential, users };
    const signIn: Operation = async (_worker, dueAt) => (await signInOnce(target, dueAt)).sample;

    // Warm the code paths (and the relying party's key cache), then let the server settle.
    await closedLoop(1, 1, signIn);
    await sleep(2000);
    result.rssIdleMiB = rssMiB(pid);

    const phase = async (name: string, work: () => Promise<Parameters<typeof summarise>[1]>, extra: Parameters<typeof summarise>[3] = {}) => {
      log(name);
      const { result: samples, usage } = await metered(pid, work);
      return summarise(name, samples, usage, extra);
    };

    for (const c of settings.signInConcurrency) {
      result.signIns.push(await phase(`sign-in c=${c}`, () => closedLoop(c, settings.seconds, signIn), { concurrency: c }));
    }
    const peak = Math.max(...result.signIns.map((p) => p.perSecond));
    if (peak > 0) {
      const rate = PACED_FRACTION * peak;
      result.paced = await phase(`sign-in paced ${rate.toFixed(1)}/s`, () => openLoop(rate, settings.seconds, signIn), { offeredRate: rate });
    } else {
      failures.push('no sign-in succeeded, so there is no peak to pace at');
    }

    try {
      const publicRp = await relyingParty(url, BENCH_PUBLIC_CLIENT);
      const chainsOf = async (rp: typeof publicRp): Promise<Chain[]> =>
        (await tokensBySigningIn({ ...target, rp }, settings.tokenConcurrency)).map((t) => ({ refreshToken: t.refresh_token!, accessToken: t.access_token }));
      const tokenUrl = confidential.config.serverMetadata().token_endpoint!;
      const userinfoUrl = confidential.config.serverMetadata().userinfo_endpoint!;
      const publicChains = await chainsOf(publicRp);
      const confidentialChains = await chainsOf(confidential);

      const tokenPhase = async (name: string, op: Operation, chains: Chain[]) => {
        await closedLoop(chains.length, Math.min(2, settings.seconds), op);
        return phase(name, () => closedLoop(chains.length, settings.seconds, op), { concurrency: chains.length });
      };
      const publicClient: TokenClient = { tokenUrl, clientId: BENCH_PUBLIC_CLIENT };
      const confidentialClient: TokenClient = { tokenUrl, clientId: 'demo-app', secret: 'demo-secret' };
      result.refreshPublic = await tokenPhase('refresh, public client', refreshOperation(publicClient, publicChains), publicChains);
      result.refreshConfidential = await tokenPhase('refresh, confidential client', refreshOperation(confidentialClient, confidentialChains), confidentialChains);
      result.userinfo = await tokenPhase('userinfo', userinfoOperation(userinfoUrl, confidentialChains), confidentialChains);
    } catch (error) {
      failures.push(`token phases: ${error instanceof Error ? error.message : String(error)}`);
    }
  } catch (error) {
    failures.push(`${error instanceof Error ? error.message : String(error)}${server ? `\nserver log:\n${tail(server.logFile)}` : ''}`);
  } finally {
    const stopping = performance.now();
    result.stopExitCode = server ? await server.stop() : null;
    if (server) log(`server stopped with ${result.stopExitCode} after ${(performance.now() - stopping).toFixed(0)} ms`);
    // A failed run keeps the server's log (and a SQLite file) to look at.
    const keep = failures.length > 0 || result.stopExitCode !== 0;
    if (keep) failures.push(`server log kept in ${backend.dir}`);
    await backend.remove(keep);
  }
  return result;
}
