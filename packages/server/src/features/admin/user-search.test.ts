import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresSchema } from '../../../test/test-server.ts';
import { createDatabase, migrateToLatest, type Db, type DbEngine } from '../../db/database.ts';
import { createAdminUserQueries } from './admin-users.queries.ts';
import { prefixEnd, searchTerms } from './user-search.ts';

describe('user search terms', () => {
  it('reads an @ as an e-mail prefix, digits as a phone (or e-mail) prefix, anything else as a name (or e-mail) prefix', () => {
    expect(searchTerms('  ', 'sqlite')).toBeUndefined();
    expect(searchTerms('An.Nguyen@Ex', 'sqlite')).toEqual({ email: 'an.nguyen@ex' });
    expect(searchTerms('+84 912-345', 'postgres')).toEqual({ phone: '0912345', email: '+84 912-345' });
    expect(searchTerms('Nguyễn', 'postgres')).toEqual({ email: 'nguyễn', names: ['nguyễn'] });
    // SQLite's lower() lowers A-Z only: "Đặng Thị" is "Đặng thị" to it, so that form is searched too.
    expect(searchTerms('đặng thị', 'sqlite')).toEqual({ email: 'đặng thị', names: ['đặng thị', 'Đặng thị'] });
    expect(searchTerms('TRAN', 'sqlite')).toEqual({ email: 'tran', names: ['tran'] });
  });

  it('bounds a prefix by its last character moved on by one code point', () => {
    expect(prefixEnd('abc')).toBe('abd');
    expect(prefixEnd('đặ')).toBe(`đ${String.fromCodePoint(0x1eb7 + 1)}`);
    expect(prefixEnd('a\u{10FFFF}')).toBe('b');
    expect(prefixEnd('')).toBeUndefined();
  });
});

/**
 * The search on 100,000 users of a tenant (and 5,000 of another), on the engine the suite runs on
 * (SQLite, or PostgreSQL with `npm run test:postgres`): every kind of search reads an index range,
 * never the whole table, and finds what it should. Plans, not timings: the machine's speed varies.
 */
