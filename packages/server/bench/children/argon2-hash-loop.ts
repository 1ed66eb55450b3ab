import { performance } from 'node:perf_hooks';
import { hashSecret } from '../../src/lib/passwords.ts';

/**
 * The argon2 ceiling: password hashes one after another, nothing else, for `seconds` (argv[2]),
 * through the server's own hashSecret so the parameters cannot drift from what a sign-in
 * verifies. Run pinned to the server's core; prints one JSON line.
 *
 * CPU time comes from process.cpuUsage(), getrusage of the whole process: the same counters as
 * utime + stime in /proc/<pid>/stat, which the parent reads for the servers, at a finer grain.
 */

const seconds = Number(process.argv[2] ?? 5);

// The first hash pays for loading the addon and growing the heap; a sign-in never does.
await hashSecret('warm-up');

const cpuBefore = process.cpuUsage();
const started = performance.now();
let hashes = 0;
while (performance.now() - started < seconds * 1000) {
  await hashSecret(`bench-${hashes}`);
  hashes += 1;
}
const wallSeconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;

console.log(JSON.stringify({ hashes, wallSeconds, cpuSeconds, rssMiB: process.memoryUsage().rss / 2 ** 20 }));
