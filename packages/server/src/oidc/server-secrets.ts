import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Db } from '../db/database.ts';
import type { Config } from '../config.ts';
import { randomToken } from '../lib/ids.ts';
import { createServerKeys, type ServerKeys } from '../lib/server-keys.ts';

/**
 * Signing keys, cookie keys and the application secret: supplied by the operator, or generated on
 * first start and stored in the database so that every instance (and every restart) uses the same.
 * Stored keys are sealed with APP_SECRET, which in production never comes from the database.
 */
export interface ServerSecrets {
  jwks: { keys: Jwk[] };
  cookieKeys: string[];
  appSecret: string;
}

type Jwk = Record<string, unknown>;

/**
 * The stored signing keys in the order the provider gets them (it signs with the first key of each
 * algorithm): those that sign, then the next ones (published, not signing yet), then those that
 * only verify, with when each of these stopped signing (ms).
 */
interface StoredSigningKeys {
  keys: Jwk[];
  supersededAt: Record<string, number>;
  /** The kids of keys published ahead of signing: the next rotation makes them sign. */
  next: string[];
}

/** Keys that cannot be read or rotated: a wrong APP_SECRET, or keys that come from the environment. */
export class ServerSecretsError extends Error {}

const JWKS_ROW = 'oidc_jwks';
const COOKIES_ROW = 'cookie_keys';
const APP_SECRET_ROW = 'app_secret';
/**
 * Cookie keys: the provider signs with the first and verifies with all. The second is the next one,
 * known to every instance before it signs: a rotation makes it the first and puts a new next one
 * second, so instances restarted after a rotation sign cookies that those not restarted yet accept.
 * The two after them keep sessions signed before a rotation or two valid.
 */
const COOKIE_KEYS_KEPT = 4;

interface Deps {
  db: Db;
  config: Config;
  /** Derived from APP_SECRET: seals the stored keys. */
  keys: ServerKeys;
}

// Rows written before the keys were sealed hold clear JSON; sealed ones are `v1.iv.tag.body`.
const isSealed = (value: string) => value.startsWith('v1.');

function openRow<T>(keys: ServerKeys, name: string, value: string): T {
  try {
    return JSON.parse(isSealed(value) ? keys.decrypt(value) : value) as T;
  } catch {
    throw new ServerSecretsError(
      `The stored '${name}' in server_secrets cannot be decrypted with this APP_SECRET. Start with the APP_SECRET it was sealed with (see 'Keys and backups' in the README).`,
    );
  }
}

/**
 * Reads a stored secret, lets `change` derive the next value (undefined: unchanged) and writes it
 * back sealed. The write is a compare-and-set on the stored text, which differs on every write (a
 * random IV), so an instance starting during a rotation never overwrites the rotated keys.
 */
async function updateStored<T>(deps: Deps, name: string, create: (() => T) | undefined, change: (current: T) => T | undefined): Promise<T | undefined> {
  const { db, keys } = deps;
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirst();
    if (!row) {
      if (!create) return undefined;
      // Two instances starting together may both generate: the first insert wins and the loop reads it back.
      await db
        .insertInto('server_secrets')
        .values({ name, value: keys.encrypt(JSON.stringify(create())), created_at: Date.now() })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      continue;
    }
    const current = openRow<T>(keys, name, row.value);
    const next = change(current);
    if (next === undefined && isSealed(row.value)) return current;
    const value = next ?? current;
    const result = await db
      .updateTable('server_secrets')
      .set({ value: keys.encrypt(JSON.stringify(value)) })
      .where('name', '=', name)
      .where('value', '=', row.value)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) return value;
  }
  throw new ServerSecretsError(`server_secrets '${name}' kept changing while being updated; try again`);
}

function generateSigningKeys(): Jwk[] {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  const kid = () => randomBytes(8).toString('hex');
  return [
    { ...rsa, kid: kid(), alg: 'RS256', use: 'sig' },
    { ...ec, kid: kid(), alg: 'ES256', use: 'sig' },
  ];
}

const freshSigningKeys = (): StoredSigningKeys => ({ keys: generateSigningKeys(), supersededAt: {}, next: [] });

