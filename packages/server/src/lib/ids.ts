import { randomBytes, randomUUID } from 'node:crypto';

export const newId = (): string => randomUUID();

/** An unguessable URL-safe token with `bytes` bytes of entropy. */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');
