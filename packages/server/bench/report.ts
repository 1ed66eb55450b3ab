import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { BackendResult } from './passgate-run.ts';
import type { PhaseResult } from './stats.ts';
import type { Ceilings, Row } from './targets.ts';

/** Prints rows as an aligned table, numbers right-aligned. */
function table(header: string[], rows: string[][], rightAligned: (column: number) => boolean): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (rightAligned(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

const verdict = (pass: boolean | undefined) => (pass === undefined ? '' : pass ? 'pass' : 'FAIL');

export function printSummary(title: string, rows: Row[]): void {
  console.log(`\n${title}`);
  table(
    ['metric', 'value', 'per CPU-s', 'target', 'ratio', 'result'],
    rows.map((r) => [r.metric, r.value, r.perCpu, r.target, r.ratio, verdict(r.pass)]),
    (i) => i === 2,
  );
}

const n = (v: number | undefined, digits = 0) => (v === undefined || !Number.isFinite(v) ? '-' : v.toFixed(digits));

/** Every measured phase in full: latency percentiles, 503s, CPU and memory. */
export function printDetails(title: string, phases: PhaseResult[]): void {
  console.log(`\n${title} (latency in ms, memory in MiB)`);
  table(
    ['phase', 'ok', 'ok/s', 'CPU s', 'ok/CPU-s', 'p50', 'p95', 'p99', 'max', 'login p99', 'errors', '503s', '503 p99', 'RSS peak', 'RSS after'],
    phases.map((p) => [
      p.name,
      String(p.ok),
      n(p.perSecond, 1),
      n(p.usage.cpuSeconds, 2),
      n(p.perCpuSecond, 1),
      n(p.latency.p50, 1),
      n(p.latency.p95, 1),
      n(p.latency.p99, 1),
      n(p.latency.max, 1),
      n(p.loginLatency?.p99, 1),
      String(p.errors),
      p.shedWithoutRetryAfter > 0 ? `${p.shed} (${p.shedWithoutRetryAfter} no Retry-After)` : String(p.shed),
      n(p.shedLatency?.p99, 1),
      n(p.usage.rssPeakMiB),
      n(p.usage.rssAfterMiB),
    ]),
    (i) => i > 0,
  );
  for (const p of phases) for (const e of p.errorSamples) console.log(`  ${p.name}: ${e}`);
}

export function phasesOf(r: BackendResult): PhaseResult[] {
  return [...r.signIns, r.paced, r.refreshPublic, r.refreshConfidential, r.userinfo].filter((p): p is PhaseResult => p !== undefined);
}

export interface Results {
  startedAt: string;
  finishedAt: string;
  machine: Record<string, unknown>;
  ceilings: Ceilings;
  backends: BackendResult[];
  rows: Record<string, Row[]>;
  passed: boolean;
}

export function writeResults(path: string, results: Results): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
}