// Earlier versions stored a bare JWKS ({"keys":[…]}), then no next keys.
const normalized = (stored: Partial<StoredSigningKeys>): StoredSigningKeys => ({ keys: stored.keys ?? [], supersededAt: stored.supersededAt ?? {}, next: stored.next ?? [] });

/**
 * How long a superseded signing key stays published: the longest lifetime of a token whose
 * signature someone checks. Refresh tokens are opaque (looked up, never verified by signature),
 * so ID tokens and access tokens decide.
 */
export function signingKeyOverlapMs(config: Config): number {
  return Math.max(config.ttl.idToken, config.ttl.accessToken) * 1000;
}

function withoutRetired(stored: StoredSigningKeys, now: number, overlapMs: number): StoredSigningKeys | undefined {
  const retired = new Set(Object.entries(stored.supersededAt).filter(([, at]) => at + overlapMs <= now).map(([kid]) => kid));
  if (retired.size === 0) return undefined;
  return {
    keys: stored.keys.filter((key) => !retired.has(key.kid as string)),
    supersededAt: Object.fromEntries(Object.entries(stored.supersededAt).filter(([kid]) => !retired.has(kid))),
    next: stored.next,
  };
}

/**
 * A rotation in two steps, each followed by a restart of every instance, so that no instance ever
 * signs with a key another one does not publish yet: the first adds new keys after the signing
 * ones (published by every instance once restarted, signing nowhere); the second makes them sign,
 * and the keys that signed before only verify until the overlap has passed.
 */
function rotated(set: StoredSigningKeys, now: number): StoredSigningKeys {
  const isNext = (key: Jwk) => set.next.includes(key.kid as string);
  if (set.next.length === 0) {
    const fresh = generateSigningKeys();
    const signing = set.keys.filter((key) => set.supersededAt[key.kid as string] === undefined);
    const verifying = set.keys.filter((key) => set.supersededAt[key.kid as string] !== undefined);
    return { keys: [...signing, ...fresh, ...verifying], supersededAt: set.supersededAt, next: fresh.map((key) => key.kid as string) };
  }
  const supersededAt = { ...set.supersededAt };
  for (const key of set.keys) if (!isNext(key)) supersededAt[key.kid as string] ??= now;
  return { keys: [...set.keys.filter(isNext), ...set.keys.filter((key) => !isNext(key))], supersededAt, next: [] };
}

export async function loadServerSecrets(db: Db, config: Config, options: { now?: number } = {}): Promise<ServerSecrets> {
  const now = options.now ?? Date.now();
  const appSecret = config.appSecret ?? (await developmentAppSecret(db, config));
  const deps: Deps = { db, config, keys: createServerKeys(appSecret) };

  const overlap = signingKeyOverlapMs(config);
  // Keys the environment supplies are not generated; stored ones left from before are still sealed.
  const stored = await updateStored<Partial<StoredSigningKeys>>(deps, JWKS_ROW, config.oidcJwks ? undefined : freshSigningKeys, (current) => {
    const set = normalized(current);
    return withoutRetired(set, now, overlap) ?? (current.supersededAt ? undefined : set);
  });
  const storedCookies = await updateStored<string[]>(deps, COOKIES_ROW, config.cookieKeys ? undefined : () => [randomToken(32), randomToken(32)], () => undefined);

  return {
    jwks: config.oidcJwks ?? { keys: normalized(stored ?? {}).keys },
    cookieKeys: config.cookieKeys ?? storedCookies ?? [],
    appSecret,
  };
}

/**
 * Development only: a generated APP_SECRET kept in the database, so that zero configuration works.
 * It cannot seal itself; production refuses to start without APP_SECRET or APP_SECRET_FILE.
 */
