import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { boundAccountToken as boundToken, now, proof, type KeyPair } from '../../test/dpop.ts';
import { oidc, relyingParty } from '../../test/relying-party.ts';
import { accountSignIn, createAccount, userById } from '../../test/account.ts';
import { adminCall, adminSignIn, createAdmin } from '../../test/admin.ts';
import { purgeExpiredPayloads } from '../oidc/adapter.ts';
import { accessTokenHash, DPOP_PROOF_WINDOW_SECONDS, DPoPProofError, MAX_DPOP_PROOF_LENGTH, verifyDPoPProof } from './dpop-proof.ts';
import { firstUseOfProof } from './dpop-replay.ts';

/** A hand-made compact JWS with any header and payload, signed by nobody. */
function unsigned(header: unknown, payload: unknown): string {
  const part = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
  return `${part(header)}.${part(payload)}.${Buffer.from('not a signature').toString('base64url')}`;
}

describe('DPoP-bound access tokens at the identity API (RFC 9449)', () => {
  let server: TestServer;
  let key: KeyPair;
  let otherKey: KeyPair;
  let userId: string;
  /** A token of the account client bound to `key`, for the calls that leave it usable. */
  let token: string;
  const email = 'dpop@example.com';

  const boundAccountToken = (signingKey: KeyPair) => boundToken(server.url, email, signingKey);

  /** A call to the API with exactly the given headers. */
  async function send(method: string, path: string, headers: Record<string, string>, body?: unknown) {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'accept-language': 'en', ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as any) : undefined, challenge: response.headers.get('www-authenticate') };
  }

  /** A call with the DPoP scheme and `dpop` as its DPoP header. */
  const withProof = (method: string, path: string, accessToken: string, dpop: string, body?: unknown) => send(method, path, { authorization: `DPoP ${accessToken}`, dpop }, body);

  /** A call with `token` and a valid proof of that very call by `key`. */
  async function provenCall(method: string, path: string, accessToken = token, body?: unknown) {
    return withProof(method, path, accessToken, await proof(key, method, `${server.url}${path}`, accessToken), body);
  }

  /** 401/1102 with the RFC 9449 challenge naming `error`. */
  function expectRefused(answer: Awaited<ReturnType<typeof send>>, error: 'invalid_token' | 'invalid_dpop_proof') {
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ error: { code: 1102 } });
    expect(answer.challenge).toMatch(/^DPoP /);
    expect(answer.challenge).toContain(`error="${error}"`);
  }

  beforeAll(async () => {
    server = await startTestServer({ env: { LOGIN_RATE_LIMIT_PER_IP: '1000' } });
    userId = await createAccount(server.ctx, { email, name: 'Before' });
    key = await generateKeyPair('ES256', { extractable: true });
    otherKey = await generateKeyPair('ES256', { extractable: true });
    token = await boundAccountToken(key);
  });
  afterAll(() => server?.close());

  it("gets the account client a token bound to the proof's key through the real flow", async () => {
    const stored = await server.ctx.provider.AccessToken.find(token);
    expect(stored?.jkt).toBe(await calculateJwkThumbprint(await exportJWK(key.publicKey)));
  });

  it('refuses the bound token as a bearer token, and it changes nothing', async () => {
    const stolen = await boundAccountToken(key);
    const before = await userById(server.ctx, userId);
    expectRefused(await send('GET', '/api/v1/me', { authorization: `Bearer ${stolen}` }), 'invalid_token');
    expectRefused(await send('PATCH', '/api/v1/me', { authorization: `Bearer ${stolen}` }, { name: 'Stolen' }), 'invalid_token');
    expectRefused(await send('GET', '/api/v1/me/sessions', { authorization: `Bearer ${stolen}` }), 'invalid_token');
    // Nor does a proof make the Bearer scheme good.
    expectRefused(await send('GET', '/api/v1/me', { authorization: `Bearer ${stolen}`, dpop: await proof(key, 'GET', `${server.url}/api/v1/me`, stolen) }), 'invalid_token');
    expect(await userById(server.ctx, userId)).toEqual(before);
  });

  it('answers the profile, and takes a change, with the DPoP scheme and a valid proof', async () => {
    const me = await provenCall('GET', '/api/v1/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email, name: 'Before' });

    const changed = await provenCall('PATCH', '/api/v1/me', token, { name: 'Proven' });
    expect(changed.status).toBe(200);
    expect((await userById(server.ctx, userId))?.name).toBe('Proven');

    // Routes that read the token again after the check (the session of this very request) see it too.
    const sessions = await provenCall('GET', '/api/v1/me/sessions');
    expect(sessions.status).toBe(200);
    expect(sessions.body.items.filter((session: { current: boolean }) => session.current)).toHaveLength(1);
  });

  it('refuses a proof sent again (same jti), also at another instance of the same server', async () => {
    const once = await proof(key, 'GET', `${server.url}/api/v1/me`, token);
    expect((await withProof('GET', '/api/v1/me', token, once)).status).toBe(200);
    expectRefused(await withProof('GET', '/api/v1/me', token, once), 'invalid_dpop_proof');

    const second = await startTestServer({ shareWith: server });
    try {
      const twice = await proof(key, 'GET', `${server.url}/api/v1/me`, token);
      expect((await withProof('GET', '/api/v1/me', token, twice)).status).toBe(200);
      const atSecond = await fetch(`${second.url}/api/v1/me`, { headers: { authorization: `DPoP ${token}`, dpop: twice } });
      expect(atSecond.status).toBe(401);
      expect(atSecond.headers.get('www-authenticate')).toContain('error="invalid_dpop_proof"');
    } finally {
      await second.close();
    }
  });

  it('refuses a proof of another method or another URL', async () => {
    const url = `${server.url}/api/v1/me`;
    expectRefused(await withProof('GET', '/api/v1/me', token, await proof(key, 'POST', url, token)), 'invalid_dpop_proof');
    expectRefused(await withProof('GET', '/api/v1/me', token, await proof(key, 'get', url, token)), 'invalid_dpop_proof');
    expectRefused(await withProof('GET', '/api/v1/me', token, await proof(key, 'GET', `${server.url}/api/v1/me/tenant`, token)), 'invalid_dpop_proof');
    expectRefused(await withProof('GET', '/api/v1/me', token, await proof(key, 'GET', url.replace('127.0.0.1', 'localhost'), token)), 'invalid_dpop_proof');
    expectRefused(await withProof('GET', '/api/v1/me', token, await proof(key, 'GET', 'https://elsewhere.example/api/v1/me', token)), 'invalid_dpop_proof');
    // The query and fragment are not part of htu.
    expect((await withProof('GET', '/api/v1/me', token, await proof(key, 'GET', `${url}?a=1#b`, token))).status).toBe(200);
  });

  it("takes htu from PUBLIC_URL, never from the request's Host header", async () => {
    const port = new URL(server.url).port;
    const rawGet = (dpop: string) =>
      new Promise<{ status: number; challenge: string | undefined }>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path: '/api/v1/me', method: 'GET', headers: { host: `evil.example:${port}`, authorization: `DPoP ${token}`, dpop } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, challenge: res.headers['www-authenticate'] }));
        });
        req.on('error', reject);
        req.end();
      });
    const forHost = await rawGet(await proof(key, 'GET', `http://evil.example:${port}/api/v1/me`, token));
    expect(forHost.status).toBe(401);
    expect(forHost.challenge).toContain('invalid_dpop_proof');
    expect((await rawGet(await proof(key, 'GET', `${server.url}/api/v1/me`, token))).status).toBe(200);
  });

  it('refuses a proof by another key, or one whose jwk is not the key that signed it', async () => {
    const url = `${server.url}/api/v1/me`;
    expectRefused(await withProof('GET', '/api/v1/me', token, await proof(otherKey, 'GET', url, token)), 'invalid_token');
    // The bound key's jwk in the header, signed by another: the signature does not verify.
    const borrowed = await proof(otherKey, 'GET', url, token, { header: { jwk: await exportJWK(key.publicKey) } });
    expectRefused(await withProof('GET', '/api/v1/me', token, borrowed), 'invalid_dpop_proof');
    // A token bound to another key, presented with a proof by this key.
    const othersToken = await boundAccountToken(otherKey);
    expectRefused(await withProof('GET', '/api/v1/me', othersToken, await proof(key, 'GET', url, othersToken)), 'invalid_token');
  });

  it('refuses a proof without ath, or with the hash of another token', async () => {
    const url = `${server.url}/api/v1/me`;
    expectRefused(await withProof('GET', '/api/v1/me', token, await proof(key, 'GET', url, token, { claims: { ath: undefined } })), 'invalid_dpop_proof');
    expectRefused(await withProof('GET', '/api/v1/me', token, await proof(key, 'GET', url, token, { claims: { ath: accessTokenHash('another-token') } })), 'invalid_dpop_proof');
    expectRefused(await withProof('GET', '/api/v1/me', token, await proof(key, 'GET', url, token, { claims: { ath: token } })), 'invalid_dpop_proof');
  });

  it('refuses a stale proof, one from the future, and one without iat or jti', async () => {
    const url = `${server.url}/api/v1/me`;
    for (const claims of [
      { iat: now() - DPOP_PROOF_WINDOW_SECONDS - 5 },
      { iat: now() - 3600 },
      { iat: now() + DPOP_PROOF_WINDOW_SECONDS + 5 },
      { iat: undefined },
      { iat: String(now()) },
      { jti: undefined },
      { jti: '' },
      { jti: 42 },
      { jti: 'x'.repeat(300) },
    ]) {
      expectRefused(await withProof('GET', '/api/v1/me', token, await proof(key, 'GET', url, token, { claims })), 'invalid_dpop_proof');
    }
    // Within the window either way is fine.
    expect((await withProof('GET', '/api/v1/me', token, await proof(key, 'GET', url, token, { claims: { iat: now() - 60 } }))).status).toBe(200);
  });

  it('answers 401, never 500, to a malformed DPoP header or a proof of the wrong kind', async () => {
    const url = `${server.url}/api/v1/me`;
    const jwk = await exportJWK(key.publicKey);
    const privateJwk = await exportJWK(key.privateKey);
    const claims = { htm: 'GET', htu: url, ath: accessTokenHash(token), iat: now(), jti: randomUUID() };
    const headers = [
      'garbage',
      'a.b.c',
      '...',
      'a.b',
      unsigned('not json', claims),
      unsigned({ alg: 'ES256', typ: 'dpop+jwt', jwk }, 'not json'),
      unsigned({ alg: 'ES256', typ: 'dpop+jwt', jwk }, [1, 2]),
      unsigned({ alg: 'none', typ: 'dpop+jwt', jwk }, claims),
      unsigned({ alg: 'ES256', typ: 'dpop+jwt', jwk: 'a string' }, claims),
      unsigned({ alg: 'ES256', typ: 'dpop+jwt', jwk: { kty: 'EC' } }, claims),
      unsigned({ alg: 'ES256', typ: 'dpop+jwt', jwk: [jwk] }, claims),
      unsigned({ alg: 'ES256', typ: 'dpop+jwt' }, claims),
      unsigned({ alg: 'HS256', typ: 'dpop+jwt', jwk: { kty: 'oct', k: 'c2VjcmV0' } }, claims),
      unsigned({ alg: 42, typ: 'dpop+jwt', jwk }, claims),
      `${'a'.repeat(MAX_DPOP_PROOF_LENGTH)}.b.c`,
      `${'a'.repeat(10_000)}.b.c`,
      await proof(key, 'GET', url, token, { header: { typ: 'JWT' } }),
      await proof(key, 'GET', url, token, { header: { typ: undefined } }),
      // A private key in the header.
      await proof(key, 'GET', url, token, { header: { jwk: privateJwk } }),
      await proof(key, 'GET', url, token, { claims: { htm: 42 } }),
      await proof(key, 'GET', url, token, { claims: { htu: 42 } }),
      await proof(key, 'GET', url, token, { claims: { htu: 'not a url' } }),
      await proof(key, 'GET', url, token, { claims: { ath: 42 } }),
      await proof(key, 'GET', url, token, { claims: { exp: now() - 10 } }),
    ];
    for (const dpop of headers) {
      const answer = await withProof('GET', '/api/v1/me', token, dpop);
      expect(answer.status, dpop.slice(0, 80)).toBe(401);
      expectRefused(answer, 'invalid_dpop_proof');
    }
    // No DPoP header at all, or an empty one.
    expectRefused(await send('GET', '/api/v1/me', { authorization: `DPoP ${token}` }), 'invalid_dpop_proof');
    expectRefused(await send('GET', '/api/v1/me', { authorization: `DPoP ${token}`, dpop: '' }), 'invalid_dpop_proof');
    // An RSA key with RS256 is not among the allowed algorithms.
    const rsa = await generateKeyPair('RS256', { extractable: true });
    const rsaProof = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: 'dpop+jwt', jwk: await exportJWK(rsa.publicKey) }).sign(rsa.privateKey);
    expectRefused(await withProof('GET', '/api/v1/me', token, rsaProof), 'invalid_dpop_proof');
    // The token still works with a good proof after all that.
    expect((await provenCall('GET', '/api/v1/me')).status).toBe(200);
  });

  it('refuses two DPoP headers, even when each holds a valid proof', async () => {
    const url = `${server.url}/api/v1/me`;
    const port = new URL(server.url).port;
    const first = await proof(key, 'GET', url, token);
    const second = await proof(key, 'GET', url, token);
    const answer = await new Promise<{ status: number; challenge: string | undefined }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/api/v1/me', method: 'GET', headers: { authorization: `DPoP ${token}`, dpop: [first, second] } }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, challenge: res.headers['www-authenticate'] }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(401);
    expect(answer.challenge).toContain('invalid_dpop_proof');
  });

  it('keeps an unbound token on the Bearer scheme only', async () => {
    const { token: unbound } = await accountSignIn(server.url, email);
    expect((await server.ctx.provider.AccessToken.find(unbound))?.jkt).toBeUndefined();
    expect((await send('GET', '/api/v1/me', { authorization: `Bearer ${unbound}` })).status).toBe(200);
    expectRefused(await withProof('GET', '/api/v1/me', unbound, await proof(key, 'GET', `${server.url}/api/v1/me`, unbound)), 'invalid_token');
  });

  it('refuses an unknown token presented with the DPoP scheme like any other', async () => {
    expectRefused(await withProof('GET', '/api/v1/me', 'no-such-token', await proof(key, 'GET', `${server.url}/api/v1/me`, 'no-such-token')), 'invalid_token');
  });

  it("remembers a proof's jti in the shared store until the proof would be stale anyway", async () => {
    const jti = randomUUID();
    const expiresAt = now() + DPOP_PROOF_WINDOW_SECONDS;
    expect(await firstUseOfProof(server.ctx, 'thumbprint', jti, expiresAt)).toBe(true);
    expect(await firstUseOfProof(server.ctx, 'thumbprint', jti, expiresAt)).toBe(false);
    // The same jti by another key is another proof.
    expect(await firstUseOfProof(server.ctx, 'another-thumbprint', jti, expiresAt)).toBe(true);
    if (server.ctx.redis) {
      // KEYS answers full names; TTL adds the prefix again.
      const prefix = server.ctx.config.redisKeyPrefix;
      const names = await server.ctx.redis.keys(`${prefix}oidc:DPoPProof:*`);
      expect(names.length).toBeGreaterThanOrEqual(2);
      for (const name of names) {
        const ttl = await server.ctx.redis.ttl(name.slice(prefix.length));
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(DPOP_PROOF_WINDOW_SECONDS);
      }
      return;
    }
    const rows = () => server.ctx.db.selectFrom('oidc_payloads').select(['id', 'expires_at']).where('model', '=', 'DPoPProof').execute();
    for (const row of await rows()) expect(Number(row.expires_at)).toBeLessThanOrEqual(Date.now() + DPOP_PROOF_WINDOW_SECONDS * 1000 + 1000);
    // Once stale, the row is no obstacle (and the purge of expired artifacts takes it).
    await server.ctx.db.updateTable('oidc_payloads').set({ expires_at: Date.now() - 1000 }).where('model', '=', 'DPoPProof').execute();
    expect(await firstUseOfProof(server.ctx, 'thumbprint', jti, expiresAt)).toBe(true);
    await server.ctx.db.updateTable('oidc_payloads').set({ expires_at: Date.now() - 1000 }).where('model', '=', 'DPoPProof').execute();
    await purgeExpiredPayloads(server.ctx.db);
    expect(await rows()).toEqual([]);
  });

  it('holds for the admin API too: a bound admin-console token needs its proof', async () => {
    const admin = await createAdmin(server.ctx, 'dpop-admin@example.com', [{ role: 'operator' }]);
    const adminToken = await adminSignIn(server.url, admin, undefined, { DPoP: oidc.getDPoPHandle((await relyingParty(server.url, 'admin-console')).config, key) });
    expect((await server.ctx.provider.AccessToken.find(adminToken))?.jkt).toBeTruthy();
    const asBearer = await adminCall(server.url, 'GET', '/me', { token: adminToken });
    expect(asBearer).toMatchObject({ status: 401, body: { error: { code: 1102 } } });
    expect(asBearer.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const proven = await provenCall('GET', '/api/admin/v1/me', adminToken);
    expect(proven.status).toBe(200);
  });
});

