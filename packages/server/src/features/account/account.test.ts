import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { relyingParty, signIn } from '../../../test/relying-party.ts';

describe('GET /api/v1/me and /api/v1/me/tenant', () => {
  let server: TestServer;
  let accountToken: string;
  let relyingPartyToken: string;

  beforeAll(async () => {
    server = await startTestServer();
    const account = await relyingParty(server.url, 'account');
    accountToken = (await signIn(server.url, account, 'demo@example.com', 'Passw0rd!')).tokens.access_token;
    const demoApp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    relyingPartyToken = (await signIn(server.url, demoApp, 'demo@example.com', 'Passw0rd!')).tokens.access_token;
  });
  afterAll(() => server?.close());

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers });

  it("answers the signed-in user's profile to an account access token", async () => {
    const response = await get('/api/v1/me', { authorization: `Bearer ${accountToken}` });
    expect(response.status).toBe(200);
    expect(await response.json() as any).toMatchObject({
      tenantId: 'demo',
      name: 'Demo User',
      email: 'demo@example.com',
      emailVerified: true,
      phoneNumber: null,
      avatarUrl: null,
      enableMfa: false,
      registrationMethod: 'password',
    });
  });

  it("answers the user's tenant", async () => {
    const response = await get('/api/v1/me/tenant', { authorization: `Bearer ${accountToken}` });
    expect(response.status).toBe(200);
    expect(await response.json() as any).toMatchObject({ id: 'demo', webauthnAllowed: true, passwordPolicy: { minLength: 6 } });
  });

  it('answers 1101 without a token and 1102 for a bad token or a relying party token', async () => {
    for (const path of ['/api/v1/me', '/api/v1/me/tenant']) {
      const none = await get(path);
      expect(none.status).toBe(401);
      expect((await none.json() as any).error.code).toBe(1101);
      for (const authorization of ['Bearer not-a-token', 'Basic abc', `Bearer ${relyingPartyToken}`]) {
        const bad = await get(path, { authorization });
        expect(bad.status).toBe(401);
        expect((await bad.json() as any).error.code).toBe(1102);
      }
    }
  });
});
