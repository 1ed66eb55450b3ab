import { relative } from 'node:path';
import { measureArgon2Ceiling, measureBareCeilings } from './ceilings.ts';
import { runPassgate, type BackendResult } from './passgate-run.ts';
import { phasesOf, printDetails, printSummary, writeResults, type Results } from './report.ts';
import { machineInfo, pinDriver, readSettings, ROOT } from './settings.ts';
import { backendRows, ceilingRows, type Ceilings, type Row } from './targets.ts';

/**
 * `npm run bench [-- --postgres]`: what users feel, against the ceilings, in one run. The
 * production process runs on its own, pinned to one core; this process drives it over HTTP and
 * charges every rate to the server's CPU time. The ceilings (argon2 alone, oidc-provider alone,
 * oidc-provider's own sign-in with one argon2 verification)
 * are measured the same way on the same core, in the same run, so a busy or slow machine moves
 * both sides. Exits 1 when a target is missed. A benchmark, not a test: `npm test` never runs it.
 *
 * BENCH_SECONDS (8) per phase, BENCH_CONCURRENCY (1,4,8,16), BENCH_TOKEN_CONCURRENCY (8),
 * BENCH_USERS (16), BENCH_READY_STARTS (3), BENCH_LOG_LEVEL (info), BENCH_CPU (1, or 0 on one
 * core), BENCH_RESULTS (bench-results.json), BENCH_CPU_PROF (a folder for the servers' V8 CPU
 * profiles), MALLOC_* (glibc's allocator settings, passed on to the servers); with --postgres, DATABASE_URL and REDIS_URL (postgres://postgres@127.0.0.1:5432/test,
 * redis://127.0.0.1:6379/0).
 */

// Enough to keep one core busy with the hash and the rest at once, like Passgate's c=4 phase.
const BARE_SIGN_IN_CONCURRENCY = 4;
const masked = (url: string) => url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
const log = (line: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);

async function main(): Promise<number> {
  const settings = readSettings(process.argv.slice(2));
  const startedAt = new Date().toISOString();
  const driverPinned = pinDriver(settings);
  const machine = machineInfo(settings, driverPinned);
  log(`${machine.cpuModel}, ${machine.cores} cores, Node ${machine.node}`);
  log(
    settings.core === undefined
      ? 'taskset not found: nothing is pinned, so the load generator shares cores with what it measures'
      : `measured processes pinned to core ${settings.core}; load generator ${driverPinned ? `on cores ${settings.driverCores.join(',')}` : 'unpinned'}`,
  );

  log('ceiling: argon2id hash-only');
  const argon2 = await measureArgon2Ceiling(settings);
  log('ceilings: bare oidc-provider refresh, and sign-in with one argon2id verification');
  const bare = await measureBareCeilings(settings, BARE_SIGN_IN_CONCURRENCY);
  const ceilings: Ceilings = { argon2, bareRefresh: bare.refresh, bareSignIn: bare.signIn };

  const backends: BackendResult[] = [];
  const withBackend = { ...settings, postgres: undefined };
  log('Passgate on SQLite');
  backends.push(await runPassgate(withBackend, log));
  if (settings.postgres) {
    log(`Passgate on PostgreSQL (${masked(settings.postgres.databaseUrl)}) + Redis`);
    backends.push(await runPassgate(settings, log));
  }

  const rows: Record<string, Row[]> = { ceilings: ceilingRows(ceilings) };
  for (const b of backends) rows[b.backend] = backendRows(b, ceilings);
  const failures = backends.flatMap((b) => b.failures.map((f) => `${b.backend}: ${f}`));
  const passed = failures.length === 0 && Object.values(rows).every((list) => list.every((r) => r.pass !== false));

  printSummary(`Ceilings (process pinned to core ${settings.core ?? 'none'}, ${settings.seconds} s each)`, rows.ceilings!);
  for (const b of backends) {
    printSummary(`Passgate on ${b.backend === 'sqlite' ? 'SQLite' : 'PostgreSQL + Redis'} (rates per CPU-second of the server process)`, rows[b.backend]!);
  }
  for (const b of backends) printDetails(`Phases on ${b.backend}`, [...(b.backend === 'sqlite' ? [bare.refresh, bare.signIn] : []), ...phasesOf(b)]);
  for (const f of failures) console.error(`\n${f}`);

  // The connection URLs may hold passwords; the results file may be shared.
  const shown = settings.postgres ? { ...settings, postgres: { databaseUrl: masked(settings.postgres.databaseUrl), redisUrl: masked(settings.postgres.redisUrl) } } : settings;
  const results: Results = { startedAt, finishedAt: new Date().toISOString(), machine: { ...machine, settings: shown }, ceilings, backends, rows, passed };
  writeResults(settings.resultsPath, results);
  console.log(`\nResults: ${relative(ROOT, settings.resultsPath)}. ${passed ? 'Every target met.' : 'Some targets missed (FAIL above): exit 1.'}`);
  return passed ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
