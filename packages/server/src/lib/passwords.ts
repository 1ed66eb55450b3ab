import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import { ErrorCode } from '@passgate/contract';
import { ApiError } from '../plugins/errors.ts';

/** argon2id with OWASP's parameters: 19 MiB, 2 iterations, parallelism 1. */
// algorithm 2 is Argon2id (the package's const enum cannot be imported under verbatimModuleSyntax).
const options = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashSecret(secret: string): Promise<string> {
  return bounded('hash', () => hash(secret, options));
}

/** False for a wrong secret or a malformed hash; throws only when the work is shed (503). */
export async function verifySecret(hashed: string, secret: string): Promise<boolean> {
  return bounded('verify', () => Promise.resolve().then(() => verify(hashed, secret)).catch(() => false));
}

/**
 * Bounded argon2 work. Each job takes a core for ~20 ms and 19 MiB; more jobs at once than cores
 * only share the cores slower, and an unbounded queue turns an overload into seconds-long waits
 * for everybody. So at most `concurrency` jobs run, at most `maxQueue` wait, and any more are
 * refused at once with 503 and Retry-After: an honest 'try again shortly' that costs nothing.
 * Process-wide, like libuv's thread pool the jobs run on.
 */
export interface Argon2Limits {
  concurrency: number;
  maxQueue: number;
}

/**
 * libuv's thread pool, which runs the argon2 jobs and also file writes (the log), DNS look-ups and
 * WebCrypto signing. Its size is read once, when the pool first starts, which is before any of our
 * code runs: only the environment (UV_THREADPOOL_SIZE) sets it. libuv's default is 4.
 */
export function threadPoolSize(): number {
  const size = Number(process.env.UV_THREADPOOL_SIZE);
  return Number.isInteger(size) && size > 0 ? Math.min(size, 1024) : 4;
}

export const defaultArgon2Limits = (): Argon2Limits => {
  // The cores this process may run on (a taskset or cpuset pinning counts, a CPU quota does not),
  // leaving one pool thread free, so that logging and token signing never wait behind hashes.
  const concurrency = Math.max(1, Math.min(availableParallelism(), threadPoolSize() - 1));
  return { concurrency, maxQueue: 8 * concurrency };
};

let limits = defaultArgon2Limits();
let running = 0;
const waiting: (() => void)[] = [];

export function setArgon2Limits(next: Argon2Limits): void {
  limits = next;
}

const overloaded = () => new ApiError(ErrorCode.ServiceUnavailable, 503);

/** Throws the 503 now if a password check would be shed, so that the caller does no other work first. */
export function refuseWhenArgon2Overloaded(): void {
  if (running >= limits.concurrency && waiting.length >= limits.maxQueue) throw overloaded();
}

/**
 * Waits for a slot (or throws the 503 when too many already wait) and answers its release. For
 * argon2 work, through hashSecret and verifySecret; tests also hold slots with it to fill the queue.
 */
export async function argon2Slot(): Promise<() => void> {
  if (running < limits.concurrency) {
    running += 1;
  } else {
    if (waiting.length >= limits.maxQueue) throw overloaded();
    // The finishing job hands its slot over (running stays as it is).
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };
}

export type Argon2Operation = 'hash' | 'verify';
export type Argon2Observer = (operation: Argon2Operation, seconds: number) => void;

// Process-wide on purpose: every app context in the process shares libuv's one thread pool.
const observers = new Set<Argon2Observer>();

/** Hears how long each hash or verification took (waiting for a slot included); returns the way to stop. */
export function observeArgon2(observer: Argon2Observer): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

/** Hashes and verifications started and not finished, running or waiting for a slot. */
export function argon2InFlight(): number {
  return running + waiting.length;
}

/** Runs argon2 work in a slot (or sheds it), and tells the observers how long it took. */
async function bounded<T>(operation: Argon2Operation, work: () => Promise<T>): Promise<T> {
  const started = process.hrtime.bigint();
  const release = await argon2Slot();
  try {
    return await work();
  } finally {
    release();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    for (const observer of observers) observer(operation, seconds);
  }
}

/**
 * A hash to verify against when the account does not exist, so that an unknown username takes as
 * long as a wrong password and the timing does not tell which usernames exist.
 */
let dummyHash: Promise<string> | undefined;
export function dummySecretHash(): Promise<string> {
  // A first hash shed under load must not leave every later unknown username failing.
  dummyHash ??= hashSecret('passgate-timing-equaliser').catch((error: unknown) => {
    dummyHash = undefined;
    throw error;
  });
  return dummyHash;
}
