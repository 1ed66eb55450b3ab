import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { reusableQuery } from '../db/reusable-query.ts';
import { failingFastAfterOutage } from './request-outage.ts';

/**
 * Storage for the provider's artifacts: one table keyed by model and id (DESIGN.md section 10).
 * With REDIS_URL, the short-lived ones (interactions, codes, access tokens) go to Redis instead;
 * sessions, grants and refresh tokens stay in the database, so losing or flushing Redis signs nobody
 * out (DESIGN.md section 4). Clients are not stored here: the provider reads them from the clients
 * table through `loadClient`.
 */

export type ClientLoader = (clientId: string) => Promise<AdapterPayload | undefined>;

/**
 * What may live in Redis: artifacts that expire within minutes (an hour for access tokens) and whose
 * loss costs at most a restarted sign-in or a refresh. Anything not named here, including models a
 * later provider version adds, stays in the database.
 */
const SHORT_LIVED = new Set([
  'Interaction',
  'AuthorizationCode',
  'AccessToken',
  'ClientCredentials',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PushedAuthorizationRequest',
  'ReplayDetection',
  'LogoutRequest',
]);

/** The longest a Redis key may live, should the provider ever hand a short-lived artifact no expiry. */
const MAX_REDIS_TTL_SECONDS = 24 * 3600;

export const storedInRedis = (model: string) => SHORT_LIVED.has(model);

class ClientAdapter implements Adapter {
  constructor(private readonly loadClient: ClientLoader) {}
  find(id: string) {
    return this.loadClient(id);
  }
  async upsert(): Promise<void> {
    throw new Error('Clients are managed with the passgate command line');
  }
  async findByUserCode() {
    return undefined;
  }
  async findByUid() {
    return undefined;
  }
  async consume(): Promise<void> {}
  async destroy(): Promise<void> {}
  async revokeByGrantId(): Promise<void> {}
}

type PayloadRow = Database['oidc_payloads'];

/** A lookup of one model's artifact by one of its keys, compiled once per key column. */
function findPayloadBy(column: 'id' | 'uid' | 'user_code') {
  return reusableQuery((db, key: { model: string; value: string }) =>
    db.selectFrom('oidc_payloads').select(['payload', 'expires_at', 'consumed_at']).where('model', '=', key.model).where(column, '=', key.value),
  );
}

/** The adapter's statements, compiled once: they run on every token, userinfo and sign-in request. */
const payloadQueries = {
  upsert: reusableQuery((db, row: PayloadRow) =>
    db
      .insertInto('oidc_payloads')
      .values({
        model: row.model,
        id: row.id,
        payload: row.payload,
        grant_id: row.grant_id,
        user_code: row.user_code,
        uid: row.uid,
        account_id: row.account_id,
        expires_at: row.expires_at,
        consumed_at: row.consumed_at,
      })
      .onConflict((oc) =>
        oc.columns(['model', 'id']).doUpdateSet({
          payload: row.payload,
          grant_id: row.grant_id,
          user_code: row.user_code,
          uid: row.uid,
          account_id: row.account_id,
          expires_at: row.expires_at,
        }),
      ),
  ),
  findById: findPayloadBy('id'),
  findByUid: findPayloadBy('uid'),
  findByUserCode: findPayloadBy('user_code'),
  // Only an artifact nobody has consumed yet: of two requests presenting it at once, one changes the row.
  consume: reusableQuery((db, change: { model: string; id: string; consumedAt: number }) =>
    db.updateTable('oidc_payloads').set({ consumed_at: change.consumedAt }).where('model', '=', change.model).where('id', '=', change.id).where('consumed_at', 'is', null),
  ),
  grantOf: reusableQuery((db, key: { model: string; id: string }) => db.selectFrom('oidc_payloads').select('grant_id').where('model', '=', key.model).where('id', '=', key.id)),
  destroy: reusableQuery((db, key: { model: string; id: string }) => db.deleteFrom('oidc_payloads').where('model', '=', key.model).where('id', '=', key.id)),
};

class DatabaseAdapter implements Adapter {
  constructor(
    private readonly store: AdapterStore,
    private readonly model: string,
  ) {}

  private get db() {
    return this.store.db;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    await payloadQueries.upsert(this.db, {
      model: this.model,
      id,
      payload: JSON.stringify(payload),
      grant_id: payload.grantId ?? null,
      user_code: payload.userCode ?? null,
      uid: payload.uid ?? null,
      account_id: payload.accountId ?? null,
      expires_at: expiresIn ? Date.now() + expiresIn * 1000 : null,
      consumed_at: null,
    });
  }

  private async findWith(query: typeof payloadQueries.findById, value: string): Promise<AdapterPayload | undefined> {
    const [row] = (await query(this.db, { model: this.model, value })).rows;
    if (!row || (row.expires_at !== null && row.expires_at <= Date.now())) return undefined;
    const payload = JSON.parse(row.payload) as AdapterPayload;
    return row.consumed_at ? { ...payload, consumed: Math.floor(row.consumed_at / 1000) } : payload;
  }

