import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Db } from '../db/database.ts';
import { reusableQuery } from '../db/reusable-query.ts';

/**
 * The DPoP proofs already used at the identity API (RFC 9449 section 11.1), so a proof seen on the
 * wire cannot be sent again. Kept where every instance sees them: in Redis with REDIS_URL (as the
 * provider keeps its own replay records, oidc/adapter.ts), else in the provider's table in the
 * database, under a model of their own. Each expires when its proof would be refused as stale
 * anyway (Redis by TTL, the table by the same purge as the provider's artifacts, main.ts).
 */

const MODEL = 'DPoPProof';

/** Of two requests claiming the same id, one changes the row: a live one is left alone, an expired one is taken over. */
const claim = reusableQuery((db, row: { id: string; expiresAt: number; now: number }) =>
  db
    .insertInto('oidc_payloads')
    .values({ model: MODEL, id: row.id, payload: '{}', grant_id: null, user_code: null, uid: null, account_id: null, expires_at: row.expiresAt, consumed_at: null })
    .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet({ expires_at: row.expiresAt }).where('oidc_payloads.expires_at', '<=', row.now)),
);

/**
 * True the first time a proof (`jti`, by the key of thumbprint `jkt`) is presented, false when it
 * was before: one atomic step in either store, so two instances (or two requests) racing with the
 * same proof cannot both pass. `expiresAt` (seconds since the epoch) is when the proof goes stale.
 */
export async function firstUseOfProof(store: { db: Db; redis: Redis | undefined }, jkt: string, jti: string, expiresAt: number): Promise<boolean> {
  // Both come from the caller: hashed, so the key is short and holds nothing a store could misread.
  const id = createHash('sha256').update(`${jkt}\u0000${jti}`).digest('base64url');
  const now = Date.now();
  const ttlSeconds = Math.max(1, Math.ceil(expiresAt - now / 1000));
  if (store.redis) return (await store.redis.set(`oidc:${MODEL}:${id}`, '1', 'EX', ttlSeconds, 'NX')) === 'OK';
  const { numAffectedRows } = await claim(store.db, { id, expiresAt: now + ttlSeconds * 1000, now });
  return numAffectedRows !== undefined && numAffectedRows > 0n;
}
