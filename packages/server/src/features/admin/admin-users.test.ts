import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { authorizationRequest, relyingParty, startSignIn } from '../../../test/relying-party.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { accountSignIn, call, createAccount, userById } from '../../../test/account.ts';
import { createTenant, lastCode, messageCount, postJson } from '../../../test/visitor.ts';
import { adminCall, adminSignIn, auditRecords, createAdmin, type TestAdmin } from '../../../test/admin.ts';
import { createUserService } from '../users/users.service.ts';
import { createWebauthnQueries } from '../webauthn/webauthn.queries.ts';
import { createBackupCodeQueries } from '../mfa/backup-codes.queries.ts';
import { noticesIdle } from '../known-browsers/notice-delivery.ts';
import { createAdminRoleQueries } from './admin-roles.queries.ts';

/** The admin API's users (issue 17) over real HTTP: who may, the search, a user's page, every action's effect and audit record. */
describe('admin API: users', () => {
  let server: TestServer;
  const tokens: Record<string, string> = {};
  let operator: TestAdmin;
  let demoAdmin: TestAdmin;
  let acmeAdmin: TestAdmin;

  beforeAll(async () => {
    server = await startTestServer({ env: { LOGIN_RATE_LIMIT_PER_IP: '1000' } });
    await createTenant(server.ctx, { id: 'acme' });
    operator = await createAdmin(server.ctx, 'op@example.com', [{ role: 'operator' }]);
    demoAdmin = await createAdmin(server.ctx, 'demo-admin@example.com', [{ role: 'tenant-admin', tenantId: 'demo' }]);
    acmeAdmin = await createAdmin(server.ctx, 'acme-admin@example.com', [{ role: 'tenant-admin', tenantId: 'acme' }]);
    const plain = await createAdmin(server.ctx, 'plain@example.com', []);
    tokens.operator = await adminSignIn(server.url, operator);
    tokens.demoAdmin = await adminSignIn(server.url, demoAdmin);
    tokens.acmeAdmin = await adminSignIn(server.url, acmeAdmin);
    tokens.plain = await adminSignIn(server.url, plain);
    // The operator's own tokens of other clients: a relying party's and the account area's.
    // (Each authenticator code signs in once: the last step used is forgotten between these sign-ins.)
    const again = () => server.ctx.db.updateTable('users').set({ totp_last_step: null }).where('id', '=', operator.id).execute();
    await again();
    tokens.relyingParty = await adminSignIn(server.url, operator, await relyingParty(server.url, 'demo-app', 'demo-secret'));
    await again();
    tokens.account = await adminSignIn(server.url, operator, await relyingParty(server.url, 'account'));
  });
  afterAll(() => server?.close());

  const as = (who: string, method: string, path: string, body?: unknown) => adminCall(server.url, method, path, { token: tokens[who], ...(body === undefined ? {} : { body }), language: 'en' });

  /** A password sign-in at demo-app: the login API's answer (200 with redirectTo, or the error). */
  async function tryLogin(username: string, password = 'Passw0rd!') {
    const browser = new TestBrowser();
    const challenge = await startSignIn(browser, server.url, await authorizationRequest(await relyingParty(server.url, 'demo-app', 'demo-secret')));
    const response = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username, password, client_id: 'demo-app' });
    return { status: response.status, body: (await response.json()) as any };
  }

  const ACTIONS: [string, string][] = [
    ['POST', '/disable'],
    ['POST', '/enable'],
    ['POST', '/unlock'],
    ['POST', '/activation'],
    ['POST', '/password-reset'],
    ['DELETE', '/mfa'],
    ['POST', '/sign-out'],
    ['DELETE', '/devices/nope'],
    ['DELETE', ''],
  ];

  it('lists the users, audit and stats routes in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${server.url}/api/docs`)).json()) as any;
    const user = '/api/admin/v1/tenants/{tenantId}/users/{userId}';
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/admin/v1/tenants/{tenantId}/users',
        user,
        ...['disable', 'enable', 'unlock', 'activation', 'password-reset', 'mfa', 'sign-out', 'devices/{deviceId}'].map((p) => `${user}/${p}`),
        '/api/admin/v1/audit',
        '/api/admin/v1/audit.csv',
        '/api/admin/v1/stats/sign-ins',
      ]),
    );
    expect(doc.paths[user].delete.responses).toHaveProperty('204');
    expect(doc.paths['/api/admin/v1/tenants/{tenantId}/users'].get.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['tenantId', 'page', 'page_size', 'q', 'status']));
  });

  describe('who may', () => {
    it('lets an operator and the tenant admin search and read; refuses a tenant admin of another tenant and a plain admin (403 1301), other tokens (401)', async () => {
      const id = await createAccount(server.ctx, { email: 'reader@example.com' });
      for (const who of ['operator', 'demoAdmin']) {
        expect((await as(who, 'GET', '/tenants/demo/users?q=reader')).body).toMatchObject({ total: 1, items: [{ id, email: 'reader@example.com' }] });
        expect(await as(who, 'GET', `/tenants/demo/users/${id}`)).toMatchObject({ status: 200, body: { id, email: 'reader@example.com' } });
      }
      for (const who of ['acmeAdmin', 'plain']) {
        for (const path of ['/tenants/demo/users', `/tenants/demo/users/${id}`]) {
          expect(await as(who, 'GET', path)).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
        }
      }
      for (const who of ['relyingParty', 'account']) expect(await as(who, 'GET', '/tenants/demo/users')).toMatchObject({ status: 401, body: { error: { code: 1102 } } });
      expect(await adminCall(server.url, 'GET', '/tenants/demo/users')).toMatchObject({ status: 401, body: { error: { code: 1101 } } });
    });

    it('refuses every action to a tenant admin of another tenant, a plain admin and other tokens, changing nothing and recording nothing', async () => {
      const id = await createAccount(server.ctx, { email: 'guarded@example.com' });
      await server.ctx.db.updateTable('users').set({ locked_until: Date.now() + 3_600_000, failed_login_count: 7 }).where('id', '=', id).execute();
      const before = await userById(server.ctx, id);
      const audited = await server.ctx.db.selectFrom('audit_events').select('id').where('user_id', '=', id).execute();
      for (const [method, path] of ACTIONS) {
        for (const who of ['acmeAdmin', 'plain']) {
          expect(await as(who, method, `/tenants/demo/users/${id}${path}`), `${who} ${method} ${path}`).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
        }
        for (const who of ['relyingParty', 'account']) expect((await as(who, method, `/tenants/demo/users/${id}${path}`)).status).toBe(401);
        // Through the admin's own tenant, the user of another is not found.
        expect((await as('acmeAdmin', method, `/tenants/acme/users/${id}${path}`)).status).toBe(404);
      }
      expect(await userById(server.ctx, id)).toEqual(before);
      expect(await server.ctx.db.selectFrom('audit_events').select('id').where('user_id', '=', id).execute()).toEqual(audited);
      expect(await messageCount(server.ctx, 'guarded@example.com')).toBe(0);
    });

    it("lets only an operator act on an operator's account: a tenant admin of its tenant may read it, not disable or delete it", async () => {
      const demo = await server.ctx.users.findByEmail('demo', 'demo@example.com');
      expect((await as('demoAdmin', 'GET', `/tenants/demo/users/${demo!.id}`)).body).toMatchObject({ adminRoles: { operator: true } });
      for (const [method, path] of [['POST', '/disable'], ['DELETE', ''], ['DELETE', '/mfa'], ['POST', '/sign-out']] as const) {
        expect(await as('demoAdmin', method, `/tenants/demo/users/${demo!.id}${path}`)).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
      }
      expect((await userById(server.ctx, demo!.id))?.status).toBe('active');
    });

    describe("the admins of other tenants, whose accounts all live in the console's tenant", () => {
      let evilAdmin: TestAdmin;
      let token: string;

      beforeAll(async () => {
        await createTenant(server.ctx, { id: 'evil' });
        evilAdmin = await createAdmin(server.ctx, 'evil-admin@example.com', [{ role: 'tenant-admin', tenantId: 'evil' }]);
        token = await adminSignIn(server.url, evilAdmin);
      });

      /** Everything an admin action could change about the account: its row, devices, backup codes, roles, audit trail and messages. */
      async function stateOf(id: string, email: string) {
        await noticesIdle(server.ctx);
        return {
          user: await userById(server.ctx, id),
          devices: await createWebauthnQueries(server.ctx.db).listForUser(id),
          backupCodes: await createBackupCodeQueries(server.ctx.db).countUnused(id),
          roles: await createAdminRoleQueries(server.ctx.db).rolesOf(id),
          audit: await server.ctx.db.selectFrom('audit_events').select(['id', 'type']).where('user_id', '=', id).orderBy('id').execute(),
          messages: await messageCount(server.ctx, email),
        };
      }

      it("refuses every action of a tenant admin of the console's tenant on the admin of another tenant (403 1301), changing nothing", async () => {
        // The target as an attacker would find it: 2-step on with backup codes, a device, a lockout to lift.
        await createBackupCodeQueries(server.ctx.db).replaceAll(evilAdmin.id, ['e1', 'e2'], Date.now());
        await createWebauthnQueries(server.ctx.db).insertCredential({ id: 'evil-dev', tenantId: 'demo', userId: evilAdmin.id, credentialId: 'cred-evil', publicKey: new Uint8Array([9]), counter: 0, transports: undefined, deviceName: 'Key', at: Date.now() });
        await server.ctx.db.updateTable('users').set({ locked_until: Date.now() + 3_600_000, failed_login_count: 7 }).where('id', '=', evilAdmin.id).execute();
        const before = await stateOf(evilAdmin.id, evilAdmin.email);
        expect(before).toMatchObject({ user: { enable_mfa: 1, status: 'active' }, backupCodes: 2, devices: [{ id: 'evil-dev' }], roles: { operator: false, tenantAdminOf: ['evil'] } });

        // The user's page still shows the account (reading changes nothing); every action is refused.
        expect(await as('demoAdmin', 'GET', `/tenants/demo/users/${evilAdmin.id}`)).toMatchObject({ status: 200, body: { adminRoles: { tenantAdminOf: ['evil'] } } });
        for (const [method, path] of [...ACTIONS, ['DELETE', '/devices/evil-dev']] as const) {
          expect(await as('demoAdmin', method, `/tenants/demo/users/${evilAdmin.id}${path}`), `${method} ${path}`).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
        }

        expect(await stateOf(evilAdmin.id, evilAdmin.email)).toEqual(before);
        // Still signed in to the console, and still the admin of their tenant.
        expect(await adminCall(server.url, 'GET', '/me', { token })).toMatchObject({ status: 200, body: { userId: evilAdmin.id, tenantAdminOf: ['evil'] } });
        expect((await adminCall(server.url, 'GET', '/tenants/evil/users', { token })).status).toBe(200);
      });

      it('refuses a tenant admin acting on an admin of more tenants than theirs, and lets them act on one of no more', async () => {
        const wider = await createAdmin(server.ctx, 'wider-admin@example.com', [{ role: 'tenant-admin', tenantId: 'demo' }, { role: 'tenant-admin', tenantId: 'evil' }]);
        const colleague = await createAdmin(server.ctx, 'colleague-admin@example.com', [{ role: 'tenant-admin', tenantId: 'demo' }]);
        const before = await stateOf(wider.id, wider.email);
        for (const [method, path] of [['DELETE', '/mfa'], ['POST', '/disable'], ['POST', '/sign-out'], ['DELETE', '']] as const) {
          expect(await as('demoAdmin', method, `/tenants/demo/users/${wider.id}${path}`), `${method} ${path}`).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
        }
        expect(await stateOf(wider.id, wider.email)).toEqual(before);

        // An admin of demo and evil may act on the admin of evil, a fellow admin of demo on a fellow admin of demo, an admin on themselves.
        tokens.wider = await adminSignIn(server.url, wider);
        expect(await as('wider', 'POST', `/tenants/demo/users/${evilAdmin.id}/unlock`)).toMatchObject({ status: 200, body: { locked: false } });
        expect(await as('demoAdmin', 'DELETE', `/tenants/demo/users/${colleague.id}/mfa`)).toMatchObject({ status: 200, body: { twoStep: { method: null } } });
        expect(await as('demoAdmin', 'POST', `/tenants/demo/users/${demoAdmin.id}/unlock`)).toMatchObject({ status: 200 });
        // An operator may act on anyone's account.
        expect(await as('operator', 'DELETE', `/tenants/demo/users/${wider.id}/mfa`)).toMatchObject({ status: 200, body: { twoStep: { method: null } } });
      });
    });

    it('answers 404 for an unknown tenant or user, and 400 naming the field for bad input', async () => {
      expect(await as('operator', 'GET', '/tenants/nowhere/users')).toMatchObject({ status: 404, body: { error: { code: 1050 } } });
      expect(await as('operator', 'GET', '/tenants/demo/users/no-such-user')).toMatchObject({ status: 404, body: { error: { code: 1010 } } });
      expect(await as('operator', 'POST', '/tenants/demo/users/no-such-user/disable')).toMatchObject({ status: 404, body: { error: { code: 1010 } } });
      expect(await as('operator', 'GET', '/tenants/demo/users?page_size=500')).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'page_size' } } });
      expect(await as('operator', 'GET', '/tenants/demo/users?page=0')).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'page' } } });
      expect(await as('operator', 'GET', '/tenants/demo/users?status=gone')).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'status' } } });
      expect(await as('operator', 'GET', '/tenants/Not%20A%20Tenant/users')).toMatchObject({ status: 400, body: { error: { field: 'tenantId' } } });
    });
  });

  describe('search', () => {
    beforeAll(async () => {
      await createTenant(server.ctx, { id: 'search' });
      const users = createUserService({ db: server.ctx.db });
      let created = Date.UTC(2026, 0, 1);
      const add = async (email: string | null, phoneNumber: string | null, name: string, status: 'active' | 'pending' | 'disabled' = 'active') => {
        const user = await users.createUser({ tenantId: 'search', email, phoneNumber, name, password: 'Passw0rd!', status });
        // One second apart, in this order: the list is newest first.
        created += 1000;
        await server.ctx.db.updateTable('users').set({ created_at: created }).where('id', '=', user.id).execute();
      };
      await add('an.nguyen@example.com', '0912345678', 'Nguyễn Văn An');
      await add('binh.dang@example.com', '0987654321', 'Đặng Thị Bình');
      await add('chi@sample.org', null, 'Trần Chi', 'pending');
      await add(null, '0912000111', 'Lê Văn Dũng');
      await add('under_score@example.com', null, 'Underscore Person');
      await add('underxscore@example.com', null, 'Xavier Person', 'disabled');
      // The same address in another tenant never shows up here.
      await createUserService({ db: server.ctx.db }).createUser({ tenantId: 'acme', email: 'an.nguyen@example.com', name: 'Other An', password: 'Passw0rd!' });
    });

    const search = async (query: string) => (await as('operator', 'GET', `/tenants/search/users${query}`)).body;
    const emails = async (query: string) => (await search(query)).items.map((u: any) => u.email ?? u.phoneNumber);

    it('finds by the beginning of an e-mail address, a phone number or a name (any case, Vietnamese letters too), in this tenant only', async () => {
      expect(await emails('?q=an.ng')).toEqual(['an.nguyen@example.com']);
      expect(await emails('?q=AN.NGUYEN@')).toEqual(['an.nguyen@example.com']);
      expect((await emails('?q=0912')).sort()).toEqual(['0912000111', 'an.nguyen@example.com']);
      expect(await emails('?q=%2B84%20987')).toEqual(['binh.dang@example.com']);
      expect(await emails('?q=nguy%E1%BB%85n')).toEqual(['an.nguyen@example.com']);
      expect(await emails('?q=NGUY%E1%BB%84N%20V')).toEqual(['an.nguyen@example.com']);
      expect(await emails(`?q=${encodeURIComponent('đặng')}`)).toEqual(['binh.dang@example.com']);
      expect(await emails(`?q=${encodeURIComponent('Đặng Thị')}`)).toEqual(['binh.dang@example.com']);
      expect(await emails('?q=example.com')).toEqual([]);
      // % and _ are characters here, not wildcards.
      expect(await emails('?q=under_')).toEqual(['under_score@example.com']);
      expect(await emails('?q=%25')).toEqual([]);
    });

    it('pages newest first with the total, and filters by status', async () => {
      const all = await search('?page_size=2');
      expect(all).toMatchObject({ page: 1, pageSize: 2, total: 6 });
      expect(all.items.map((u: any) => u.name)).toEqual(['Xavier Person', 'Underscore Person']);
      expect((await search('?page_size=2&page=3')).items.map((u: any) => u.name)).toEqual(['Đặng Thị Bình', 'Nguyễn Văn An']);
      expect(await search('?page=9')).toMatchObject({ items: [], total: 6 });
      expect(await search('?status=disabled&q=under')).toMatchObject({ total: 1, items: [{ email: 'underxscore@example.com' }] });
      expect(await search('?status=pending')).toMatchObject({ total: 1, items: [{ email: 'chi@sample.org', status: 'pending' }] });
      const item = (await search('?q=chi')).items[0];
      expect(Object.keys(item).sort()).toEqual(
        ['createdAt', 'email', 'emailVerified', 'id', 'locked', 'lockedUntil', 'name', 'phoneNumber', 'phoneNumberVerified', 'registrationMethod', 'status', 'tenantId', 'twoStepMethod'].sort(),
      );
    });
  });

  describe("a user's page", () => {
    it('shows the profile, last sign-in, identities, devices, 2-step and recent events, never a secret', async () => {
      const id = await createAccount(server.ctx, { email: 'page@example.com', name: 'Page Person' });
      await tryLogin('page@example.com');
      const now = Date.now();
      await server.ctx.db.insertInto('user_identities').values({ id: 'ident-1', tenant_id: 'demo', user_id: id, provider: 'google', subject: 'g-123', email: 'page@gmail.com', created_at: now }).execute();
      await createWebauthnQueries(server.ctx.db).insertCredential({ id: 'dev-1', tenantId: 'demo', userId: id, credentialId: 'cred-1', publicKey: new Uint8Array([1, 2]), counter: 0, transports: ['internal'], deviceName: 'Laptop', at: now });
      const { status, body } = await as('demoAdmin', 'GET', `/tenants/demo/users/${id}`);
      expect(status).toBe(200);
      expect(body).toMatchObject({
        id,
        email: 'page@example.com',
        name: 'Page Person',
        status: 'active',
        registrationMethod: 'password',
        hasPassword: true,
        locked: false,
        lastSignInAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        identities: [{ provider: 'google', subject: 'g-123', email: 'page@gmail.com' }],
        devices: [{ id: 'dev-1', deviceName: 'Laptop', active: false, lastUsedAt: null }],
        twoStep: { method: null, backupCodesRemaining: 0 },
        adminRoles: { operator: false, tenantAdminOf: [] },
      });
      expect(body.recentEvents.map((e: any) => e.type)).toContain('login.success');
      expect(JSON.stringify(body)).not.toMatch(/password_hash|argon2|totp_secret|Passw0rd/);
    });
  });

  describe('actions', () => {
    /** The admin's audit record of `type` for the user: actor, client and request facts. */
    async function expectAudited(type: string, userId: string, admin: TestAdmin, details: Record<string, unknown> = {}) {
      const record = (await auditRecords(server.ctx, type)).find((r) => r.user_id === userId);
      expect(record, type).toMatchObject({ tenant_id: 'demo', details: { by: 'admin', actorUserId: admin.id, ...details } });
      expect(record?.ip).toBeTruthy();
    }

    it('disables an account: it cannot sign in, its tokens stop working; enabling lets it in again', async () => {
      const id = await createAccount(server.ctx, { email: 'disable-me@example.com' });
      const { token } = await accountSignIn(server.url, 'disable-me@example.com');
      expect((await call(server.url, 'GET', '/api/v1/me', { token })).status).toBe(200);

      const disabled = await as('demoAdmin', 'POST', `/tenants/demo/users/${id}/disable`);
      expect(disabled).toMatchObject({ status: 200, body: { id, status: 'disabled' } });
      expect(await tryLogin('disable-me@example.com')).toMatchObject({ status: 403, body: { error: { code: 1012 } } });
      expect((await call(server.url, 'GET', '/api/v1/me', { token })).status).toBe(401);
      await expectAudited('user.disabled', id, demoAdmin);
      await expectAudited('sessions.ended', id, demoAdmin, { reason: 'disabled' });
      expect(await as('demoAdmin', 'POST', `/tenants/demo/users/${id}/disable`)).toMatchObject({ status: 409, body: { error: { code: 1305 } } });

      expect(await as('operator', 'POST', `/tenants/demo/users/${id}/enable`)).toMatchObject({ status: 200, body: { status: 'active' } });
      await expectAudited('user.enabled', id, operator);
      expect((await tryLogin('disable-me@example.com')).status).toBe(200);
      expect(await as('operator', 'POST', `/tenants/demo/users/${id}/enable`)).toMatchObject({ status: 409, body: { error: { code: 1305 } } });
    });

    it('refuses to disable or delete your own account, or to strip its 2-step verification or devices', async () => {
      const before = await userById(server.ctx, demoAdmin.id);
      expect(before?.enable_mfa).toBe(1);
      expect(await as('demoAdmin', 'POST', `/tenants/demo/users/${demoAdmin.id}/disable`)).toMatchObject({ status: 409, body: { error: { code: 1306 } } });
      expect(await as('demoAdmin', 'DELETE', `/tenants/demo/users/${demoAdmin.id}`)).toMatchObject({ status: 409, body: { error: { code: 1306 } } });
      // A console token alone (stolen, say) must not take the second factor off its own account.
      expect(await as('demoAdmin', 'DELETE', `/tenants/demo/users/${demoAdmin.id}/mfa`)).toMatchObject({ status: 409, body: { error: { code: 1306 } } });
      expect(await as('demoAdmin', 'DELETE', `/tenants/demo/users/${demoAdmin.id}/devices/any-device`)).toMatchObject({ status: 409, body: { error: { code: 1306 } } });
      expect(await userById(server.ctx, demoAdmin.id)).toEqual(before);
    });

    it('unlocks a locked account and forgets its failures', async () => {
      const id = await createAccount(server.ctx, { email: 'locked@example.com' });
      await server.ctx.db.updateTable('users').set({ locked_until: Date.now() + 3_600_000, failed_login_count: 6, last_failed_login_at: Date.now() }).where('id', '=', id).execute();
      expect(await tryLogin('locked@example.com')).toMatchObject({ status: 403, body: { error: { code: 1302 } } });
      expect((await as('demoAdmin', 'GET', `/tenants/demo/users/${id}`)).body).toMatchObject({ locked: true, failedLoginCount: 6 });

      expect(await as('demoAdmin', 'POST', `/tenants/demo/users/${id}/unlock`)).toMatchObject({ status: 200, body: { locked: false, lockedUntil: null, failedLoginCount: 0 } });
      await expectAudited('user.unlocked', id, demoAdmin, { wasLocked: true, failures: 6 });
      expect((await tryLogin('locked@example.com')).status).toBe(200);
    });

    it('resends the activation code of a pending account, which activates it; refuses an active one and a second send within 60 s', async () => {
      const user = await createUserService({ db: server.ctx.db }).createUser({ tenantId: 'demo', email: 'pending@example.com', name: 'Pending', password: 'Passw0rd!', status: 'pending', verified: false });
      const sent = await as('demoAdmin', 'POST', `/tenants/demo/users/${user.id}/activation`);
      expect(sent).toMatchObject({ status: 200, body: { channel: 'email', destination: 'pending@example.com', resendAfter: 60 } });
      await expectAudited('code.sent', user.id, demoAdmin, { purpose: 'activation', channel: 'email' });
      expect(await as('demoAdmin', 'POST', `/tenants/demo/users/${user.id}/activation`)).toMatchObject({ status: 429, body: { error: { code: 1291 } } });
      expect(await messageCount(server.ctx, 'pending@example.com')).toBe(1);

      const code = await lastCode(server.ctx, 'pending@example.com');
      expect(await postJson(server.url, '/api/v1/users/confirm', { client_id: 'demo-app', username: 'pending@example.com', code })).toMatchObject({ status: 200 });
      expect((await userById(server.ctx, user.id))?.status).toBe('active');
      expect(await as('demoAdmin', 'POST', `/tenants/demo/users/${user.id}/activation`)).toMatchObject({ status: 409, body: { error: { code: 1013 } } });
    });

    it('sends a password-reset code with which the user sets a new password; the admin never sees it', async () => {
      const id = await createAccount(server.ctx, { email: 'forgetful@example.com' });
      const sent = await as('demoAdmin', 'POST', `/tenants/demo/users/${id}/password-reset`);
      expect(sent).toMatchObject({ status: 200, body: { channel: 'email', destination: 'forgetful@example.com' } });
      expect(JSON.stringify(sent.body)).not.toMatch(/\d{6}/);
      await expectAudited('password.recovery_requested', id, demoAdmin, { channel: 'email' });
      const code = await lastCode(server.ctx, 'forgetful@example.com');
      expect(await postJson(server.url, '/api/v1/password/reset', { client_id: 'demo-app', username: 'forgetful@example.com', code, password: 'N3w-Secret!x' })).toMatchObject({ status: 200 });
      expect((await tryLogin('forgetful@example.com', 'N3w-Secret!x')).status).toBe(200);
    });

    it('refuses a reset code when the tenant does not allow reset, and for an account without a password', async () => {
      const social = await createAccount(server.ctx, { email: 'social-only@example.com' });
      await server.ctx.db.updateTable('users').set({ password_hash: null, registration_method: 'google' }).where('id', '=', social).execute();
      expect(await as('operator', 'POST', `/tenants/demo/users/${social}/password-reset`)).toMatchObject({ status: 409, body: { error: { code: 1305 } } });
      await createTenant(server.ctx, { id: 'noreset', resetPasswordAllowed: false });
      const user = await createUserService({ db: server.ctx.db }).createUser({ tenantId: 'noreset', email: 'x@example.com', name: 'X', password: 'Passw0rd!' });
      expect(await as('operator', 'POST', `/tenants/noreset/users/${user.id}/password-reset`)).toMatchObject({ status: 403, body: { error: { code: 1303 } } });
      expect(await messageCount(server.ctx, 'x@example.com')).toBe(0);
    });

    it('turns 2-step verification off: the secret and backup codes go', async () => {
      const mfaUser = await createAdmin(server.ctx, 'mfa-user@example.com', []);
      await createBackupCodeQueries(server.ctx.db).replaceAll(mfaUser.id, ['h1', 'h2'], Date.now());
      expect((await as('demoAdmin', 'GET', `/tenants/demo/users/${mfaUser.id}`)).body).toMatchObject({ twoStepMethod: 'totp', twoStep: { method: 'totp', backupCodesRemaining: 2 } });

      expect(await as('demoAdmin', 'DELETE', `/tenants/demo/users/${mfaUser.id}/mfa`)).toMatchObject({ status: 200, body: { twoStep: { method: null, backupCodesRemaining: 0 } } });
      const row = await userById(server.ctx, mfaUser.id);
      expect(row).toMatchObject({ enable_mfa: 0, authenticator_type: null, totp_secret_enc: null });
      expect(await createBackupCodeQueries(server.ctx.db).countUnused(mfaUser.id)).toBe(0);
      await expectAudited('mfa.disabled', mfaUser.id, demoAdmin, { tokenType: 'totp' });
      expect(await as('demoAdmin', 'DELETE', `/tenants/demo/users/${mfaUser.id}/mfa`)).toMatchObject({ status: 409, body: { error: { code: 1305 } } });
      // Signing in asks for no second step now.
      expect((await tryLogin('mfa-user@example.com')).body).toHaveProperty('redirectTo');
    });

    it("removes a user's device, and only that user's", async () => {
      const id = await createAccount(server.ctx, { email: 'devices@example.com' });
      const other = await createAccount(server.ctx, { email: 'other-devices@example.com' });
      const queries = createWebauthnQueries(server.ctx.db);
      await queries.insertCredential({ id: 'dev-a', tenantId: 'demo', userId: id, credentialId: 'cred-a', publicKey: new Uint8Array([1]), counter: 0, transports: undefined, deviceName: 'Phone', at: Date.now() });
      await queries.insertCredential({ id: 'dev-b', tenantId: 'demo', userId: other, credentialId: 'cred-b', publicKey: new Uint8Array([2]), counter: 0, transports: undefined, deviceName: 'Key', at: Date.now() });

      expect(await as('demoAdmin', 'DELETE', `/tenants/demo/users/${id}/devices/dev-b`)).toMatchObject({ status: 404 });
      expect(await queries.findForUser(other, 'dev-b')).toBeDefined();
      expect(await as('demoAdmin', 'DELETE', `/tenants/demo/users/${id}/devices/dev-a`)).toMatchObject({ status: 200, body: { devices: [] } });
      expect(await queries.findForUser(id, 'dev-a')).toBeUndefined();
      await expectAudited('webauthn.deleted', id, demoAdmin, { deviceId: 'dev-a', deviceName: 'Phone' });
    });

    it('signs a user out everywhere: its tokens stop working, it may sign in again', async () => {
      const id = await createAccount(server.ctx, { email: 'everywhere@example.com' });
      const { token } = await accountSignIn(server.url, 'everywhere@example.com');
      expect(await as('demoAdmin', 'POST', `/tenants/demo/users/${id}/sign-out`)).toMatchObject({ status: 200, body: { status: 'active' } });
      expect((await call(server.url, 'GET', '/api/v1/me', { token })).status).toBe(401);
      await expectAudited('sessions.ended', id, demoAdmin);
      expect((await tryLogin('everywhere@example.com')).status).toBe(200);
    });

    it('deletes a user for good: it is gone, cannot sign in, and the deletion is audited', async () => {
      const id = await createAccount(server.ctx, { email: 'delete-me@example.com' });
      const { token } = await accountSignIn(server.url, 'delete-me@example.com');
      const deleted = await as('demoAdmin', 'DELETE', `/tenants/demo/users/${id}`);
      expect(deleted.status).toBe(204);
      expect(await userById(server.ctx, id)).toBeUndefined();
      expect((await call(server.url, 'GET', '/api/v1/me', { token })).status).toBe(401);
      expect(await tryLogin('delete-me@example.com')).toMatchObject({ status: 401, body: { error: { code: 1017 } } });
      await expectAudited('account.deleted', id, demoAdmin);
      expect((await as('demoAdmin', 'GET', `/tenants/demo/users/${id}`)).status).toBe(404);
    });
  });
});