async function developmentAppSecret(db: Db, config: Config): Promise<string> {
  if (config.isProduction) throw new ServerSecretsError('production mode needs APP_SECRET or APP_SECRET_FILE');
  const existing = await db.selectFrom('server_secrets').select('value').where('name', '=', APP_SECRET_ROW).executeTakeFirst();
  if (existing) return JSON.parse(existing.value) as string;
  await db
    .insertInto('server_secrets')
    .values({ name: APP_SECRET_ROW, value: JSON.stringify(randomToken(48)), created_at: Date.now() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const stored = await db.selectFrom('server_secrets').select('value').where('name', '=', APP_SECRET_ROW).executeTakeFirstOrThrow();
  return JSON.parse(stored.value) as string;
}

export interface SigningKeyView {
  kid: string;
  alg: string;
  /** Signing keys sign new tokens; next ones are published and sign after the next rotation; verifying ones only stay published until `retiresAt`. */
  status: 'signing' | 'next' | 'verifying';
  retiresAt?: number;
}

function describeSigningKeys(stored: StoredSigningKeys, overlapMs: number): SigningKeyView[] {
  return stored.keys.map((key) => {
    const kid = key.kid as string;
    const alg = key.alg as string;
    const supersededAt = stored.supersededAt[kid];
    if (supersededAt !== undefined) return { kid, alg, status: 'verifying', retiresAt: supersededAt + overlapMs };
    return { kid, alg, status: stored.next.includes(kid) ? 'next' : 'signing' };
  });
}

/**
 * The command line's key management. Running instances read keys at start-up: they sign with and
 * publish the new keys once restarted.
 */
export function createKeyService(deps: Deps) {
  const overlap = signingKeyOverlapMs(deps.config);
  const refuseFromEnvironment = (variable: string) => {
    throw new ServerSecretsError(`${variable} is set: those keys come from the environment and are rotated there, not by this command`);
  };

  return {
    async listSigningKeys(): Promise<SigningKeyView[]> {
      if (deps.config.oidcJwks) refuseFromEnvironment('OIDC_JWKS');
      const stored = await updateStored<Partial<StoredSigningKeys>>(deps, JWKS_ROW, freshSigningKeys, () => undefined);
      return describeSigningKeys(normalized(stored ?? {}), overlap);
    },

    /**
     * One step of a rotation (see `rotated`): new RS256 and ES256 keys published after the signing
     * ones, or, when such next keys exist, those made the signing ones (oidc-provider signs with the
     * first key of an algorithm in `jwks.keys` order and publishes all of them), the previous keys
     * verifying tokens signed before until the overlap has passed. Keys past their overlap leave now.
     */
    async rotateSigningKeys(options: { now?: number } = {}): Promise<{ step: 'published' | 'signing'; keys: SigningKeyView[] }> {
      if (deps.config.oidcJwks) refuseFromEnvironment('OIDC_JWKS');
      const now = options.now ?? Date.now();
      let step: 'published' | 'signing' = 'published';
      const stored = await updateStored<Partial<StoredSigningKeys>>(deps, JWKS_ROW, freshSigningKeys, (current) => {
        const set = withoutRetired(normalized(current), now, overlap) ?? normalized(current);
        step = set.next.length > 0 ? 'signing' : 'published';
        return rotated(set, now);
      });
      return { step, keys: describeSigningKeys(normalized(stored ?? {}), overlap) };
    },

    /** Removes the superseded keys whose overlap has passed (start-up does the same). */
    async retireSigningKeys(options: { now?: number } = {}): Promise<SigningKeyView[]> {
      if (deps.config.oidcJwks) refuseFromEnvironment('OIDC_JWKS');
      const now = options.now ?? Date.now();
      const stored = await updateStored<Partial<StoredSigningKeys>>(deps, JWKS_ROW, freshSigningKeys, (current) => withoutRetired(normalized(current), now, overlap));
      return describeSigningKeys(normalized(stored ?? {}), overlap);
    },

    /** The next cookie key signs, a new next one follows it, the one that signed and one before it still verify (COOKIE_KEYS_KEPT). */
    async rotateCookieKeys(): Promise<{ kept: number }> {
      if (deps.config.cookieKeys) refuseFromEnvironment('COOKIE_KEYS');
      const keys = await updateStored<string[]>(deps, COOKIES_ROW, () => [randomToken(32), randomToken(32)], (current) => {
        const [signing, next, ...older] = current;
        return [next ?? randomToken(32), randomToken(32), ...(signing ? [signing] : []), ...older].slice(0, COOKIE_KEYS_KEPT);
      });
      return { kept: keys?.length ?? 0 };
    },
  };
}

export type KeyService = ReturnType<typeof createKeyService>;
