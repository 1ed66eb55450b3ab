import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { relyingParty } from '../../../test/relying-party.ts';
import { createTenant } from '../../../test/visitor.ts';
import { adminCall, adminSignIn, createAdmin, type TestAdmin } from '../../../test/admin.ts';
import { createUserService } from '../users/users.service.ts';
import { createAdminAuditService } from './admin-audit.service.ts';
import { csvCell } from './csv.ts';

/** A CSV body as rows of cells (RFC 4180 quoting), without the byte order mark. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const body = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < body.length; i += 1) {
    const c = body[i];
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && body[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else cell += c;
  }
  return rows;
}

const DAY = 86_400_000;

/** The admin API's audit log, CSV export and sign-in chart (issue 17), over real HTTP. */
describe('admin API: audit log and sign-in stats', () => {
  let server: TestServer;
  const tokens: Record<string, string> = {};
  let operator: TestAdmin;
  let acmeAdmin: TestAdmin;
  const base = Date.UTC(2026, 5, 10, 12, 0, 0);

  beforeAll(async () => {
    server = await startTestServer({ env: { LOGIN_RATE_LIMIT_PER_IP: '1000' } });
    await createTenant(server.ctx, { id: 'acme' });
    await createTenant(server.ctx, { id: 'globex' });
    operator = await createAdmin(server.ctx, 'op@example.com', [{ role: 'operator' }]);
    acmeAdmin = await createAdmin(server.ctx, 'acme-admin@example.com', [{ role: 'tenant-admin', tenantId: 'acme' }]);
    const plain = await createAdmin(server.ctx, 'plain@example.com', [], { twoStep: false });
    tokens.operator = await adminSignIn(server.url, operator);
    tokens.acmeAdmin = await adminSignIn(server.url, acmeAdmin);
    tokens.plain = await adminSignIn(server.url, plain);
    tokens.account = await adminSignIn(server.url, plain, await relyingParty(server.url, 'account'));

    const record = server.ctx.audit.record.bind(server.ctx.audit);
    await record({ type: 'login.failure', tenantId: 'acme', userId: 'u-acme-1', clientId: 'shop', ip: '198.51.100.1', details: { reason: 'wrong_password' } }, base);
    await record({ type: 'login.success', tenantId: 'acme', userId: 'u-acme-1', clientId: 'shop', ip: '198.51.100.1', details: { method: 'password' } }, base + 1000);
    await record({ type: 'login.success', tenantId: 'acme', userId: 'u-acme-2', clientId: 'blog', details: { method: 'google' } }, base + DAY);
    await record({ type: 'login.success', tenantId: 'globex', userId: 'u-globex', clientId: 'app', details: { method: 'password' } }, base + 2000);
    // An operator's command of no tenant: for operators only.
    await record({ type: 'tenant.created', tenantId: null, details: { by: 'cli' } }, base + 3000);
    // Cells a spreadsheet would run, and cells that need quoting.
    await record(
      { type: 'login.failure', tenantId: 'acme', userId: 'u-acme-3', clientId: 'shop', ip: '+84 1', userAgent: '=HYPERLINK("http://evil.example","x")', details: { reason: 'a, "quoted"\nline' } },
      base + 4000,
    );
  });
  afterAll(() => server?.close());

  const as = (who: string, path: string) => adminCall(server.url, 'GET', path, { token: tokens[who], language: 'en' });
  const inWindow = `from=2026-06-10&to=2026-06-11`;

  describe('GET /audit', () => {
    it('lists every record for an operator, newest first, filtered by tenant, type, user, client and time', async () => {
      const all = await as('operator', `/audit?${inWindow}`);
      expect(all.status).toBe(200);
      expect(all.body.total).toBe(6);
      expect(all.body.items.map((i: any) => i.createdAt)).toEqual([...all.body.items.map((i: any) => i.createdAt)].sort().reverse());
      expect(all.body.items[0]).toMatchObject({ type: 'login.success', tenantId: 'acme', userId: 'u-acme-2', clientId: 'blog', details: { method: 'google' } });

      expect((await as('operator', `/audit?${inWindow}&tenant_id=acme`)).body.total).toBe(4);
      expect((await as('operator', `/audit?${inWindow}&type=login.failure`)).body.items.map((i: any) => i.userId)).toEqual(['u-acme-3', 'u-acme-1']);
      expect((await as('operator', `/audit?${inWindow}&user_id=u-acme-1`)).body.total).toBe(2);
      expect((await as('operator', `/audit?${inWindow}&client_id=shop`)).body.total).toBe(3);
      // Only the first day; the date-only `to` takes in that whole day.
      expect((await as('operator', '/audit?from=2026-06-10&to=2026-06-10&tenant_id=acme')).body.total).toBe(3);
      expect((await as('operator', '/audit?from=2026-06-10T12:00:01Z&to=2026-06-10T12:00:03%2B00:00')).body.items.map((i: any) => i.type)).toEqual(['login.success', 'login.success']);
      const paged = await as('operator', `/audit?${inWindow}&page=2&page_size=4`);
      expect(paged.body).toMatchObject({ page: 2, pageSize: 4, total: 6 });
      expect(paged.body.items).toHaveLength(2);
    });

    it("shows a tenant admin only their tenant's records, and refuses another tenant (403 1301)", async () => {
      const own = await as('acmeAdmin', `/audit?${inWindow}`);
      expect(own.body.total).toBe(4);
      expect(new Set(own.body.items.map((i: any) => i.tenantId))).toEqual(new Set(['acme']));
      expect((await as('acmeAdmin', `/audit?${inWindow}&user_id=u-globex`)).body.total).toBe(0);
      expect((await as('acmeAdmin', `/audit?${inWindow}&type=tenant.created`)).body.total).toBe(0);
      expect(await as('acmeAdmin', '/audit?tenant_id=globex')).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
      expect(await as('acmeAdmin', '/audit.csv?tenant_id=globex')).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
      expect(await as('plain', '/audit')).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
      expect(await as('account', '/audit')).toMatchObject({ status: 401, body: { error: { code: 1102 } } });
      expect(await adminCall(server.url, 'GET', '/audit.csv')).toMatchObject({ status: 401, body: { error: { code: 1101 } } });
    });

    it("names each record's user and acting admin by e-mail address (phone number without one), and neither once the account is gone", async () => {
      const users = createUserService({ db: server.ctx.db });
      const lan = await users.createUser({ tenantId: 'acme', email: 'lan@example.com', name: 'Lan', password: 'Passw0rd!' });
      const minh = await users.createUser({ tenantId: 'acme', phoneNumber: '0912345678', name: 'Minh', password: 'Passw0rd!' });
      const gone = await users.createUser({ tenantId: 'acme', email: 'gone@example.com', name: 'Gone', password: 'Passw0rd!' });
      const act = (who: string, method: string, path: string) => adminCall(server.url, method, `/tenants/acme/users/${path}`, { token: tokens[who], language: 'en' });
      expect((await act('acmeAdmin', 'POST', `${lan.id}/disable`)).status).toBe(200);
      expect((await act('operator', 'POST', `${minh.id}/sign-out`)).status).toBe(200);
      expect((await act('operator', 'DELETE', gone.id)).status).toBe(204);

      const log = await as('acmeAdmin', '/audit?tenant_id=acme&page_size=100');
      const of = (type: string, userId: string) => log.body.items.find((i: any) => i.type === type && i.userId === userId);
      expect(of('user.disabled', lan.id)).toMatchObject({ userLabel: 'lan@example.com', actorLabel: 'acme-admin@example.com', details: { by: 'admin', actorUserId: acmeAdmin.id } });
      expect(of('sessions.ended', minh.id)).toMatchObject({ userLabel: '0912345678', actorLabel: 'op@example.com' });
      expect(of('account.deleted', gone.id)).toMatchObject({ userLabel: null, actorLabel: 'op@example.com' });
      // Records of no account, or not an admin's action, name nobody.
      const plainRecord = (await as('operator', `/audit?${inWindow}&user_id=u-acme-1`)).body.items[0];
      expect(plainRecord).toMatchObject({ userLabel: null, actorLabel: null });
    });

    it('answers 400 naming the field for a bad filter', async () => {
      expect(await as('operator', '/audit?from=yesterday')).toMatchObject({ status: 400, body: { error: { field: 'from' } } });
      expect(await as('operator', '/audit?to=2026-13-45')).toMatchObject({ status: 400, body: { error: { field: 'to' } } });
      expect(await as('operator', '/audit?type=DROP%20TABLE')).toMatchObject({ status: 400, body: { error: { field: 'type' } } });
      expect(await as('operator', '/audit?page_size=0')).toMatchObject({ status: 400, body: { error: { field: 'page_size' } } });
      expect(await as('operator', '/audit?from=2026-06-11&to=2026-06-10T00:00:00Z')).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'to' } } });
    });
  });

  describe('GET /audit.csv', () => {
    it('exports the filtered records as CSV that no spreadsheet runs as formulas', async () => {
      const response = await fetch(`${server.url}/api/admin/v1/audit.csv?${inWindow}&tenant_id=acme`, { headers: { authorization: `Bearer ${tokens.acmeAdmin}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="passgate-audit-\d{4}-\d\d-\d\d\.csv"$/);
      const bytes = Buffer.from(await response.arrayBuffer());
      // A UTF-8 byte order mark, so that spreadsheets read Vietnamese.
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const text = bytes.subarray(3).toString('utf8');
      expect(text.startsWith('id,created_at,type,tenant_id,user_id,client_id,ip,user_agent,details\r\n')).toBe(true);
      const rows = parseCsv(text);
      expect(rows).toHaveLength(5);
      const [header] = rows;
      const tricky = rows.find((r) => r[4] === 'u-acme-3');
      expect(header).toEqual(['id', 'created_at', 'type', 'tenant_id', 'user_id', 'client_id', 'ip', 'user_agent', 'details']);
      expect(tricky).toEqual([
        expect.any(String),
        new Date(base + 4000).toISOString(),
        'login.failure',
        'acme',
        'u-acme-3',
        'shop',
        "'+84 1",
        `'=HYPERLINK("http://evil.example","x")`,
        JSON.stringify({ reason: 'a, "quoted"\nline' }),
      ]);
      expect(rows.slice(1).map((r) => r[4])).toEqual(['u-acme-2', 'u-acme-3', 'u-acme-1', 'u-acme-1']);
    });

    it('neutralises every formula start and quotes what needs it', () => {
      expect(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'].map(csvCell)).toEqual(["'=1+1", "'+1", "'-1", "'@SUM(A1)", "'\tx", `"'\rx"`]);
      expect(csvCell('a,b')).toBe('"a,b"');
      expect(csvCell('say "hi"')).toBe('"say ""hi"""');
      expect(csvCell('=a,"b"')).toBe(`"'=a,""b"""`);
      expect(csvCell(null)).toBe('');
      expect(csvCell({ k: 'v' })).toBe('"{""k"":""v""}"');
      expect(csvCell('plain')).toBe('plain');
    });

    it('pages through a long export in chunks without losing or repeating a record', async () => {
      const at = Date.UTC(2026, 6, 1);
      // 2,500 records, many sharing a millisecond: the keyset paging goes by time, then id.
      const rows = Array.from({ length: 2500 }, (_, i) => ({
        id: `bulk-${String(i).padStart(5, '0')}`,
        tenant_id: 'globex',
        user_id: null,
        client_id: null,
        type: 'login.failure',
        ip: null,
        user_agent: null,
        details: null,
        created_at: at + Math.floor(i / 7),
      }));
      for (let i = 0; i < rows.length; i += 500) await server.ctx.db.insertInto('audit_events').values(rows.slice(i, i + 500)).execute();
      const response = await fetch(`${server.url}/api/admin/v1/audit.csv?tenant_id=globex&from=2026-07-01&to=2026-07-01`, { headers: { authorization: `Bearer ${tokens.operator}` } });
      const ids = parseCsv(await response.text()).slice(1);
      expect(ids).toHaveLength(2500);
      expect(new Set(ids.map((r) => r[0])).size).toBe(2500);
    });
  });

  describe('GET /stats/sign-ins', () => {
    it('counts finished sign-ins by method, failures and lockouts per local day, in one tenant or all', async () => {
      const service = createAdminAuditService(server.ctx);
      const day = Date.UTC(2026, 7, 20); // midnight UTC
      const record = (type: any, tenantId: string, at: number, details?: Record<string, unknown>) => server.ctx.audit.record({ type, tenantId, details }, at);
      await record('login.success', 'acme', day + 1000, { method: 'password' });
      await record('login.success', 'acme', day + 2000, { method: 'password', secondFactor: 'totp' });
      // A passwordless code that still needed 2-step: counted once, by its login.success.
      await record('passwordless.success', 'acme', day + 3000, { created: false, secondStep: 'totp' });
      await record('login.success', 'acme', day + 3500, { method: 'passwordless', secondFactor: 'totp' });
      await record('passwordless.success', 'acme', day + 4000, { created: true });
      await record('social.login', 'acme', day + 5000, { provider: 'google' });
      await record('social.login', 'acme', day + 6000, { provider: 'facebook' });
      await record('webauthn.login', 'acme', day + 7000);
      await record('login.success', 'acme', day + 8000, { method: 'activation' });
      await record('login.failure', 'acme', day + 9000, { reason: 'wrong_password' });
      await record('mfa.failure', 'acme', day + 9500, { tokenType: 'totp' });
      await record('social.login_failed', 'acme', day + 9600, { provider: 'google' });
      await record('login.locked', 'acme', day + 10_000, { lockedUntil: 1 });
      // 23:30 UTC: the next day in Vietnam (UTC+7).
      await record('login.success', 'acme', day + 23.5 * 3_600_000, { method: 'password' });
      await record('login.success', 'globex', day + 1000, { method: 'password' });

      const now = day + 2 * DAY + 3_600_000;
      const utc = await service.signIns({ userId: operator.id, operator: true, tenantAdminOf: [] } as any, { tenant_id: 'acme', days: 3, utc_offset_minutes: 0 }, now);
      expect(utc.days.map((d) => d.date)).toEqual(['2026-08-20', '2026-08-21', '2026-08-22']);
      expect(utc.days[0]).toEqual({
        date: '2026-08-20',
        signIns: { password: 3, passwordless: 2, google: 1, facebook: 1, device: 1, other: 1 },
        total: 9,
        failures: 3,
        lockouts: 1,
      });
      expect(utc.days[1]!.total).toBe(0);

      const vietnam = await service.signIns({ userId: operator.id, operator: true, tenantAdminOf: [] } as any, { tenant_id: 'acme', days: 3, utc_offset_minutes: 420 }, now);
      expect(vietnam.days.map((d) => [d.date, d.total])).toEqual([
        ['2026-08-20', 8],
        ['2026-08-21', 1],
        ['2026-08-22', 0],
      ]);
      const all = await service.signIns({ userId: operator.id, operator: true, tenantAdminOf: [] } as any, { days: 3, utc_offset_minutes: 0 }, now);
      expect(all).toMatchObject({ tenantId: null });
      expect(all.days[0]!.total).toBe(10);
      // A tenant admin counts only their tenants, whatever they ask.
      const acmeOnly = await service.signIns({ userId: acmeAdmin.id, operator: false, tenantAdminOf: ['acme'] } as any, { days: 3, utc_offset_minutes: 0 }, now);
      expect(acmeOnly.days[0]!.total).toBe(9);
    });

    it('answers 30 days by default, scoped to the admin, and refuses another tenant', async () => {
      const before = new Date().toISOString().slice(0, 10);
      const response = await as('acmeAdmin', '/stats/sign-ins');
      const after = new Date().toISOString().slice(0, 10);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ tenantId: null, methods: ['password', 'passwordless', 'google', 'facebook', 'device', 'other'] });
      expect(response.body.days).toHaveLength(30);
      expect([before, after]).toContain(response.body.days[29].date);
      expect(await as('acmeAdmin', '/stats/sign-ins?tenant_id=globex')).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
      expect(await as('operator', '/stats/sign-ins?days=91')).toMatchObject({ status: 400, body: { error: { field: 'days' } } });
      expect(await as('operator', '/stats/sign-ins?utc_offset_minutes=900')).toMatchObject({ status: 400, body: { error: { field: 'utc_offset_minutes' } } });
      expect(await as('plain', '/stats/sign-ins')).toMatchObject({ status: 403 });
    });
  });
});