describe('verifyDPoPProof, on its own clock', () => {
  it('takes an iat exactly at either edge of the window and refuses one a second beyond', async () => {
    const key = await generateKeyPair('ES256', { extractable: true });
    const url = 'https://id.example.com/api/v1/me';
    const at = 1_900_000_000;
    const check = async (iat: number) => verifyDPoPProof(await proof(key, 'GET', url, 'token', { claims: { iat } }), { method: 'GET', url, accessToken: 'token', now: at });
    await expect(check(at - DPOP_PROOF_WINDOW_SECONDS)).resolves.toMatchObject({ iat: at - DPOP_PROOF_WINDOW_SECONDS, jkt: await calculateJwkThumbprint(await exportJWK(key.publicKey)) });
    await expect(check(at + DPOP_PROOF_WINDOW_SECONDS)).resolves.toMatchObject({ iat: at + DPOP_PROOF_WINDOW_SECONDS });
    await expect(check(at - DPOP_PROOF_WINDOW_SECONDS - 1)).rejects.toBeInstanceOf(DPoPProofError);
    await expect(check(at + DPOP_PROOF_WINDOW_SECONDS + 1)).rejects.toBeInstanceOf(DPoPProofError);
  });

  it('accepts an Ed25519 proof, and compares htu without query or fragment on both sides', async () => {
    const key = await generateKeyPair('Ed25519', { extractable: true });
    const jwk = await exportJWK(key.publicKey);
    const signed = await new SignJWT({ htm: 'POST', htu: 'https://id.example.com/api/v1/me/password#x', ath: accessTokenHash('t'), iat: now(), jti: 'j' })
      .setProtectedHeader({ alg: 'Ed25519', typ: 'dpop+jwt', jwk })
      .sign(key.privateKey);
    await expect(verifyDPoPProof(signed, { method: 'POST', url: 'https://id.example.com/api/v1/me/password?y=1', accessToken: 't' })).resolves.toMatchObject({ jti: 'j' });
  });
});
