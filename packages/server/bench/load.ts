import { performance } from 'node:perf_hooks';
import type { Sample } from './stats.ts';

/** One operation; `dueAt` is when it should have started (performance.now() time). */
export type Operation = (worker: number, dueAt: number) => Promise<Sample>;

function failed(error: unknown, dueAt: number): Sample {
  const message = error instanceof Error ? error.message : String(error);
  return { outcome: 'error', ms: performance.now() - dueAt, error: message.split('\n')[0]!.slice(0, 200) };
}

async function guarded(op: Operation, worker: number, dueAt: number): Promise<Sample> {
  try {
    return await op(worker, dueAt);
  } catch (error) {
    return failed(error, dueAt);
  }
}

/**
 * `concurrency` users, each starting the next operation as soon as the previous one answered,
 * for `seconds`: the throughput the server reaches, and the latency each user sees at it.
 */
export async function closedLoop(concurrency: number, seconds: number, op: Operation): Promise<Sample[]> {
  const deadline = performance.now() + seconds * 1000;
  const samples: Sample[] = [];
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (performance.now() < deadline) samples.push(await guarded(op, worker, performance.now()));
    }),
  );
  return samples;
}

/**
 * Operations started on a fixed schedule, `rate` per second, whether or not earlier ones have
 * answered: arrivals as a crowd of independent users makes them. Latency counts from when each
 * was due, so a load generator that falls behind shows up as latency instead of hiding it.
 * Beyond `maxOutstanding` operations in flight, new arrivals are counted as errors (dropped).
 */
export async function openLoop(rate: number, seconds: number, op: Operation, maxOutstanding = 512): Promise<Sample[]> {
  const interval = 1000 / rate;
  const start = performance.now();
  const total = Math.max(1, Math.floor(rate * seconds));
  const samples: Sample[] = [];
  const running = new Set<Promise<void>>();
  for (let i = 0; i < total; i += 1) {
    const dueAt = start + i * interval;
    const wait = dueAt - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (running.size >= maxOutstanding) {
      samples.push({ outcome: 'error', ms: 0, error: `dropped: ${maxOutstanding} operations already in flight` });
      continue;
    }
    const task: Promise<void> = guarded(op, i, dueAt).then((sample) => {
      samples.push(sample);
      running.delete(task);
    });
    running.add(task);
  }
  await Promise.all(running);
  return samples;
}
