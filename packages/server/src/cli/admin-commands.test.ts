import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Db } from '../db/database.ts';
import { run } from './main.ts';

let dir: string;
let env: NodeJS.ProcessEnv;
let db: Db;

async function cli(args: string[], extraEnv: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(args, { out: (l) => out.push(l), err: (l) => err.push(l), env: { ...env, ...extraEnv } });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'passgate-cli-admin-'));
  // Production-like: nothing seeded; the first tenant brings the `account` client, no admin console yet.
  env = { NODE_ENV: 'test', DATABASE_URL: `sqlite:${join(dir, 'cli.sqlite')}`, LOG_LEVEL: 'silent', PUBLIC_URL: 'https://sso.example.com' };
  expect((await cli(['tenant', 'create', '--id', 'staff', '--name', 'Staff'])).code).toBe(0);
  expect((await cli(['tenant', 'create', '--id', 'acme', '--name', 'Acme'])).code).toBe(0);
  expect((await cli(['user', 'create', '--tenant', 'staff', '--email', 'ops@example.com', '--name', 'Ops'], { PASSGATE_PASSWORD: 'Lantern-42!x' })).code).toBe(0);
  expect((await cli(['user', 'create', '--tenant', 'acme', '--email', 'ann@acme.example', '--name', 'Ann'], { PASSGATE_PASSWORD: 'Lantern-42!x' })).code).toBe(0);
  db = createDatabase(env.DATABASE_URL as string);
});

afterAll(async () => {
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('passgate admin', () => {
  it('says what is missing before anything exists', async () => {
    expect(await db.selectFrom('clients').select(['id', 'tenant_id']).execute()).toEqual([{ id: 'account', tenant_id: 'staff' }]);
    expect(await cli(['admin', 'grant', '--tenant', 'staff', '--email', 'ops@example.com'])).toMatchObject({ code: 1, err: expect.stringContaining('--role') });
    expect(await cli(['admin', 'grant', '--tenant', 'staff', '--email', 'ops@example.com', '--role', 'root'])).toMatchObject({ code: 1, err: expect.stringContaining('operator, tenant-admin') });
    expect(await cli(['admin', 'bogus'])).toMatchObject({ code: 2, err: expect.stringContaining('admin commands: grant, revoke, list') });
    expect(await db.selectFrom('admin_roles').selectAll().execute()).toEqual([]);
  });

  it('makes the first operator, creating the admin-console client in their tenant', async () => {
    const granted = await cli(['admin', 'grant', '--tenant', 'staff', '--email', 'ops@example.com', '--role', 'operator']);
    expect(granted).toMatchObject({ code: 0, out: expect.stringContaining("'ops@example.com' is now operator (every tenant)") });
    const client = await db.selectFrom('clients').selectAll().where('id', '=', 'admin-console').executeTakeFirst();
    expect(client).toMatchObject({ tenant_id: 'staff', token_endpoint_auth_method: 'none', secret_hash: null, redirect_uris: JSON.stringify(['https://sso.example.com/admin/callback']) });
    expect(await cli(['admin', 'grant', '--email', 'ops@example.com', '--role', 'operator'])).toMatchObject({ code: 0, out: expect.stringContaining('nothing changed') });
    const roles = await db.selectFrom('admin_roles').selectAll().execute();
    expect(roles).toEqual([expect.objectContaining({ role: 'operator', tenant_id: null, granted_by: 'cli' })]);
  });

  it("never moves the console's addresses: a grant run with another PUBLIC_URL (or none of the server's) leaves them", async () => {
    const before = await db.selectFrom('clients').select(['redirect_uris', 'post_logout_redirect_uris', 'updated_at']).where('id', '=', 'admin-console').executeTakeFirstOrThrow();
    const granted = await cli(['admin', 'grant', '--tenant', 'acme', '--email', 'ops@example.com', '--role', 'tenant-admin'], { PUBLIC_URL: 'http://localhost:3000' });
    expect(granted.code).toBe(0);
    expect(await db.selectFrom('clients').select(['redirect_uris', 'post_logout_redirect_uris', 'updated_at']).where('id', '=', 'admin-console').executeTakeFirstOrThrow()).toEqual(before);
    expect((await cli(['admin', 'revoke', '--tenant', 'acme', '--email', 'ops@example.com', '--role', 'tenant-admin'])).code).toBe(0);
  });

  it("grants a tenant admin among the console's users, and refuses a user of another tenant", async () => {
    expect(await cli(['admin', 'grant', '--tenant', 'acme', '--email', 'ann@acme.example', '--role', 'tenant-admin'])).toMatchObject({
      code: 1,
      err: expect.stringContaining("no account 'ann@acme.example' in tenant 'staff'"),
    });
    expect(await cli(['admin', 'grant', '--tenant', 'acme', '--email', 'ops@example.com', '--role', 'tenant-admin'])).toMatchObject({ code: 0, out: expect.stringContaining("tenant admin of 'acme'") });
    expect(await cli(['admin', 'grant', '--tenant', 'acme', '--email', 'ops@example.com', '--role', 'operator'])).toMatchObject({ code: 1, err: expect.stringContaining('operators administer every tenant') });
    const list = await cli(['admin', 'list']);
    expect(list.out).toContain("ops@example.com  operator (every tenant)");
    expect(list.out).toContain("ops@example.com  tenant admin of 'acme'");
    expect(await cli(['admin', 'revoke', '--tenant', 'acme', '--email', 'ops@example.com', '--role', 'tenant-admin'])).toMatchObject({ code: 0, out: expect.stringContaining('no longer') });
    expect(await cli(['admin', 'revoke', '--tenant', 'acme', '--email', 'ops@example.com', '--role', 'tenant-admin'])).toMatchObject({ code: 0, out: expect.stringContaining('nothing changed') });
    const audit = await db.selectFrom('audit_events').select(['type', 'tenant_id']).where('type', 'like', 'admin.%').orderBy('created_at').execute();
    expect(audit.map((a) => `${a.type} ${a.tenant_id}`)).toEqual([
      'admin.role_granted staff',
      'admin.role_granted acme',
      'admin.role_revoked acme',
      'admin.role_granted acme',
      'admin.role_revoked acme',
    ]);
  });

  it("rotates a client's secret, printed once", async () => {
    expect((await cli(['client', 'create', '--id', 'acme-web', '--tenant', 'acme', '--name', 'Acme Web', '--redirect-uris', 'https://acme.example/cb'])).code).toBe(0);
    const before = await db.selectFrom('clients').select('secret_hash').where('id', '=', 'acme-web').executeTakeFirstOrThrow();
    const rotated = await cli(['client', 'rotate-secret', '--id', 'acme-web']);
    expect(rotated).toMatchObject({ code: 0, out: expect.stringMatching(/Client secret \(generated; it will not be shown again, store it now\): [A-Za-z0-9_-]{43}/) });
    const after = await db.selectFrom('clients').select('secret_hash').where('id', '=', 'acme-web').executeTakeFirstOrThrow();
    expect(after.secret_hash).not.toBe(before.secret_hash);
    expect(await cli(['client', 'rotate-secret', '--id', 'admin-console'])).toMatchObject({ code: 1, err: expect.stringContaining('public') });
  });
});
