import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { createTenant } from '../../../test/visitor.ts';
import { ensureOwnClients } from './own-clients.ts';

/**
 * A production database starts with no tenant and no client (nothing is seeded): the account area
 * at /user then signs nobody in until its client exists. It comes with the only tenant, at the
 * next start, and its addresses follow PUBLIC_URL; the log says what to do until then.
 */
describe("Passgate's own clients at start-up, without the demo seed", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ seed: false, captureLogs: true });
  });
  afterAll(() => server?.close());

  const authorize = (clientId: string) =>
    fetch(`${server.url}/oidc/auth?client_id=${clientId}&response_type=code&scope=openid&redirect_uri=${encodeURIComponent(`${server.url}/user/callback`)}&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`, { redirect: 'manual' });

  it('says in the log that the account area has no client while there is no tenant', async () => {
    expect(await server.ctx.clients.findById('account')).toBeUndefined();
    expect(server.logs.join('')).toContain('the account area (/user) has no client yet');
    expect((await authorize('account')).status).toBe(400);
  });

  it('creates the account client in the only tenant, public and PKCE, at PUBLIC_URL; the admin console follows it there', async () => {
    await createTenant(server.ctx, { id: 'solo' });
    await ensureOwnClients(server.ctx);
    expect(await server.ctx.clients.findById('account')).toMatchObject({
      tenantId: 'solo',
      tokenEndpointAuthMethod: 'none',
      secretHash: null,
      redirectUris: [`${server.url}/user/callback`],
      postLogoutRedirectUris: [`${server.url}/user/dashboard`, `${server.url}/`],
      grantTypes: ['authorization_code'],
    });
    expect(await server.ctx.clients.findById('admin-console')).toMatchObject({ tenantId: 'solo' });
    // The account area's sign-in now reaches the login screen.
    const started = await authorize('account');
    expect(started.status).toBe(303);
  });

  it('brings drifted addresses back to PUBLIC_URL at the next start, and never moves the client to another tenant', async () => {
    await server.ctx.db.updateTable('clients').set({ redirect_uris: JSON.stringify(['https://old.example/user/callback']) }).where('id', '=', 'account').execute();
    await createTenant(server.ctx, { id: 'second' });
    await ensureOwnClients(server.ctx);
    expect(await server.ctx.clients.findById('account')).toMatchObject({ tenantId: 'solo', redirectUris: [`${server.url}/user/callback`] });
  });

  it('takes the refresh_token grant from an account client made by an earlier version, at the next start', async () => {
    await server.ctx.db.updateTable('clients').set({ grant_types: JSON.stringify(['authorization_code', 'refresh_token']) }).where('id', '=', 'account').execute();
    await ensureOwnClients(server.ctx);
    expect(await server.ctx.clients.findById('account')).toMatchObject({ grantTypes: ['authorization_code'] });
  });
});
