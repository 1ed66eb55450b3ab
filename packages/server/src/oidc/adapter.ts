import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

/**
 * Storage for the provider's short-lived artifacts (sessions, interactions, codes, tokens, grants):
 * one table keyed by model and id (DESIGN.md section 10), or Redis when REDIS_URL is set. Clients
 * are not stored here: the provider reads them from the clients table through `loadClient`.
 */

export type ClientLoader = (clientId: string) => Promise<AdapterPayload | undefined>;

const GRANTABLE = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'ClientCredentials',
  'BackchannelAuthenticationRequest',
]);

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

class DatabaseAdapter implements Adapter {
  constructor(
    private readonly db: Db,
    private readonly model: string,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const row = {
      model: this.model,
      id,
      payload: JSON.stringify(payload),
      grant_id: payload.grantId ?? null,
      user_code: payload.userCode ?? null,
      uid: payload.uid ?? null,
      account_id: payload.accountId ?? null,
      expires_at: expiresIn ? Date.now() + expiresIn * 1000 : null,
      consumed_at: null,
    };
    await this.db
      .insertInto('oidc_payloads')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['model', 'id']).doUpdateSet({
          payload: row.payload,
          grant_id: row.grant_id,
          user_code: row.user_code,
          uid: row.uid,
          account_id: row.account_id,
          expires_at: row.expires_at,
        }),
      )
      .execute();
  }

  private async findWhere(column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
    const row = await this.db
      .selectFrom('oidc_payloads')
      .select(['payload', 'expires_at', 'consumed_at'])
      .where('model', '=', this.model)
      .where(column, '=', value)
      .executeTakeFirst();
    if (!row || (row.expires_at !== null && row.expires_at <= Date.now())) return undefined;
    const payload = JSON.parse(row.payload) as AdapterPayload;
    return row.consumed_at ? { ...payload, consumed: Math.floor(row.consumed_at / 1000) } : payload;
  }

  find(id: string) {
    return this.findWhere('id', id);
  }
  findByUid(uid: string) {
    return this.findWhere('uid', uid);
  }
  findByUserCode(userCode: string) {
    return this.findWhere('user_code', userCode);
  }
  async consume(id: string): Promise<void> {
    await this.db.updateTable('oidc_payloads').set({ consumed_at: Date.now() }).where('model', '=', this.model).where('id', '=', id).execute();
  }
  async destroy(id: string): Promise<void> {
    await this.db.deleteFrom('oidc_payloads').where('model', '=', this.model).where('id', '=', id).execute();
  }
  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.deleteFrom('oidc_payloads').where('grant_id', '=', grantId).execute();
  }
}

class RedisAdapter implements Adapter {
  constructor(
    private readonly redis: Redis,
    private readonly model: string,
  ) {}

  private key(id: string) {
    return `oidc:${this.model}:${id}`;
  }

  /** Keeps `set` (an index of keys) alive as long as its longest-lived member; for good when a member never expires. */
  private async extendIndex(multi: ReturnType<Redis['multi']>, set: string, expiresIn: number): Promise<void> {
    if (!expiresIn) {
      multi.persist(set);
      return;
    }
    const ttl = await this.redis.ttl(set);
    // -1: the index already lives for good; -2: it is new.
    if (ttl !== -1 && ttl < expiresIn) multi.expire(set, expiresIn);
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const key = this.key(id);
    const multi = this.redis.multi();
    multi.set(key, JSON.stringify(payload));
    if (expiresIn) multi.expire(key, expiresIn);
    if (GRANTABLE.has(this.model) && payload.grantId) {
      const grantKey = `oidc:grant:${payload.grantId}`;
      multi.rpush(grantKey, key);
      // The grant index lives as long as its longest-lived member.
      const ttl = await this.redis.ttl(grantKey);
      if (expiresIn && ttl < expiresIn) multi.expire(grantKey, expiresIn);
    }
    if (payload.accountId) {
      const accountKey = accountIndexKey(payload.accountId);
      multi.sadd(accountKey, key);
      await this.extendIndex(multi, accountKey, expiresIn);
    }
    if (payload.userCode) {
      multi.set(`oidc:userCode:${payload.userCode}`, id);
      if (expiresIn) multi.expire(`oidc:userCode:${payload.userCode}`, expiresIn);
    }
    if (payload.uid) {
      multi.set(`oidc:uid:${payload.uid}`, id);
      if (expiresIn) multi.expire(`oidc:uid:${payload.uid}`, expiresIn);
    }
    await multi.exec();
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
    if (!value) return;
    const ttl = await this.redis.ttl(key);
    const payload = { ...(JSON.parse(value) as AdapterPayload), consumed: Math.floor(Date.now() / 1000) };
    if (ttl > 0) await this.redis.set(key, JSON.stringify(payload), 'EX', ttl);
    else await this.redis.set(key, JSON.stringify(payload));
  }
  async destroy(id: string): Promise<void> {
    await this.redis.del(this.key(id));
  }
  async revokeByGrantId(grantId: string): Promise<void> {
    const grantKey = `oidc:grant:${grantId}`;
    const keys = await this.redis.lrange(grantKey, 0, -1);
    await this.redis.del(...keys, grantKey);
  }
}

const accountIndexKey = (accountId: string) => `oidc:account:${accountId}`;

export interface AdapterStore {
  redis?: Redis | undefined;
  db: Db;
}

/** What the rest of the server may ask of the provider's storage. */
export interface OidcStore {
  /**
   * Deletes everything the provider holds for an account: sessions, grants, access and refresh
   * tokens, authorization codes. In the database, pass the transaction that deletes the account;
   * Redis is not transactional, so call it again after that transaction commits (it is idempotent).
   */
  forgetAccount(accountId: string, executor?: Kysely<Database>): Promise<void>;
}

export function createOidcStore(store: AdapterStore): OidcStore {
  return {
    async forgetAccount(accountId, executor = store.db) {
      if (!store.redis) {
        await executor.deleteFrom('oidc_payloads').where('account_id', '=', accountId).execute();
        return;
      }
      const accountKey = accountIndexKey(accountId);
      const keys = await store.redis.smembers(accountKey);
      await store.redis.del(...keys, accountKey);
    },
  };
}

/** The adapter factory handed to oidc-provider. */
export function createAdapterFactory(store: AdapterStore, loadClient: ClientLoader) {
  return function adapterFor(model: string): Adapter {
    if (model === 'Client') return new ClientAdapter(loadClient);
    return store.redis ? new RedisAdapter(store.redis, model) : new DatabaseAdapter(store.db, model);
  };
}

/** Deletes expired artifacts from the table (Redis expires its own keys). */
export async function purgeExpiredPayloads(db: Db): Promise<number> {
  const result = await db.deleteFrom('oidc_payloads').where('expires_at', '<', Date.now()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
