import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountSignIn } from '../../test/account.ts';
import { authorizationRequest, relyingParty, signIn } from '../../test/relying-party.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { createClient } from '../../test/visitor.ts';

/**
 * The provider reads the account on every token and userinfo request. It reads what the claims and
 * the sign-in checks need, never the password hash, the 2-step secret or the lockout state, which
 * have no business on that path; and the claims and the status check are what they were.
 */
describe('the account as the provider reads it', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    // A public client allowed refresh tokens (the account area's client gets none).
    await createClient(server.ctx, server.url, { id: 'public-app', tenantId: 'demo' });
  });
  afterAll(() => server?.close());

  /** The SQL the server runs during `work`. */
  async function statementsDuring(work: () => Promise<void>): Promise<string[]> {
    const executor = server.ctx.db.getExecutor() as unknown as { executeQuery: (query: { sql: string }, ...rest: unknown[]) => Promise<unknown> };
    const original = executor.executeQuery;
    const statements: string[] = [];
    executor.executeQuery = (query, ...rest) => {
      statements.push(query.sql);
      return original.call(executor, query, ...rest);
    };
    try {
      await work();
    } finally {
      executor.executeQuery = original;
    }
    return statements;
  }

  it('reads no secret column of the user on userinfo and refresh, and the claims are complete', async () => {
    await server.ctx.db.updateTable('users').set({ locale: 'en', phone_number: '0912345678', phone_number_verified: 1 }).where('email', '=', 'demo@example.com').execute();
    const rp = await relyingParty(server.url, 'public-app');
    const { tokens } = await signIn(server.url, rp, 'demo@example.com', 'Passw0rd!', undefined, { scope: 'openid profile email phone offline_access' });
    let claims: Record<string, unknown> = {};
    const statements = await statementsDuring(async () => {
      const userinfo = await fetch(`${server.url}/oidc/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
      expect(userinfo.status).toBe(200);
      claims = (await userinfo.json()) as Record<string, unknown>;
      const refreshed = await fetch(`${server.url}/oidc/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: 'public-app' }),
      });
      expect(refreshed.status).toBe(200);
    });
    const userReads = statements.filter((sql) => /from "users"/.test(sql));
    expect(userReads.length).toBeGreaterThanOrEqual(2);
    for (const sql of userReads) {
      expect(sql).not.toMatch(/select \*|password_hash|totp_secret_enc|failed_login_count|locked_until/);
    }
    expect(claims).toMatchObject({
      sub: expect.any(String),
      name: 'Demo User',
      email: 'demo@example.com',
      email_verified: true,
      phone_number: '0912345678',
      phone_number_verified: true,
      locale: 'en',
    });
  });

  it('reads no secret column of the user on an authorization through the browser’s session (a silent renewal)', async () => {
    const { browser } = await accountSignIn(server.url, 'demo@example.com');
    const account = await relyingParty(server.url, 'account');
    const auth = await authorizationRequest(account, { prompt: 'none' });
    let landed = '';
    const statements = await statementsDuring(async () => {
      landed = (await browser.follow(auth.url, server.url)).url;
    });
    expect(new URL(landed).searchParams.get('code')).toEqual(expect.any(String));
    const userReads = statements.filter((sql) => /from "users"/.test(sql));
    expect(userReads.length).toBeGreaterThanOrEqual(1);
    for (const sql of userReads) {
      expect(sql).not.toMatch(/select \*|password_hash|totp_secret_enc|failed_login_count|locked_until/);
    }
  });

  it('still refuses the tokens of an account disabled since', async () => {
    const { tokens } = await accountSignIn(server.url, 'demo@example.com');
    const sub = JSON.parse(Buffer.from(tokens.id_token!.split('.')[1]!, 'base64url').toString()).sub as string;
    await server.ctx.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', sub).execute();
    try {
      const userinfo = await fetch(`${server.url}/oidc/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
      expect(userinfo.status).toBe(401);
    } finally {
      await server.ctx.db.updateTable('users').set({ status: 'active' }).where('id', '=', sub).execute();
    }
  });
});
