import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { relyingParty, signIn } from '../../../test/relying-party.ts';
import { createTenant } from '../../../test/visitor.ts';
import { adminCall, adminSignIn, auditRecords, createAdmin, type TestAdmin } from '../../../test/admin.ts';
import { checkClientSecret } from '../clients/client-secrets.ts';

describe('admin API: clients', () => {
  let server: TestServer;
  let operator: TestAdmin;
  let acmeAdmin: TestAdmin;
  const tokens: Record<string, string> = {};
  const clientRow = (id: string) => server.ctx.db.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirst();
  const secretWorks = async (id: string, secret: string) => (await checkClientSecret(server.ctx.keys, (await clientRow(id))!.secret_hash as string, secret)).matches;

  beforeAll(async () => {
    server = await startTestServer({ env: { LOGIN_RATE_LIMIT_PER_IP: '1000' } });
    await createTenant(server.ctx, { id: 'acme', name: 'Acme' });
    await createTenant(server.ctx, { id: 'globex', name: 'Globex' });
    operator = await createAdmin(server.ctx, 'op@example.com', [{ role: 'operator' }]);
    acmeAdmin = await createAdmin(server.ctx, 'acme-admin@example.com', [{ role: 'tenant-admin', tenantId: 'acme' }]);
    const demoAdmin = await createAdmin(server.ctx, 'demo-admin@example.com', [{ role: 'tenant-admin', tenantId: 'demo' }]);
    const plain = await createAdmin(server.ctx, 'plain@example.com', []);
    tokens.operator = await adminSignIn(server.url, operator);
    tokens.acme = await adminSignIn(server.url, acmeAdmin);
    tokens.demo = await adminSignIn(server.url, demoAdmin);
    tokens.plain = await adminSignIn(server.url, plain);
    tokens.relyingParty = (await signIn(server.url, await relyingParty(server.url, 'demo-app', 'demo-secret'), 'demo@example.com', 'Passw0rd!')).tokens.access_token;
  });
  afterAll(() => server?.close());

  const web = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    name: `App ${id}`,
    redirect_uris: ['https://app.acme.example/callback'],
    post_logout_redirect_uris: ['https://app.acme.example/'],
    ...extra,
  });

  it("creates a confidential client whose generated secret is answered once and stored only as a digest", async () => {
    const created = await adminCall(server.url, 'POST', '/tenants/acme/clients', {
      token: tokens.acme,
      body: web('acme-web', { token_endpoint_auth_method: 'client_secret_basic', permissions: ['users:email:login', 'password:reset'], theme: { primaryColor: '#0055AA', title: 'Acme' } }),
    });
    expect(created.status).toBe(201);
    expect(created.body.client).toMatchObject({ id: 'acme-web', tenantId: 'acme', confidential: true, hasSecret: true, builtIn: false, theme: { primaryColor: '#0055AA' }, permissions: ['users:email:login', 'password:reset'] });
    const secret = created.body.clientSecret as string;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = await clientRow('acme-web');
    expect(row!.secret_hash).not.toContain(secret);
    expect(await secretWorks('acme-web', secret)).toBe(true);
    // Never again.
    const shown = await adminCall(server.url, 'GET', '/tenants/acme/clients/acme-web', { token: tokens.acme });
    expect(shown.status).toBe(200);
    expect(JSON.stringify(shown.body)).not.toContain(secret);
    expect(shown.body.clientSecret).toBeUndefined();
    const [record] = await auditRecords(server.ctx, 'client.created');
    expect(record).toMatchObject({ tenant_id: 'acme', client_id: 'acme-web', details: { by: 'admin', actorUserId: acmeAdmin.id } });
    expect(JSON.stringify(record)).not.toContain(secret);

    const pub = await adminCall(server.url, 'POST', '/tenants/acme/clients', { token: tokens.acme, body: web('acme-spa', { token_endpoint_auth_method: 'none' }) });
    expect(pub.status).toBe(201);
    expect(pub.body.clientSecret).toBeUndefined();
    expect(pub.body.client).toMatchObject({ confidential: false, hasSecret: false });
    // A secret is never chosen through the API.
    expect(await adminCall(server.url, 'POST', '/tenants/acme/clients', { token: tokens.acme, body: web('acme-x', { secret: 'chosen-secret' }) })).toMatchObject({ status: 201 });
    expect(await secretWorks('acme-x', 'chosen-secret')).toBe(false);
    expect(await adminCall(server.url, 'POST', '/tenants/acme/clients', { token: tokens.acme, body: web('acme-web') })).toMatchObject({ status: 409, body: { error: { code: 1062, field: 'id' } } });
  });

  it('validates redirect URIs as the provider will, and stores nothing it refuses', async () => {
    const post = (body: unknown) => adminCall(server.url, 'POST', '/tenants/acme/clients', { token: tokens.acme, body });
    expect(await post(web('bad-1', { redirect_uris: ['https://app.acme.example/cb#fragment'] }))).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'redirect_uris' } } });
    expect(await post(web('bad-2', { redirect_uris: ['ftp://app.acme.example/cb'] }))).toMatchObject({ status: 400, body: { error: { field: 'redirect_uris.0' } } });
    expect(await post(web('bad-3', { redirect_uris: [] }))).toMatchObject({ status: 400, body: { error: { field: 'redirect_uris' } } });
    expect(await post(web('bad-4', { post_logout_redirect_uris: ['https://app.acme.example/#x'] }))).toMatchObject({ status: 400, body: { error: { field: 'post_logout_redirect_uris' } } });
    expect(await post(web('bad-5', { theme: { primaryColor: 'blue' } }))).toMatchObject({ status: 400, body: { error: { field: 'theme.primaryColor' } } });
    expect(await post(web('bad-6', { permissions: ['root:everything'] }))).toMatchObject({ status: 400, body: { error: { field: 'permissions.0' } } });
    expect(await post(web('bad-7', { recaptcha: { enabled: true } }))).toMatchObject({ status: 400, body: { error: { field: 'recaptcha.siteKey' } } });
    for (const id of ['bad-1', 'bad-2', 'bad-3', 'bad-4', 'bad-5', 'bad-6', 'bad-7']) expect(await clientRow(id)).toBeUndefined();

    const before = await clientRow('acme-web');
    expect(await adminCall(server.url, 'PATCH', '/tenants/acme/clients/acme-web', { token: tokens.acme, body: { redirect_uris: ['https://ok.example/cb', 'https://x.example/#f'] } })).toMatchObject({
      status: 400,
      body: { error: { field: 'redirect_uris' } },
    });
    expect(await clientRow('acme-web')).toEqual(before);
    expect((await auditRecords(server.ctx, 'client.updated')).filter((r) => r.client_id === 'acme-web')).toEqual([]);
  });

  it('edits theme, capabilities and social ids; the Facebook secret is write-only; the sign-in screens see the change', async () => {
    const patched = await adminCall(server.url, 'PATCH', '/tenants/acme/clients/acme-spa', {
      token: tokens.acme,
      body: {
        name: 'Acme Shop',
        theme: { primaryColor: '#AA0000', backgroundColor: '#FFFFFF', title: 'Acme Shop' },
        permissions: ['users:email:login', 'social:facebook:login'],
        facebook_app_id: '100200300',
        facebook_app_secret: 'fb-app-secret-value',
        i18n: { defaultLocale: 'en' },
        username_policy: { email: { allowedDomains: ['acme.example'] } },
        terms_privacy: { brandName: 'Acme', termsUri: 'https://acme.example/terms' },
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.client).toMatchObject({ name: 'Acme Shop', facebookAppId: '100200300', facebookAppSecretSet: true, theme: { primaryColor: '#AA0000' } });
    expect(JSON.stringify(patched.body)).not.toContain('fb-app-secret-value');
    expect((await clientRow('acme-spa'))!.facebook_app_secret_encrypted).not.toContain('fb-app-secret-value');
    const [record] = await auditRecords(server.ctx, 'client.updated');
    expect(JSON.stringify(record)).not.toContain('fb-app-secret-value');

    const publicView = (await (await fetch(`${server.url}/api/v1/clients/acme-spa`)).json()) as any;
    expect(publicView).toMatchObject({ clientName: 'Acme Shop', theme: { primaryColor: '#AA0000', title: 'Acme Shop' }, fbApp: { clientId: '100200300' } });

    const removed = await adminCall(server.url, 'PATCH', '/tenants/acme/clients/acme-spa', { token: tokens.acme, body: { facebook_app_secret: null } });
    expect(removed.body.client.facebookAppSecretSet).toBe(false);
    // A client does not move to another tenant, and its secret changes only by rotation.
    expect(await adminCall(server.url, 'PATCH', '/tenants/acme/clients/acme-spa', { token: tokens.acme, body: { tenant_id: 'globex' } })).toMatchObject({ status: 400, body: { error: { code: 1000 } } });
    expect((await clientRow('acme-spa'))!.tenant_id).toBe('acme');
  });

  it("lists a tenant's clients, paginated and searchable, to its admins only", async () => {
    const list = await adminCall(server.url, 'GET', '/tenants/acme/clients?page_size=2', { token: tokens.acme });
    expect(list.body).toMatchObject({ page: 1, pageSize: 2, total: 3 });
    expect(list.body.items.map((c: any) => c.id)).toEqual(['acme-spa', 'acme-web']);
    expect((await adminCall(server.url, 'GET', '/tenants/acme/clients?q=shop', { token: tokens.acme })).body.items.map((c: any) => c.id)).toEqual(['acme-spa']);
    const demo = await adminCall(server.url, 'GET', '/tenants/demo/clients', { token: tokens.operator });
    expect(demo.body.items.map((c: any) => [c.id, c.builtIn])).toEqual([
      ['account', true],
      ['admin-console', true],
      ['demo-app', false],
      ['partner-shop', false],
    ]);
    expect(await adminCall(server.url, 'GET', '/tenants/demo/clients', { token: tokens.acme })).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
    expect(await adminCall(server.url, 'GET', '/tenants/demo/clients', { token: tokens.plain })).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
    expect(await adminCall(server.url, 'GET', '/tenants/demo/clients', { token: tokens.relyingParty })).toMatchObject({ status: 401, body: { error: { code: 1102 } } });
    expect(await adminCall(server.url, 'GET', '/tenants/nope/clients', { token: tokens.operator })).toMatchObject({ status: 404 });
  });

  it("never reaches another tenant's client through one's own tenant's path", async () => {
    const before = await clientRow('demo-app');
    expect(await adminCall(server.url, 'GET', '/tenants/acme/clients/demo-app', { token: tokens.acme })).toMatchObject({ status: 404, body: { error: { code: 1061 } } });
    expect(await adminCall(server.url, 'PATCH', '/tenants/acme/clients/demo-app', { token: tokens.acme, body: { name: 'Hijacked' } })).toMatchObject({ status: 404 });
    expect(await adminCall(server.url, 'POST', '/tenants/acme/clients/demo-app/secret', { token: tokens.acme })).toMatchObject({ status: 404 });
    expect(await adminCall(server.url, 'DELETE', '/tenants/acme/clients/demo-app', { token: tokens.acme })).toMatchObject({ status: 404 });
    expect(await clientRow('demo-app')).toEqual(before);
    expect(await secretWorks('demo-app', 'demo-secret')).toBe(true);
  });

  it("rotates a confidential client's secret: the new one answered once, the old one dead at once", async () => {
    const first = await adminCall(server.url, 'POST', '/tenants/demo/clients/demo-app/secret', { token: tokens.demo });
    expect(first.status).toBe(200);
    const secret = first.body.clientSecret as string;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await secretWorks('demo-app', secret)).toBe(true);
    expect(await secretWorks('demo-app', 'demo-secret')).toBe(false);
    // A real token request with the old secret is refused.
    await expect(signIn(server.url, await relyingParty(server.url, 'demo-app', 'demo-secret'), 'demo@example.com', 'Passw0rd!')).rejects.toThrow();
    const [record] = await auditRecords(server.ctx, 'client.secret_rotated');
    expect(record).toMatchObject({ tenant_id: 'demo', client_id: 'demo-app', details: { by: 'admin' } });
    expect(JSON.stringify(record)).not.toContain(secret);
    expect(await adminCall(server.url, 'POST', '/tenants/acme/clients/acme-spa/secret', { token: tokens.acme })).toMatchObject({ status: 400, body: { error: { code: 1002 } } });
  });

  it("keeps Passgate's own clients: no deletion, no URI change, operators only", async () => {
    const before = await clientRow('admin-console');
    expect(await adminCall(server.url, 'DELETE', '/tenants/demo/clients/admin-console', { token: tokens.operator })).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
    expect(await adminCall(server.url, 'PATCH', '/tenants/demo/clients/admin-console', { token: tokens.operator, body: { redirect_uris: ['https://evil.example/cb'] } })).toMatchObject({
      status: 400,
      body: { error: { field: 'redirect_uris' } },
    });
    expect(await adminCall(server.url, 'PATCH', '/tenants/demo/clients/account', { token: tokens.demo, body: { name: 'Mine' } })).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
    expect(await clientRow('admin-console')).toEqual(before);
    const themed = await adminCall(server.url, 'PATCH', '/tenants/demo/clients/admin-console', { token: tokens.operator, body: { theme: { primaryColor: '#123456' } } });
    expect(themed).toMatchObject({ status: 200, body: { client: { builtIn: true, theme: { primaryColor: '#123456' } } } });
  });

  it('deletes a client, audited; deleting again is 404', async () => {
    expect(await adminCall(server.url, 'DELETE', '/tenants/acme/clients/acme-x', { token: tokens.plain })).toMatchObject({ status: 403 });
    expect(await clientRow('acme-x')).toBeDefined();
    const deleted = await adminCall(server.url, 'DELETE', '/tenants/acme/clients/acme-x', { token: tokens.acme });
    expect(deleted.status).toBe(204);
    expect(await clientRow('acme-x')).toBeUndefined();
    const [record] = await auditRecords(server.ctx, 'client.removed');
    expect(record).toMatchObject({ tenant_id: 'acme', client_id: 'acme-x', details: { by: 'admin', actorUserId: acmeAdmin.id } });
    expect(await adminCall(server.url, 'DELETE', '/tenants/acme/clients/acme-x', { token: tokens.acme })).toMatchObject({ status: 404, body: { error: { code: 1061 } } });
  });
});
