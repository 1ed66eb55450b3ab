import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { relyingParty, signIn } from '../../../test/relying-party.ts';
import { accountSignIn } from '../../../test/account.ts';
import { createTenant } from '../../../test/visitor.ts';
import { adminCall, adminSignIn, auditRecords, createAdmin, type TestAdmin } from '../../../test/admin.ts';

describe('admin API: tenants', () => {
  let server: TestServer;
  let operator: TestAdmin;
  let acmeAdmin: TestAdmin;
  const tokens: Record<string, string> = {};
  const tenantRow = (id: string) => server.ctx.db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst();

  beforeAll(async () => {
    server = await startTestServer({ env: { LOGIN_RATE_LIMIT_PER_IP: '1000' } });
    await createTenant(server.ctx, { id: 'acme', name: 'Acme Corp' });
    await createTenant(server.ctx, { id: 'globex', name: 'Globex' });
    operator = await createAdmin(server.ctx, 'op@example.com', [{ role: 'operator' }]);
    acmeAdmin = await createAdmin(server.ctx, 'acme-admin@example.com', [{ role: 'tenant-admin', tenantId: 'acme' }]);
    const plain = await createAdmin(server.ctx, 'plain@example.com', []);
    tokens.operator = await adminSignIn(server.url, operator);
    tokens.acme = await adminSignIn(server.url, acmeAdmin);
    tokens.plain = await adminSignIn(server.url, plain);
    tokens.relyingParty = (await signIn(server.url, await relyingParty(server.url, 'demo-app', 'demo-secret'), 'demo@example.com', 'Passw0rd!')).tokens.access_token;
    tokens.account = (await accountSignIn(server.url, 'demo@example.com')).token;
  });
  afterAll(() => server?.close());

  it('lists every tenant to an operator, paginated and searchable', async () => {
    const all = await adminCall(server.url, 'GET', '/tenants', { token: tokens.operator });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ page: 1, pageSize: 20, total: 3 });
    expect(all.body.items.map((t: any) => t.id)).toEqual(['acme', 'demo', 'globex']);
    expect(all.body.items[0]).toMatchObject({ id: 'acme', name: 'Acme Corp', registrationAllowed: true, passwordPolicy: { minLength: 6 }, passwordHistorySize: 0, createdAt: expect.stringMatching(/^\d{4}-/) });

    const page2 = await adminCall(server.url, 'GET', '/tenants?page=2&page_size=2', { token: tokens.operator });
    expect(page2.body).toMatchObject({ page: 2, pageSize: 2, total: 3 });
    expect(page2.body.items.map((t: any) => t.id)).toEqual(['globex']);
    const found = await adminCall(server.url, 'GET', '/tenants?q=CORP', { token: tokens.operator });
    expect(found.body.items.map((t: any) => t.id)).toEqual(['acme']);
    // LIKE wildcards are taken literally.
    expect((await adminCall(server.url, 'GET', '/tenants?q=%25', { token: tokens.operator })).body.total).toBe(0);
    expect(await adminCall(server.url, 'GET', '/tenants?page_size=101', { token: tokens.operator })).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'page_size' } } });
    expect(await adminCall(server.url, 'GET', '/tenants?page=0', { token: tokens.operator })).toMatchObject({ status: 400, body: { error: { field: 'page' } } });
  });

  it("shows a tenant admin only their tenant, and no other (403 whether it exists or not)", async () => {
    const list = await adminCall(server.url, 'GET', '/tenants', { token: tokens.acme });
    expect(list.body).toMatchObject({ total: 1, items: [{ id: 'acme' }] });
    expect((await adminCall(server.url, 'GET', '/tenants/acme', { token: tokens.acme })).body).toMatchObject({ id: 'acme', name: 'Acme Corp' });
    expect(await adminCall(server.url, 'GET', '/tenants/globex', { token: tokens.acme })).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
    expect(await adminCall(server.url, 'GET', '/tenants/nope', { token: tokens.acme })).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
    expect(await adminCall(server.url, 'GET', '/tenants/nope', { token: tokens.operator })).toMatchObject({ status: 404, body: { error: { code: 1404 } } });
  });

  it('lets an operator create a tenant with every setting, audited with the operator as actor', async () => {
    const created = await adminCall(server.url, 'POST', '/tenants', {
      token: tokens.operator,
      body: {
        id: 'beta',
        name: 'Beta',
        brand_name: 'Beta Brand',
        terms_uri: 'https://beta.example/terms',
        privacy_uri: 'https://beta.example/privacy',
        passwordless_authentication_allowed: false,
        password_based_authentication_allowed: true,
        registration_allowed: false,
        reset_password_allowed: false,
        webauthn_allowed: false,
        password_policy: { minLength: 10, uppercase: 1, number: 1, special: 1 },
        password_max_age_days: 90,
        password_warning_days: 7,
        password_history_size: 5,
        custom_register_checkbox: { name: 'I accept the rules', termUrl: 'https://beta.example/rules' },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: 'beta',
      brandName: 'Beta Brand',
      passwordlessAuthenticationAllowed: false,
      registrationAllowed: false,
      webauthnAllowed: false,
      passwordPolicy: { minLength: 10, uppercase: 1, number: 1, special: 1 },
      passwordMaxAgeDays: 90,
      passwordWarningDays: 7,
      passwordHistorySize: 5,
      customRegisterCheckbox: { name: 'I accept the rules' },
    });
    expect(await tenantRow('beta')).toMatchObject({ registration_allowed: 0, password_history_size: 5, password_max_age_days: 90 });
    const [record] = await auditRecords(server.ctx, 'tenant.created');
    expect(record).toMatchObject({ tenant_id: 'beta', ip: '127.0.0.1', details: { by: 'admin', actorUserId: operator.id } });

    expect(await adminCall(server.url, 'POST', '/tenants', { token: tokens.operator, body: { id: 'beta', name: 'Again' } })).toMatchObject({ status: 409, body: { error: { field: 'id' } } });
  });

  it('names the field of bad input (400) and creates nothing', async () => {
    const post = (body: unknown) => adminCall(server.url, 'POST', '/tenants', { token: tokens.operator, body });
    expect(await post({ id: 'Bad Id', name: 'x' })).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'id' } } });
    expect(await post({ id: 'gamma' })).toMatchObject({ status: 400, body: { error: { code: 1001, field: 'name' } } });
    expect(await post({ id: 'gamma', name: 'G', terms_uri: 'javascript:alert(1)' })).toMatchObject({ status: 400, body: { error: { field: 'terms_uri' } } });
    expect(await post({ id: 'gamma', name: 'G', password_max_age_days: 30, password_warning_days: 30 })).toMatchObject({
      status: 400,
      body: { error: { code: 1002, field: 'password_warning_days' } },
    });
    expect(await post({ id: 'gamma', name: 'G', password_policy: { minLength: -1, uppercase: 0, number: 0, special: 0 } })).toMatchObject({ status: 400, body: { error: { field: 'password_policy.minLength' } } });
    expect(await tenantRow('gamma')).toBeUndefined();
  });

  it('refuses creation to a tenant admin, a plain user, and other clients\' tokens, creating nothing', async () => {
    const body = { id: 'sneaky', name: 'Sneaky' };
    expect(await adminCall(server.url, 'POST', '/tenants', { token: tokens.acme, body })).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
    expect(await adminCall(server.url, 'POST', '/tenants', { token: tokens.plain, body })).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
    expect(await adminCall(server.url, 'POST', '/tenants', { token: tokens.relyingParty, body })).toMatchObject({ status: 401, body: { error: { code: 1102 } } });
    expect(await adminCall(server.url, 'POST', '/tenants', { token: tokens.account, body })).toMatchObject({ status: 401, body: { error: { code: 1102 } } });
    expect(await tenantRow('sneaky')).toBeUndefined();
    // The token is checked before the body is even parsed.
    expect((await adminCall(server.url, 'POST', '/tenants', { body: '{not json' })).status).toBe(401);
    expect((await adminCall(server.url, 'POST', '/tenants', { token: tokens.plain, body: { nonsense: true } })).status).toBe(403);
  });

  it("lets a tenant admin edit their tenant's switches and password rules, and nobody else's", async () => {
    const changed = await adminCall(server.url, 'PATCH', '/tenants/acme', {
      token: tokens.acme,
      body: { registration_allowed: false, webauthn_allowed: false, brand_name: null, password_policy: { minLength: 12, uppercase: 0, number: 1, special: 0 }, password_history_size: 3 },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: 'acme', name: 'Acme Corp', registrationAllowed: false, webauthnAllowed: false, brandName: null, passwordPolicy: { minLength: 12 }, passwordHistorySize: 3 });
    // Visible to the sign-in screens at once.
    expect((await (await fetch(`${server.url}/api/v1/tenants/acme/password-policy`)).json()) as any).toMatchObject({ minLength: 12, number: 1 });
    const [record] = await auditRecords(server.ctx, 'tenant.updated');
    expect(record).toMatchObject({ tenant_id: 'acme', details: { by: 'admin', actorUserId: acmeAdmin.id, fields: expect.arrayContaining(['registrationAllowed', 'passwordPolicy']) } });

    const before = await tenantRow('globex');
    expect(await adminCall(server.url, 'PATCH', '/tenants/globex', { token: tokens.acme, body: { registration_allowed: false } })).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
    expect(await adminCall(server.url, 'PATCH', '/tenants/globex', { token: tokens.plain, body: { registration_allowed: false } })).toMatchObject({ status: 403 });
    expect(await tenantRow('globex')).toEqual(before);

    expect(await adminCall(server.url, 'PATCH', '/tenants/acme', { token: tokens.acme, body: {} })).toMatchObject({ status: 400, body: { error: { code: 1000 } } });
    expect(await adminCall(server.url, 'PATCH', '/tenants/acme', { token: tokens.acme, body: { password_max_age_days: 5, password_warning_days: 9 } })).toMatchObject({
      status: 400,
      body: { error: { field: 'password_warning_days' } },
    });
    expect(await adminCall(server.url, 'PATCH', '/tenants/nope', { token: tokens.operator, body: { name: 'x' } })).toMatchObject({ status: 404 });
  });

  it("leaves the console's own tenant to operators: its tenant admin cannot shut the operators out", async () => {
    const demoAdmin = await createAdmin(server.ctx, 'demo-admin@example.com', [{ role: 'tenant-admin', tenantId: 'demo' }]);
    const token = await adminSignIn(server.url, demoAdmin);
    const before = await tenantRow('demo');
    expect(await adminCall(server.url, 'PATCH', '/tenants/demo', { token, body: { password_based_authentication_allowed: false } })).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
    expect(await tenantRow('demo')).toEqual(before);
    // They still read it; an operator changes it.
    expect((await adminCall(server.url, 'GET', '/tenants/demo', { token })).status).toBe(200);
    const changed = await adminCall(server.url, 'PATCH', '/tenants/demo', { token: tokens.operator, body: { brand_name: 'Passgate Demo' } });
    expect(changed).toMatchObject({ status: 200, body: { brandName: 'Passgate Demo' } });
  });

  it('lists the tenant calls in the OpenAPI document with snake_case bodies', async () => {
    const doc = (await (await fetch(`${server.url}/api/docs`)).json()) as any;
    expect(doc.paths['/api/admin/v1/tenants'].get.tags).toEqual(['admin']);
    expect(Object.keys(doc.paths['/api/admin/v1/tenants'].post.requestBody.content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['id', 'name', 'password_policy', 'password_max_age_days', 'custom_register_checkbox']),
    );
    expect(doc.paths['/api/admin/v1/tenants/{tenantId}'].patch).toBeDefined();
  });
});