  find(id: string) {
    return this.findWith(payloadQueries.findById, id);
  }
  findByUid(uid: string) {
    return this.findWith(payloadQueries.findByUid, uid);
  }
  findByUserCode(userCode: string) {
    return this.findWith(payloadQueries.findByUserCode, userCode);
  }
  async consume(id: string): Promise<void> {
    const { numAffectedRows } = await payloadQueries.consume(this.db, { model: this.model, id, consumedAt: Date.now() });
    if (numAffectedRows !== undefined && numAffectedRows > 0n) return;
    const [row] = (await payloadQueries.grantOf(this.db, { model: this.model, id })).rows;
    await alreadyUsed(this.store, row?.grant_id ?? undefined);
  }
  async destroy(id: string): Promise<void> {
    await payloadQueries.destroy(this.db, { model: this.model, id });
  }
  revokeByGrantId(grantId: string): Promise<void> {
    return revokeGrant(this.store, grantId);
  }
}

class RedisAdapter implements Adapter {
  constructor(
    private readonly store: AdapterStore & { redis: Redis },
    private readonly model: string,
  ) {}

  private get redis() {
    return this.store.redis;
  }

  private key(id: string) {
    return `oidc:${this.model}:${id}`;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const ttl = expiresIn > 0 ? Math.min(expiresIn, MAX_REDIS_TTL_SECONDS) : MAX_REDIS_TTL_SECONDS;
    const key = this.key(id);
    const multi = this.redis.multi();
    multi.set(key, JSON.stringify(payload), 'EX', ttl);
    // Indexes of keys, so a grant or an account can be revoked at once. Each lives as long as its
    // longest-lived member and no longer; a member that expired first is only a dangling name.
    if (payload.grantId) addToIndex(multi, grantIndexKey(payload.grantId), key, ttl);
    if (payload.accountId) addToIndex(multi, accountIndexKey(payload.accountId), key, ttl);
    if (payload.userCode) multi.set(`oidc:userCode:${payload.userCode}`, id, 'EX', ttl);
    if (payload.uid) multi.set(`oidc:uid:${payload.uid}`, id, 'EX', ttl);
    await execOrThrow(multi);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const value = await this.redis.get(this.key(id));
    return value ? (JSON.parse(value) as AdapterPayload) : undefined;
  }
  async findByUid(uid: string) {
    const id = await this.redis.get(`oidc:uid:${uid}`);
    return id ? this.find(id) : undefined;
  }
  async findByUserCode(userCode: string) {
    const id = await this.redis.get(`oidc:userCode:${userCode}`);
    return id ? this.find(id) : undefined;
  }
  async consume(id: string): Promise<void> {
    const key = this.key(id);
    const value = await this.redis.get(key);
    const payload = value ? (JSON.parse(value) as AdapterPayload) : undefined;
    // SET NX is the one atomic step: of two requests presenting the artifact at once, one sets the
    // mark. It lives as long as the artifact could.
    const ttl = await this.redis.pttl(key);
    const first = payload && (await this.redis.set(`${key}:consumed`, '1', 'PX', ttl > 0 ? ttl : MAX_REDIS_TTL_SECONDS * 1000, 'NX')) === 'OK';
    if (!first) return alreadyUsed(this.store, payload?.grantId);
    await this.redis.set(key, JSON.stringify({ ...payload, consumed: Math.floor(Date.now() / 1000) }), 'KEEPTTL');
  }
  async destroy(id: string): Promise<void> {
    await this.redis.del(this.key(id));
  }
  revokeByGrantId(grantId: string): Promise<void> {
    return revokeGrant(this.store, grantId);
  }
}

/**
 * SADD plus an expiry raised to `ttl` when shorter (a new set has none): atomic, so two instances
 * adding at once cannot leave the set with the shorter expiry.
 */
const EXTEND_TTL = `local t = redis.call('TTL', KEYS[1]) if t < tonumber(ARGV[1]) then redis.call('EXPIRE', KEYS[1], ARGV[1]) end return t`;

function addToIndex(multi: ReturnType<Redis['multi']>, index: string, member: string, ttl: number) {
  multi.sadd(index, member);
  multi.eval(EXTEND_TTL, 1, index, ttl);
}

/** MULTI answers each command's error in its results instead of rejecting. */
async function execOrThrow(multi: ReturnType<Redis['multi']>): Promise<void> {
  const results = await multi.exec();
  const failed = results?.find(([error]) => error);
  if (failed?.[0]) throw failed[0];
}

/**
 * A code or refresh token presented again, or by two requests at once, is used only once: the
 * provider checks `consumed` when it reads the artifact, but two requests can both read it before
 * either consumes it, and each would get tokens of its own (two chains from one refresh token, two
 * token sets from one code, and no reuse ever detected). The request that loses is refused like any
 * reuse (RFC 6749 section 4.1.2, RFC 9700 section 4.14.2): invalid_grant, and everything issued
 * under the grant is revoked, the winner's new tokens included, since one of the two was a thief.
 */
