import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { relyingParty, signIn } from '../../../test/relying-party.ts';
import { accountSignIn } from '../../../test/account.ts';
import { createTenant } from '../../../test/visitor.ts';
import { adminCall, adminSignIn, createAdmin, type TestAdmin } from '../../../test/admin.ts';
import { createAdminRoleService } from './admin-roles.service.ts';
import { createAdminRoleQueries } from './admin-roles.queries.ts';

describe('admin API: who may call it', () => {
  let server: TestServer;
  let operator: TestAdmin;
  let tenantAdmin: TestAdmin;
  let plain: TestAdmin;
  let noTwoStep: TestAdmin;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer({ env: { LOGIN_RATE_LIMIT_PER_IP: '1000' } });
    await createTenant(server.ctx, { id: 'acme' });
    operator = await createAdmin(server.ctx, 'op@example.com', [{ role: 'operator' }]);
    tenantAdmin = await createAdmin(server.ctx, 'ta@example.com', [{ role: 'tenant-admin', tenantId: 'acme' }]);
    plain = await createAdmin(server.ctx, 'plain@example.com', []);
    noTwoStep = await createAdmin(server.ctx, 'no2step@example.com', [{ role: 'operator' }], { twoStep: false });
    tokens.operator = await adminSignIn(server.url, operator);
    tokens.tenantAdmin = await adminSignIn(server.url, tenantAdmin);
    tokens.plain = await adminSignIn(server.url, plain);
    tokens.noTwoStep = await adminSignIn(server.url, noTwoStep);
    // The same operator's tokens of other clients: a relying party's and the account area's.
    tokens.relyingParty = (await signIn(server.url, await relyingParty(server.url, 'demo-app', 'demo-secret'), 'demo@example.com', 'Passw0rd!')).tokens.access_token;
    tokens.account = (await accountSignIn(server.url, 'no2step@example.com')).token;
  });
  afterAll(() => server?.close());

  it('creates the built-in admin-console client at start-up: public, PKCE, /admin/callback, in the account area\'s tenant', async () => {
    const client = await server.ctx.clients.findById('admin-console');
    expect(client).toMatchObject({
      tenantId: 'demo',
      tokenEndpointAuthMethod: 'none',
      secretHash: null,
      redirectUris: [`${server.url}/admin/callback`],
      postLogoutRedirectUris: [`${server.url}/admin`],
      grantTypes: ['authorization_code'],
    });
    const discovery = (await (await fetch(`${server.url}/oidc/.well-known/openid-configuration`)).json()) as any;
    expect(discovery.code_challenge_methods_supported).toContain('S256');
  });

  it('answers an operator and a tenant admin who they are', async () => {
    expect(await adminCall(server.url, 'GET', '/me', { token: tokens.operator })).toMatchObject({
      status: 200,
      body: { userId: operator.id, email: 'op@example.com', operator: true, tenantAdminOf: [] },
    });
    expect(await adminCall(server.url, 'GET', '/me', { token: tokens.tenantAdmin })).toMatchObject({
      status: 200,
      body: { userId: tenantAdmin.id, operator: false, tenantAdminOf: ['acme'] },
    });
  });

  it('refuses a plain user (403 1301) and an admin without 2-step verification (403 1304)', async () => {
    expect(await adminCall(server.url, 'GET', '/me', { token: tokens.plain })).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
    const refused = await adminCall(server.url, 'GET', '/me', { token: tokens.noTwoStep, language: 'en' });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 1304, message: 'Set up 2-step verification to use the admin console' } } });
  });

  it("refuses no token (401 1101), a bad one, a relying party's and the account area's (401 1102)", async () => {
    expect(await adminCall(server.url, 'GET', '/me')).toMatchObject({ status: 401, body: { error: { code: 1101 } } });
    for (const authorization of ['Bearer not-a-token', 'Basic abc', `Bearer ${tokens.relyingParty}`, `Bearer ${tokens.account}`]) {
      expect(await adminCall(server.url, 'GET', '/me', { authorization })).toMatchObject({ status: 401, body: { error: { code: 1102 } } });
    }
  });

  it('stops answering once the role is revoked, and an active admin loses access when disabled', async () => {
    const extra = await createAdmin(server.ctx, 'temp-op@example.com', [{ role: 'operator' }]);
    const token = await adminSignIn(server.url, extra);
    expect((await adminCall(server.url, 'GET', '/me', { token })).status).toBe(200);
    await createAdminRoleQueries(server.ctx.db).revoke(extra.id, 'operator', null);
    expect(await adminCall(server.url, 'GET', '/me', { token })).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
    await createAdminRoleQueries(server.ctx.db).grant(extra.id, 'operator', null, 'test');
    await server.ctx.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', extra.id).execute();
    expect(await adminCall(server.url, 'GET', '/me', { token })).toMatchObject({ status: 401, body: { error: { code: 1102 } } });
  });

  it('lists /me in the OpenAPI document under the admin tag', async () => {
    const doc = (await (await fetch(`${server.url}/api/docs`)).json()) as any;
    expect(doc.paths['/api/admin/v1/me'].get.tags).toEqual(['admin']);
    expect(doc.paths['/api/admin/v1/me'].get.security).toEqual([{ bearerAuth: [] }]);
  });

  it('the seeded demo user is an operator', async () => {
    const demo = await server.ctx.users.findByEmail('demo', 'demo@example.com');
    expect(await createAdminRoleQueries(server.ctx.db).rolesOf(demo!.id)).toEqual({ operator: true, tenantAdminOf: [] });
  });

  it('holds one grant per user, role and tenant in the database itself, operators (tenant null) included', async () => {
    const insert = (tenantId: string | null, role: string) =>
      server.ctx.db.insertInto('admin_roles').values({ id: `dup-${Math.random()}`, user_id: operator.id, tenant_id: tenantId, role, granted_at: Date.now(), granted_by: 'test' }).execute();
    await expect(insert(null, 'operator')).rejects.toThrow();
    await insert('acme', 'tenant-admin');
    await expect(insert('acme', 'tenant-admin')).rejects.toThrow();
    expect(await createAdminRoleQueries(server.ctx.db).rolesOf(operator.id)).toEqual({ operator: true, tenantAdminOf: ['acme'] });
    await createAdminRoleQueries(server.ctx.db).revoke(operator.id, 'tenant-admin', 'acme');
  });

  it('grants and revokes roles through the service the command line uses, audited, once', async () => {
    const service = createAdminRoleService(server.ctx);
    await createAdmin(server.ctx, 'granted@example.com', [], { twoStep: false });
    const granted = await service.grant({ email: 'granted@example.com', role: 'tenant-admin', tenantId: 'acme' }, { by: 'cli' });
    expect(granted).toMatchObject({ role: 'tenant-admin', tenantId: 'acme', consoleTenantId: 'demo', changed: true });
    expect((await service.grant({ email: 'granted@example.com', role: 'tenant-admin', tenantId: 'acme' })).changed).toBe(false);
    await expect(service.grant({ email: 'granted@example.com', role: 'tenant-admin' })).rejects.toThrow(/tenantId: is required/);
    await expect(service.grant({ email: 'granted@example.com', role: 'root' })).rejects.toThrow(/role: must be one of/);
    await expect(service.grant({ email: 'granted@example.com', role: 'operator', tenantId: 'acme' })).rejects.toThrow(/operators administer every tenant/);
    await expect(service.grant({ email: 'nobody@example.com', role: 'operator' })).rejects.toThrow(/no account 'nobody@example.com' in tenant 'demo'/);
    expect((await service.revoke({ email: 'granted@example.com', role: 'tenant-admin', tenantId: 'acme' })).changed).toBe(true);
    expect((await service.revoke({ email: 'granted@example.com', role: 'tenant-admin', tenantId: 'acme' })).changed).toBe(false);
    const audit = await server.ctx.db.selectFrom('audit_events').select(['type', 'tenant_id', 'details']).where('type', 'like', 'admin.role_%').orderBy('created_at').execute();
    expect(audit.map((a) => [a.type, a.tenant_id])).toEqual([
      ['admin.role_granted', 'acme'],
      ['admin.role_revoked', 'acme'],
    ]);
    expect(JSON.parse(audit[0]!.details!)).toMatchObject({ by: 'cli', role: 'tenant-admin', administers: 'acme' });
  });
});