describe('user search on 100,000 users', () => {
  let db: Db;
  let engine: DbEngine;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const databaseUrl = process.env.DATABASE_URL;
    if (databaseUrl?.startsWith('postgres')) {
      const schema = await freshPostgresSchema(databaseUrl);
      db = createDatabase(schema.url);
      engine = 'postgres';
      cleanup = async () => {
        await db.destroy();
        await schema.drop();
      };
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'passgate-search-'));
      db = createDatabase(`sqlite:${join(dir, 'test.sqlite')}`);
      engine = 'sqlite';
      cleanup = async () => {
        await db.destroy();
        rmSync(dir, { recursive: true, force: true });
      };
    }
    await migrateToLatest(db, engine);
    const now = Date.UTC(2026, 0, 1);
    const tenant = (id: string) => ({ id, name: id, brand_name: null, terms_uri: null, privacy_uri: null, passwordless_authentication_allowed: 1, password_based_authentication_allowed: 1, registration_allowed: 1, reset_password_allowed: 1, webauthn_allowed: 1, password_policy: null, password_max_age_days: null, password_warning_days: null, password_history_size: 0, custom_register_checkbox: null, created_at: now, updated_at: now });
    await db.insertInto('tenants').values([tenant('big'), tenant('small')]).execute();
    const family = ['Nguyễn', 'Trần', 'Lê', 'Phạm', 'Hoàng', 'Đặng', 'Bùi', 'Đỗ', 'Vũ', 'Phan'];
    const given = ['An', 'Bình', 'Chi', 'Dũng', 'Hà', 'Khoa', 'Lan', 'Minh', 'Nam', 'Thảo'];
    const user = (tenantId: string, i: number) => ({
      id: `${tenantId}-${i}`,
      tenant_id: tenantId,
      email: i % 3 === 0 ? null : `user${i}@example${i % 7}.com`,
      email_verified: 1,
      phone_number: i % 3 === 0 ? `09${String(i).padStart(8, '0')}` : null,
      phone_number_verified: i % 3 === 0 ? 1 : 0,
      name: `${family[i % 10]} Văn ${given[Math.floor(i / 10) % 10]} ${i}`,
      birthday: null,
      gender: null,
      locale: null,
      avatar_key: null,
      password_hash: null,
      password_changed_at: null,
      registration_method: 'password',
      status: 'active',
      enable_mfa: 0,
      authenticator_type: null,
      totp_secret_enc: null,
      failed_login_count: 0,
      locked_until: null,
      created_at: now + i,
      updated_at: now + i,
    });
    await db.transaction().execute(async (trx) => {
      for (const [tenantId, count] of [['big', 100_000], ['small', 5000]] as const) {
        for (let start = 0; start < count; start += 500) {
          await trx.insertInto('users').values(Array.from({ length: Math.min(500, count - start) }, (_, k) => user(tenantId, start + k))).execute();
        }
      }
    });
    await sql.raw(engine === 'postgres' ? 'analyze users' : 'analyze').execute(db);
  }, 120_000);
  afterAll(() => cleanup?.());

  const queries = () => createAdminUserQueries(db, engine);
  const page = { tenantId: 'big', page: 1, pageSize: 20 };

  /** No full read of the users table: every access to it goes through an index. */
  function expectIndexed(plan: string) {
    if (engine === 'postgres') {
      expect(plan).not.toMatch(/Seq Scan on users/);
      expect(plan).toMatch(/Index/);
    } else {
      expect(plan).not.toMatch(/SCAN users(?! USING)/);
      expect(plan).toMatch(/USING (COVERING )?INDEX/);
    }
  }

  it('reads an index range for an e-mail, a phone number and a name, and the newest page without a search', async () => {
    // Broad prefixes (a tenth of the tenant is Nguyễn) may walk the newest-first index instead and
    // stop at the page's 20th match: the planner's choice, and an index too.
    for (const q of ['user1234', 'user1234@example', '0900012', 'nguy', 'Đặng Văn', 'tr', 'phan văn thảo 99', undefined]) {
      const plan = await queries().explainSearch({ ...page, q });
      expectIndexed(plan);
      if (q === undefined) expect(plan).toMatch(/users_tenant_created_idx/);
    }
    // A selective search reads the prefix indexes themselves.
    expect(await queries().explainSearch({ ...page, q: 'user1234@example' })).toMatch(engine === 'postgres' ? /users_tenant_email_prefix_idx/ : /users_tenant_email_uq/);
    expect(await queries().explainSearch({ ...page, q: 'phan văn thảo 99' })).toMatch(/users_tenant_name_prefix_idx/);
    expect(await queries().explainSearch({ ...page, q: '0900099999' })).toMatch(engine === 'postgres' ? /users_tenant_phone_prefix_idx/ : /users_tenant_phone_uq/);
  });

  it('finds exactly the matching users of the tenant, newest first, with the total', async () => {
    const byEmail = await queries().search({ ...page, q: 'user1234' });
    // user1234, user12340…12349 and user123400…: those of them with an e-mail address (not i % 3 === 0).
    const expected = Array.from({ length: 100_000 }, (_, i) => i).filter((i) => i % 3 !== 0 && String(i).startsWith('1234'));
    expect(byEmail.total).toBe(expected.length);
    expect(byEmail.rows[0]?.id).toBe(`big-${Math.max(...expected)}`);

    const byPhone = await queries().search({ ...page, q: '0900099' });
    expect(byPhone.total).toBe(Array.from({ length: 100_000 }, (_, i) => i).filter((i) => i % 3 === 0 && String(i).padStart(8, '0').startsWith('00099')).length);

    const byName = await queries().search({ ...page, q: 'đặng văn an' });
    expect(byName.total).toBe(Array.from({ length: 100_000 }, (_, i) => i).filter((i) => i % 10 === 5 && Math.floor(i / 10) % 10 === 0).length);
    expect(byName.rows.every((r) => r.name?.startsWith('Đặng Văn An'))).toBe(true);

    const all = await queries().search({ ...page, page: 3 });
    expect(all.total).toBe(100_000);
    expect(all.rows.map((r) => r.id)).toEqual(Array.from({ length: 20 }, (_, k) => `big-${99_959 - k}`));
  });
});
