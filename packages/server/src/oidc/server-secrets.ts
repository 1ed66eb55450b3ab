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

/** The stored signing keys, newest first, and when each older key stopped signing (ms). */
interface StoredSigningKeys {
  keys: Jwk[];
  supersededAt: Record<string, number>;
}

/** Keys that cannot be read or rotated: a wrong APP_SECRET, or keys that come from the environment. */
export class ServerSecretsError extends Error {}

const JWKS_ROW = 'oidc_jwks';
const COOKIES_ROW = 'cookie_keys';
const APP_SECRET_ROW = 'app_secret';
/** The provider signs cookies with the first key; the older ones keep sessions signed before a rotation or two valid. */
const COOKIE_KEYS_KEPT = 3;

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

const freshSigningKeys = (): StoredSigningKeys => ({ keys: generateSigningKeys(), supersededAt: {} });

// Earlier versions stored a bare JWKS ({"keys":[…]}).
const normalized = (stored: Partial<StoredSigningKeys>): StoredSigningKeys => ({ keys: stored.keys ?? [], supersededAt: stored.supersededAt ?? {} });

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
  };
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
  /** Signing keys sign new tokens; verifying ones only stay published until `retiresAt`. */
  status: 'signing' | 'verifying';
  retiresAt?: number;
}

function describeSigningKeys(stored: StoredSigningKeys, overlapMs: number): SigningKeyView[] {
  return stored.keys.map((key) => {
    const supersededAt = stored.supersededAt[key.kid as string];
    return supersededAt === undefined
      ? { kid: key.kid as string, alg: key.alg as string, status: 'signing' }
      : { kid: key.kid as string, alg: key.alg as string, status: 'verifying', retiresAt: supersededAt + overlapMs };
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
     * New RS256 and ES256 keys, placed first: oidc-provider signs with the first key of an
     * algorithm in `jwks.keys` order and publishes all of them, so the previous keys still verify
     * tokens signed before until the overlap has passed. Keys past their overlap leave now.
     */
    async rotateSigningKeys(options: { now?: number } = {}): Promise<SigningKeyView[]> {
      if (deps.config.oidcJwks) refuseFromEnvironment('OIDC_JWKS');
      const now = options.now ?? Date.now();
      const stored = await updateStored<Partial<StoredSigningKeys>>(deps, JWKS_ROW, freshSigningKeys, (current) => {
        const set = withoutRetired(normalized(current), now, overlap) ?? normalized(current);
        const supersededAt = { ...set.supersededAt };
        for (const key of set.keys) supersededAt[key.kid as string] ??= now;
        return { keys: [...generateSigningKeys(), ...set.keys], supersededAt };
      });
      return describeSigningKeys(normalized(stored ?? {}), overlap);
    },

    /** Removes the superseded keys whose overlap has passed (start-up does the same). */
    async retireSigningKeys(options: { now?: number } = {}): Promise<SigningKeyView[]> {
      if (deps.config.oidcJwks) refuseFromEnvironment('OIDC_JWKS');
      const now = options.now ?? Date.now();
      const stored = await updateStored<Partial<StoredSigningKeys>>(deps, JWKS_ROW, freshSigningKeys, (current) => withoutRetired(normalized(current), now, overlap));
      return describeSigningKeys(normalized(stored ?? {}), overlap);
    },

    /** A new cookie key first (the provider signs with it and verifies with all); the oldest beyond three are dropped. */
    async rotateCookieKeys(): Promise<{ kept: number }> {
      if (deps.config.cookieKeys) refuseFromEnvironment('COOKIE_KEYS');
      const keys = await updateStored<string[]>(deps, COOKIES_ROW, () => [randomToken(32)], (current) => [randomToken(32), ...current].slice(0, COOKIE_KEYS_KEPT));
      return { kept: keys?.length ?? 0 };
    },
  };
}

export type KeyService = ReturnType<typeof createKeyService>;