async function alreadyUsed(store: AdapterStore, grantId: string | undefined): Promise<never> {
  if (grantId) await revokeGrant(store, grantId);
  throw new errors.InvalidGrant('the code or refresh token was already used');
}

/**
 * Everything issued under a grant, in both stores, and the grant itself: the provider asks each
 * model, but one call must suffice. The grant goes too because a request racing this one may still
 * save tokens under it after these deletes (the winner of a reused refresh token or code writes its
 * new tokens after the loser has revoked): the provider looks the grant up on every later use of a
 * refresh or access token, and without it refuses them.
 */
async function revokeGrant(store: AdapterStore, grantId: string): Promise<void> {
  await store.db.deleteFrom('oidc_payloads').where('grant_id', '=', grantId).execute();
  await store.db.deleteFrom('oidc_payloads').where('model', '=', 'Grant').where('id', '=', grantId).execute();
  if (!store.redis) return;
  const index = grantIndexKey(grantId);
  const keys = await store.redis.smembers(index);
  await store.redis.del(...keys, index, `oidc:Grant:${grantId}`);
}

// Not `oidc:grant:`: that name held lists (RPUSH) before, and a set command on one fails.
const grantIndexKey = (grantId: string) => `oidc:grant-index:${grantId}`;
const accountIndexKey = (accountId: string) => `oidc:account:${accountId}`;

export interface AdapterStore {
  redis?: Redis | undefined;
  db: Db;
}

/** What the rest of the server may ask of the provider's storage. */
export interface OidcStore {
  /**
   * Deletes everything the provider holds for an account, in the database (sessions, grants, refresh
   * tokens) and in Redis (access tokens, codes). Pass the transaction that deletes the account;
   * Redis is not transactional, so call it again after that transaction commits (it is idempotent).
   */
  forgetAccount(accountId: string, executor?: Kysely<Database>): Promise<void>;
  /**
   * Deletes grants and everything issued under them (refresh and access tokens, codes), in the
   * database and in Redis: a session signed out from the Security page takes its grants' tokens
   * along. Like forgetAccount, call it in the transaction and again after it commits.
   */
  revokeGrants(grantIds: string[], executor?: Kysely<Database>): Promise<void>;
}

export function createOidcStore(store: AdapterStore): OidcStore {
  return {
    async forgetAccount(accountId, executor = store.db) {
      await executor.deleteFrom('oidc_payloads').where('account_id', '=', accountId).execute();
      if (!store.redis) return;
      const accountKey = accountIndexKey(accountId);
      const keys = await store.redis.smembers(accountKey);
      await store.redis.del(...keys, accountKey);
    },
    async revokeGrants(grantIds, executor = store.db) {
      if (grantIds.length === 0) return;
      await executor.deleteFrom('oidc_payloads').where('grant_id', 'in', grantIds).execute();
      await executor.deleteFrom('oidc_payloads').where('model', '=', 'Grant').where('id', 'in', grantIds).execute();
      if (!store.redis) return;
      for (const grantId of grantIds) {
        const index = grantIndexKey(grantId);
        const keys = await store.redis.smembers(index);
        await store.redis.del(...keys, index);
      }
    },
  };
}

/**
 * The provider's keys (ids, uids, user codes, client ids it is asked for) come from requests too: a
 * form field or a Basic credential. One holding U+0000 names nothing (no id the provider makes, nor
 * a client id the command line accepts, has it), and PostgreSQL fails a statement that compares
 * with it: such a key is not looked up at all, so it is an unknown token or client on either engine.
 */
function refusingImpossibleKeys(adapter: Adapter): Adapter {
  const impossible = (key: string) => typeof key === 'string' && key.includes('\u0000');
  return {
    upsert: (id, payload, expiresIn) => adapter.upsert(id, payload, expiresIn),
    find: async (id) => (impossible(id) ? undefined : adapter.find(id)),
    findByUid: async (uid) => (impossible(uid) ? undefined : adapter.findByUid(uid)),
    findByUserCode: async (userCode) => (impossible(userCode) ? undefined : adapter.findByUserCode(userCode)),
    consume: async (id) => (impossible(id) ? undefined : adapter.consume(id)),
    destroy: async (id) => (impossible(id) ? undefined : adapter.destroy(id)),
    revokeByGrantId: async (grantId) => (impossible(grantId) ? undefined : adapter.revokeByGrantId(grantId)),
  };
}

/** The adapter factory handed to oidc-provider. */
export function createAdapterFactory(store: AdapterStore, loadClient: ClientLoader) {
  return function adapterFor(model: string): Adapter {
    if (model === 'Client') return failingFastAfterOutage(refusingImpossibleKeys(new ClientAdapter(loadClient)));
    const { redis } = store;
    return failingFastAfterOutage(refusingImpossibleKeys(redis && storedInRedis(model) ? new RedisAdapter({ ...store, redis }, model) : new DatabaseAdapter(store, model)));
  };
}

/** Deletes expired artifacts from the table (Redis expires its own keys). */
export async function purgeExpiredPayloads(db: Db): Promise<number> {
  const result = await db.deleteFrom('oidc_payloads').where('expires_at', '<', Date.now()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
