import { hash, verify } from '@node-rs/argon2';

/** argon2id with OWASP's parameters: 19 MiB, 2 iterations, parallelism 1. */
// algorithm 2 is Argon2id (the package's const enum cannot be imported under verbatimModuleSyntax).
const options = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashSecret(secret: string): Promise<string> {
  return hash(secret, options);
}

export async function verifySecret(hashed: string, secret: string): Promise<boolean> {
  try {
    return await verify(hashed, secret);
  } catch {
    return false;
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
