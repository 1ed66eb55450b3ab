import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { hashSecret, observeArgon2 } from '../../lib/passwords.ts';

/**
 * A confidential client authenticates at the token endpoint with its secret. A refresh grant with a
 * made-up refresh token tells the two failures apart: a wrong secret is 401 invalid_client, the
 * right one gets as far as the grant (400 invalid_grant).
 */
async function tokenRequest(server: TestServer, clientId: string, secret: string) {
  const response = await fetch(`${server.url}/oidc/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'not-a-refresh-token' }),
  });
  return { status: response.status, error: ((await response.json()) as { error: string }).error };
}

const storedHash = async (server: TestServer, clientId: string) =>
  (await server.ctx.db.selectFrom('clients').select('secret_hash').where('id', '=', clientId).executeTakeFirstOrThrow()).secret_hash;

describe('client secrets', () => {
  let server: TestServer;
  let argon2Calls = 0;
  let stopObserving: () => void;
  beforeAll(async () => {
    server = await startTestServer();
    stopObserving = observeArgon2(() => {
      argon2Calls += 1;
    });
  });
  afterAll(async () => {
    stopObserving();
    await server.close();
  });

  it('are stored as a keyed HMAC-SHA-256 digest and checked without argon2', async () => {
    expect(await storedHash(server, 'demo-app')).toMatch(/^hmac-sha256\$[\w-]{43}$/);
    argon2Calls = 0;
    expect(await tokenRequest(server, 'demo-app', 'demo-secret')).toEqual({ status: 400, error: 'invalid_grant' });
    expect(await tokenRequest(server, 'demo-app', 'demo-secreT')).toEqual({ status: 401, error: 'invalid_client' });
    expect(await tokenRequest(server, 'demo-app', '')).toMatchObject({ status: expect.any(Number), error: expect.stringMatching(/^invalid_(client|request)$/) });
    expect(argon2Calls).toBe(0);
  });

  it('refuse the stored digest itself as a secret', async () => {
    const digest = (await storedHash(server, 'demo-app')) as string;
    expect(await tokenRequest(server, 'demo-app', digest)).toEqual({ status: 401, error: 'invalid_client' });
    expect(await tokenRequest(server, 'demo-app', digest.slice('hmac-sha256$'.length))).toEqual({ status: 401, error: 'invalid_client' });
  });

  it('hashed with argon2id by an earlier version still verify, and are then stored as a digest', async () => {
    const legacy = await hashSecret('legacy-partner-secret');
    await server.ctx.db.updateTable('clients').set({ secret_hash: legacy }).where('id', '=', 'partner-shop').execute();

    expect(await tokenRequest(server, 'partner-shop', 'wrong-partner-secret')).toEqual({ status: 401, error: 'invalid_client' });
    expect(await storedHash(server, 'partner-shop')).toBe(legacy);

    expect(await tokenRequest(server, 'partner-shop', 'legacy-partner-secret')).toEqual({ status: 400, error: 'invalid_grant' });
    const upgraded = await storedHash(server, 'partner-shop');
    expect(upgraded).toMatch(/^hmac-sha256\$[\w-]{43}$/);

    argon2Calls = 0;
    expect(await tokenRequest(server, 'partner-shop', 'legacy-partner-secret')).toEqual({ status: 400, error: 'invalid_grant' });
    expect(await tokenRequest(server, 'partner-shop', 'wrong-partner-secret')).toEqual({ status: 401, error: 'invalid_client' });
    expect(argon2Calls).toBe(0);
    expect(await storedHash(server, 'partner-shop')).toBe(upgraded);
  });
});
