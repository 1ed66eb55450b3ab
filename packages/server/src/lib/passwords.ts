import { hash, verify } from '@node-rs/argon2';

/** argon2id with OWASP's parameters: 19 MiB, 2 iterations, parallelism 1. */
// algorithm 2 is Argon2id (the package's const enum cannot be imported under verbatimModuleSyntax).
const options = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashSecret(secret: string): Promise<string> {
  return measured('hash', () => hash(secret, options));
}

export async function verifySecret(hashed: string, secret: string): Promise<boolean> {
  try {
    return await measured('verify', () => verify(hashed, secret));
  } catch {
    return false;
  }
}

export type Argon2Operation = 'hash' | 'verify';
export type Argon2Observer = (operation: Argon2Operation, seconds: number) => void;

// Process-wide on purpose: every app context in the process shares libuv's one thread pool, so
// the queue depth of one is the queue depth of all.
const observers = new Set<Argon2Observer>();
let inFlight = 0;

/** Hears how long each hash or verification took (queueing included); returns the way to stop. */
export function observeArgon2(observer: Argon2Observer): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

/** Hashes and verifications started and not finished: above the thread pool's size, they queue. */
export function argon2InFlight(): number {
  return inFlight;
}

async function measured<T>(operation: Argon2Operation, work: () => Promise<T>): Promise<T> {
  const started = process.hrtime.bigint();
  inFlight += 1;
  try {
    return await work();
  } finally {
    inFlight -= 1;
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
  dummyHash ??= hashSecret('passgate-timing-equaliser');
  return dummyHash;
}
