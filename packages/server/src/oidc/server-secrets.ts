import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Db } from '../db/database.ts';
import type { Config } from '../config.ts';
import { randomToken } from '../lib/ids.ts';

/**
 * Signing keys, cookie keys and the application secret: supplied by the operator, or generated on
 * first start and stored in the database so that every instance (and every restart) uses the same.
 */
export interface ServerSecrets {
  jwks: { keys: Record<string, unknown>[] };
  cookieKeys: string[];
  appSecret: string;
}

async function loadOrCreate<T>(db: Db, name: string, create: () => T): Promise<T> {
  const existing = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirst();
  if (existing) return JSON.parse(existing.value) as T;
  // Two instances starting together may both generate: the first insert wins and both read it back.
  await db
    .insertInto('server_secrets')
    .values({ name, value: JSON.stringify(create()), created_at: Date.now() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const stored = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return JSON.parse(stored.value) as T;
}

function generateJwks(): ServerSecrets['jwks'] {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  const kid = () => randomBytes(8).toString('hex');
  return {
    keys: [
      { ...rsa, kid: kid(), alg: 'RS256', use: 'sig' },
      { ...ec, kid: kid(), alg: 'ES256', use: 'sig' },
    ],
  };
}

export async function loadServerSecrets(db: Db, config: Config): Promise<ServerSecrets> {
  const jwks = config.oidcJwks ?? (await loadOrCreate(db, 'oidc_jwks', generateJwks));
  const cookieKeys = config.cookieKeys ?? (await loadOrCreate(db, 'cookie_keys', () => [randomToken(32), randomToken(32)]));
  const appSecret = config.appSecret ?? (await loadOrCreate(db, 'app_secret', () => randomToken(48)));
  return { jwks, cookieKeys, appSecret };
}
