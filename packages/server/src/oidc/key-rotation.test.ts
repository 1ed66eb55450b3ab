import { createPublicKey, generateKeyPairSync, verify, type JsonWebKey } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createDatabase, databaseEngine, migrateToLatest } from '../db/database.ts';
import { createServerKeys } from '../lib/server-keys.ts';
import { freshPostgresSchema, startTestServer, type TestServer } from '../../test/test-server.ts';
import { authorizationRequest, relyingParty, signIn } from '../../test/relying-party.ts';
import { createKeyService, loadServerSecrets, signingKeyOverlapMs, ServerSecretsError } from './server-secrets.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A database that outlives the servers started on it, as across a restart. */
async function ownDatabase(): Promise<string> {
  if (process.env.DATABASE_URL?.startsWith('postgres')) {
    const schema = await freshPostgresSchema(process.env.DATABASE_URL);
    cleanups.push(() => schema.drop());
    return schema.url;
  }
  const dir = mkdtempSync(join(tmpdir(), 'passgate-keys-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return `sqlite:${join(dir, 'keys.sqlite')}`;
}

interface JSONWebKeySet {
  keys: (JsonWebKey & { kid?: string })[];
}

/** What a relying party does with an ID token: find the key by `kid` in the JWKS and check the signature. */
function verifiesAgainst(jwt: string, jwks: JSONWebKeySet): boolean {
  const [header, payload, signature] = jwt.split('.') as [string, string, string];
  const { kid, alg } = JSON.parse(Buffer.from(header, 'base64url').toString()) as { kid: string; alg: string };
  const jwk = jwks.keys.find((k) => k.kid === kid);
  if (!jwk) return false;
  return verify('sha256', Buffer.from(`${header}.${payload}`), { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: alg === 'ES256' ? 'ieee-p1363' : 'der' }, Buffer.from(signature, 'base64url'));
}

/**
 * A server that can be restarted on the same database and port (the seeded redirect URIs follow
 * PUBLIC_URL), as an operator restarts instances after a rotation.
 */
async function restartableServer(): Promise<{ current(): TestServer; restart(): Promise<TestServer> }> {
  const databaseUrl = await ownDatabase();
  let server = await startTestServer({ databaseUrl });
  const port = Number(new URL(server.url).port);
  cleanups.push(() => server.close());
  return {
    current: () => server,
    async restart() {
      // fetch keeps connections alive in a pool: close them from the server side, then let a poll
      // phase pass (a timer, then the check phase after it) so the pool sees them closed; otherwise
      // it would send the next request, to the same port, on one of them.
      server.app.server.closeAllConnections();
      await new Promise((resolve) => setTimeout(resolve, 0));
      await new Promise((resolve) => setImmediate(resolve));
      await server.close();
      server = await startTestServer({ databaseUrl, port, seed: false });
      // Should the pool still hold a socket of the old server, a request on it fails once and the
      // socket is dropped: spend those here, not in the test's own requests.
      for (let tries = 0, ok = false; !ok && tries < 10; tries += 1) {
        ok = await fetch(`${server.url}/oidc/.well-known/openid-configuration`).then((r) => r.ok, () => false);
      }
      return server;
    },
  };
}

async function publishedJwks(server: TestServer): Promise<JSONWebKeySet> {
  const response = await fetch(`${server.url}/oidc/jwks`);
  expect(response.status).toBe(200);
  return (await response.json()) as JSONWebKeySet;
}

async function signInIdToken(server: TestServer): Promise<string> {
  const rp = await relyingParty(server.url, 'demo-app', 'demo-secret');
  const { tokens } = await signIn(server.url, rp, 'demo@example.com', 'Passw0rd!');
  expect(tokens.id_token).toBeTruthy();
  return tokens.id_token as string;
}

const kidOf = (jwt: string) => (JSON.parse(Buffer.from(jwt.split('.')[0] as string, 'base64url').toString()) as { kid: string }).kid;

describe('signing key rotation, end to end', () => {
  it('publishes new keys first and signs with them at the second step, so no instance ever signs with a key another does not publish; retires the old key after the overlap', async () => {
    const servers = await restartableServer();
    let server = servers.current();
    const restart = async () => {
      server = await servers.restart();
    };

    const before = await signInIdToken(server);
    const oldKid = kidOf(before);
    expect((await publishedJwks(server)).keys.map((k) => k.kid)).toContain(oldKid);

    // Step 1 (what the first `keys rotate-signing` calls): new keys, published, not signing.
    const published = await createKeyService(server.ctx).rotateSigningKeys();
    expect(published.step).toBe('published');
    expect(published.keys.filter((k) => k.status === 'next').map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
    expect(published.keys.find((k) => k.kid === oldKid)).toMatchObject({ status: 'signing' });
    const newKid = published.keys.find((k) => k.status === 'next' && k.alg === 'RS256')!.kid;
    await restart();
    // Every instance restarted after step 1 publishes the next keys and still signs with the old one.
    const afterStepOne = await publishedJwks(server);
    expect(afterStepOne.keys.map((k) => k.kid)).toEqual(expect.arrayContaining([oldKid, newKid]));
    expect(kidOf(await signInIdToken(server))).toBe(oldKid);

    // Step 2: they sign; the old keys only verify until the overlap has passed.
    const rotatedAt = Date.now();
    const signing = await createKeyService(server.ctx).rotateSigningKeys({ now: rotatedAt });
    expect(signing.step).toBe('signing');
    expect(signing.keys.find((k) => k.kid === newKid)).toMatchObject({ status: 'signing', alg: 'RS256' });
    expect(signing.keys.find((k) => k.kid === oldKid)).toMatchObject({ status: 'verifying', retiresAt: rotatedAt + signingKeyOverlapMs(server.ctx.config) });
    await restart();

    const jwks = await publishedJwks(server);
    for (const key of jwks.keys) expect(key).not.toHaveProperty('d');
    // A relying party holding a token from before the rotation still verifies it at the JWKS.
    expect(verifiesAgainst(before, jwks)).toBe(true);
    const after = await signInIdToken(server);
    expect(kidOf(after)).toBe(newKid);
    expect(verifiesAgainst(after, jwks)).toBe(true);
    // An instance not restarted since step 1 (it publishes what afterStepOne shows) verifies it too:
    // during the rolling restart of step 2, a relying party may fetch the JWKS from either.
    expect(verifiesAgainst(after, afterStepOne)).toBe(true);

    // A restart within the overlap keeps the old key published.
    await restart();
    expect((await publishedJwks(server)).keys.map((k) => k.kid)).toContain(oldKid);

    // Once the longest token lifetime has passed (a later clock, no sleeping), the old keys leave.
    const remaining = await createKeyService(server.ctx).retireSigningKeys({ now: rotatedAt + signingKeyOverlapMs(server.ctx.config) + 1 });
    expect(remaining.map((k) => k.status)).toEqual(['signing', 'signing']);
    await restart();
    const later = await publishedJwks(server);
    expect(later.keys.map((k) => k.kid)).not.toContain(oldKid);
    expect(later.keys.map((k) => k.kid)).toContain(newKid);
    expect(verifiesAgainst(before, later)).toBe(false);
    expect(verifiesAgainst(after, later)).toBe(true);
  });

  it('keeps every stored key encrypted: no private JWK member and no cookie key in clear', async () => {
    const server = await startTestServer();
    cleanups.push(() => server.close());
    const service = createKeyService(server.ctx);
    await service.rotateSigningKeys();
    await service.rotateCookieKeys();

    const secrets = await loadServerSecrets(server.ctx.db, server.ctx.config);
    expect(secrets.jwks.keys).toHaveLength(4);
    expect(secrets.cookieKeys).toHaveLength(3);
    const rows = await server.ctx.db.selectFrom('server_secrets').select(['name', 'value']).where('name', 'in', ['oidc_jwks', 'cookie_keys']).execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.value.startsWith('v1.')).toBe(true);
      expect(row.value).not.toContain('"d":');
      expect(row.value).not.toContain('"kid"');
      for (const cookieKey of secrets.cookieKeys) expect(row.value).not.toContain(cookieKey);
      for (const key of secrets.jwks.keys) expect(row.value).not.toContain(key.d as string);
    }
  });

  it('keeps people signed in to the provider across a cookie rotation, until their key is dropped', async () => {
    const servers = await restartableServer();
    const rp = await relyingParty(servers.current().url, 'demo-app', 'demo-secret');
    const { browser } = await signIn(servers.current().url, rp, 'demo@example.com', 'Passw0rd!');
    // A new authorization request in the same browser: answered at once while the provider session holds.
    const silently = async () => {
      const auth = await authorizationRequest(rp, { prompt: 'none' });
      const { url } = await browser.follow(auth.url, servers.current().url);
      expect(url.startsWith(rp.redirectUri)).toBe(true);
      return new URL(url).searchParams;
    };
    expect((await silently()).get('code')).toBeTruthy();

    await createKeyService(servers.current().ctx).rotateCookieKeys();
    await servers.restart();
    expect((await silently()).get('code')).toBeTruthy();

    // Three more rotations leave only keys made after the session cookie was last signed.
    for (let i = 0; i < 3; i++) await createKeyService(servers.current().ctx).rotateCookieKeys();
    await servers.restart();
    expect((await silently()).get('error')).toBe('login_required');
  });

  it('signs cookies with the next key, which every instance started before the rotation already holds, and keeps two before it', async () => {
    const server = await startTestServer({ seed: false });
    cleanups.push(() => server.close());
    const service = createKeyService(server.ctx);
    const first = (await loadServerSecrets(server.ctx.db, server.ctx.config)).cookieKeys;
    expect(first).toHaveLength(2);

    await service.rotateCookieKeys();
    const second = (await loadServerSecrets(server.ctx.db, server.ctx.config)).cookieKeys;
    // The key that signs now was the second one (verified by instances not restarted yet); the one that signed still verifies.
    expect(second[0]).toBe(first[1]);
    expect(second.slice(2)).toEqual([first[0]]);
    expect(first).not.toContain(second[1]);

    await service.rotateCookieKeys();
    await service.rotateCookieKeys();
    const fourth = (await loadServerSecrets(server.ctx.db, server.ctx.config)).cookieKeys;
    expect(fourth).toHaveLength(4);
    expect(fourth).not.toContain(first[0]);
  });
});

describe('stored keys from earlier versions', () => {
  it('reads clear rows and writes them back encrypted with APP_SECRET', async () => {
    const databaseUrl = await ownDatabase();
    const db = createDatabase(databaseUrl);
    cleanups.push(() => db.destroy());
    await migrateToLatest(db, databaseEngine(databaseUrl));
    const rsa = { ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: 'legacy-rs', alg: 'RS256', use: 'sig' };
    const ec = { ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }), kid: 'legacy-es', alg: 'ES256', use: 'sig' };
    const cookieKeys = ['legacy-cookie-key-one-0123456789', 'legacy-cookie-key-two-0123456789'];
    await db
      .insertInto('server_secrets')
      .values([
        { name: 'oidc_jwks', value: JSON.stringify({ keys: [rsa, ec] }), created_at: Date.now() },
        { name: 'cookie_keys', value: JSON.stringify(cookieKeys), created_at: Date.now() },
      ])
      .execute();

    const appSecret = 'an-operator-supplied-app-secret-of-48-characters';
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: databaseUrl, APP_SECRET: appSecret });
    const secrets = await loadServerSecrets(db, config);
    expect(secrets.jwks.keys.map((k) => k.kid)).toEqual(['legacy-rs', 'legacy-es']);
    expect(secrets.jwks.keys[0]).toMatchObject({ d: rsa.d });
    expect(secrets.cookieKeys).toEqual(cookieKeys);

    const rows = await db.selectFrom('server_secrets').select(['name', 'value']).execute();
    const keys = createServerKeys(appSecret);
    for (const row of rows) {
      expect(row.value).not.toContain('"d":');
      expect(row.value).not.toContain('legacy-cookie-key');
      // Sealed with APP_SECRET, not with anything kept in the database.
      expect(() => keys.decrypt(row.value)).not.toThrow();
    }
    expect(rows.map((r) => r.name)).not.toContain('app_secret');

    // The next start reads the sealed rows back unchanged.
    const again = await loadServerSecrets(db, config);
    expect(again.jwks.keys.map((k) => k.kid)).toEqual(['legacy-rs', 'legacy-es']);
    expect(again.cookieKeys).toEqual(cookieKeys);

    // A different APP_SECRET cannot read them, and says so.
    const other = loadConfig({ NODE_ENV: 'test', DATABASE_URL: databaseUrl, APP_SECRET: 'x'.repeat(40) });
    await expect(loadServerSecrets(db, other)).rejects.toThrow(ServerSecretsError);
    await expect(loadServerSecrets(db, other)).rejects.toThrow(/APP_SECRET/);
  });

  it('refuses to rotate keys that come from the environment', async () => {
    const server = await startTestServer({ seed: false, env: { COOKIE_KEYS: 'env-cookie-key-0123456789abcdef-0123' } });
    cleanups.push(() => server.close());
    await expect(createKeyService(server.ctx).rotateCookieKeys()).rejects.toThrow(/COOKIE_KEYS is set/);
  });
});
