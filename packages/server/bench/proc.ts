import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/**
 * What a process costs, read from /proc the same way for the Passgate server and for the ceiling
 * processes, so that "per CPU-second" means the same thing on every row of the report.
 */

function clockTicks(): number {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return ticks > 0 ? ticks : 100;
  } catch {
    return 100;
  }
}

const CLK_TCK = clockTicks();

/** User plus system time of every thread of `pid` (argon2 runs on libuv's pool, not the main thread). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces and parentheses; the fields after its last ')' are fixed.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of proc(5) (utime, stime); `fields` starts at field 3.
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

function statusField(pid: number, name: string): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  return line ? Number(line.split(/\s+/)[1]) / 1024 : NaN;
}

/** Resident set size in MiB. */
export function rssMiB(pid: number): number {
  return statusField(pid, 'VmRSS');
}

export interface Usage {
  cpuSeconds: number;
  wallSeconds: number;
  /** Highest RSS sampled while the work ran (every 100 ms), and the RSS once it had finished. */
  rssPeakMiB: number;
  rssAfterMiB: number;
}

/** Runs `work` while watching `pid`: its CPU time, wall time and memory over exactly that span. */
export async function metered<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; usage: Usage }> {
  let peak = rssMiB(pid);
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, rssMiB(pid));
    } catch {
      // The process is gone; the phase itself will report why.
    }
  }, 100);
  const cpuBefore = cpuSeconds(pid);
  const started = performance.now();
  try {
    const result = await work();
    const wallSeconds = (performance.now() - started) / 1000;
    const after = rssMiB(pid);
    return { result, usage: { cpuSeconds: cpuSeconds(pid) - cpuBefore, wallSeconds, rssPeakMiB: Math.max(peak, after), rssAfterMiB: after } };
  } finally {
    clearInterval(sampler);
  }
}
