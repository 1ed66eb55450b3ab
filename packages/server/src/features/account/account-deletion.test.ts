import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { authorizationRequest, oidc, relyingParty, signIn, startSignIn } from '../../../test/relying-party.ts';
import { accountSignIn, call, createAccount, userById } from '../../../test/account.ts';
import { lastCode, messageCount } from '../../../test/visitor.ts';

/** DELETE /api/v1/me over real HTTP, on the database and store the suite runs on (SQLite, or PostgreSQL and Redis). */
describe('DELETE /api/v1/me', () => {
  let server: TestServer;

  /** Signs in through the login API as demo-app in a new browser; answers the error code, or 0 for success. */
  async function login(username: string, password = 'Passw0rd!'): Promise<number> {
    const browser = new TestBrowser();
    const challenge = await startSignIn(browser, server.url, await authorizationRequest(await relyingParty(server.url, 'demo-app', 'demo-secret')));
    const response = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username, password });
    return response.ok ? 0 : ((await response.json()) as any).error.code;
  }

  /**
   * Whether the provider session in `browser` signs the user in to a new authorization request of
   * demo-app without the login screen: straight back to the relying party, or a login request the
   * SPA skips (`skip: true`, only the grant missing).
   */
  async function sessionSignsIn(browser: TestBrowser): Promise<boolean> {
    const auth = await authorizationRequest(await relyingParty(server.url, 'demo-app', 'demo-secret'));
    const { url } = await browser.follow(auth.url, server.url);
    const landing = new URL(url);
    if (landing.pathname !== '/login') return true;
    const request = await browser.fetch(`${server.url}/api/v1/requests/login/${landing.searchParams.get('challenge')}`);
    expect(request.status).toBe(200);
    return ((await request.json()) as { skip: boolean }).skip;
  }

  /** The models of the provider's artifacts stored for the account: the table, and Redis keys through the account index. */
  async function providerArtifacts(userId: string): Promise<string[]> {
    const rows = await server.ctx.db.selectFrom('oidc_payloads').select('model').distinct().where('account_id', '=', userId).execute();
    const models = rows.map((r) => r.model);
    const redis = server.ctx.redis;
    if (redis) {
      for (const key of await redis.smembers(`oidc:account:${userId}`)) if (await redis.exists(key)) models.push(key.split(':')[1]!);
    }
    return [...new Set(models)].sort();
  }

  beforeAll(async () => {
    server = await startTestServer({ env: { CODE_SENDS_PER_IP_PER_HOUR: '1000' } });
  });
  afterAll(() => server?.close());

  it('deletes the account for good: tokens, refresh tokens and sessions stop working, and signing in fails as for an unknown account', async () => {
    const id = await createAccount(server.ctx, { email: 'leaver@example.com', phoneNumber: '0933333333' });
    const bystander = await createAccount(server.ctx, { email: 'stayer@example.com' });
    const stayer = await accountSignIn(server.url, 'stayer@example.com');

    // One browser session: the account area, then a relying party with a refresh token.
    const browser = new TestBrowser();
    const { token } = await accountSignIn(server.url, 'leaver@example.com', 'Passw0rd!', browser);
    const demoApp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    const { tokens } = await signIn(server.url, demoApp, 'leaver@example.com', 'Passw0rd!', browser, { scope: 'openid profile email offline_access' });
    expect(tokens.refresh_token).toBeTruthy();
    // Something in every table that holds the account.
    const image = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#0a0' } }).png().toBuffer();
    const avatarUrl = (await call(server.url, 'POST', '/api/v1/me/avatar', { token, body: { image: image.toString('base64') } })).body.avatarUrl as string;
    expect(await call(server.url, 'POST', '/api/v1/me/email/verify', { token, body: { email: 'leaver-new@example.com' } })).toMatchObject({ status: 200 });
    // Before: the session signs the user in without the login screen, and the refresh token works.
    expect(await sessionSignsIn(browser)).toBe(true);
    const refreshed = await oidc.refreshTokenGrant(demoApp.config, tokens.refresh_token!);
    expect(await providerArtifacts(id)).toEqual(expect.arrayContaining(['AccessToken', 'Grant', 'RefreshToken', 'Session']));
    const count = async (table: 'password_history' | 'one_time_codes' | 'avatars') =>
      (await server.ctx.db.selectFrom(table).select('user_id').where('user_id', '=', id).execute()).length;
    for (const table of ['password_history', 'one_time_codes', 'avatars'] as const) expect(await count(table)).toBeGreaterThan(0);

    const answer = await call(server.url, 'DELETE', '/api/v1/me', { token, body: { password: 'Passw0rd!', confirmation: ' Leaver@Example.com ' } });
    expect(answer.status).toBe(204);
    expect(answer.body).toBeUndefined();

    expect(await userById(server.ctx, id)).toBeUndefined();
    for (const table of ['password_history', 'one_time_codes', 'avatars'] as const) expect(await count(table)).toBe(0);
    expect(await providerArtifacts(id)).toEqual([]);
    if (server.ctx.redis) expect(await server.ctx.redis.exists(`oidc:account:${id}`)).toBe(0);
    expect((await fetch(avatarUrl)).status).toBe(404);

    // The access token, the refresh tokens (the first one and the one it was exchanged for), the session.
    expect(await call(server.url, 'GET', '/api/v1/me', { token })).toMatchObject({ status: 401, body: { error: { code: 1102 } } });
    expect(await call(server.url, 'DELETE', '/api/v1/me', { token, body: { password: 'Passw0rd!', confirmation: 'leaver@example.com' } })).toMatchObject({ status: 401, body: { error: { code: 1102 } } });
    for (const refreshToken of [tokens.refresh_token!, refreshed.refresh_token ?? tokens.refresh_token!]) {
      await expect(oidc.refreshTokenGrant(demoApp.config, refreshToken)).rejects.toMatchObject({ error: 'invalid_grant' });
    }
    await expect(oidc.fetchUserInfo(demoApp.config, refreshed.access_token, tokens.claims()!.sub)).rejects.toBeDefined();
    expect(await sessionSignsIn(browser)).toBe(false);
    expect(await login('leaver@example.com')).toBe(1017);
    expect(await login('0933333333')).toBe(1017);
    expect(await login('leaver@example.com', 'wrong-password')).toBe(1017);

    // Audited without personal data; nobody else is touched.
    const audit = await server.ctx.db.selectFrom('audit_events').selectAll().where('user_id', '=', id).where('type', '=', 'account.deleted').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).toBeNull();
    expect(await userById(server.ctx, bystander)).toBeDefined();
    expect((await call(server.url, 'GET', '/api/v1/me', { token: stayer.token })).body).toMatchObject({ email: 'stayer@example.com' });

    // The address is free again: a new account may use it.
    await createAccount(server.ctx, { email: 'leaver@example.com', password: 'Another-1' });
    expect(await login('leaver@example.com', 'Another-1')).toBe(0);
  });
  /** The audit types recorded for the account, oldest first. */
  async function auditOf(userId: string): Promise<string[]> {
    const rows = await server.ctx.db.selectFrom('audit_events').select('type').where('user_id', '=', userId).orderBy('created_at').execute();
    return rows.map((r) => r.type);
  }

  it('refuses without the password: a stolen access token alone deletes nothing', async () => {
    const id = await createAccount(server.ctx, { email: 'holder@example.com' });
    const { token } = await accountSignIn(server.url, 'holder@example.com');
    const before = await userById(server.ctx, id);

    // No body at all, no proof, a wrong password, a code instead of the password.
    expect(await call(server.url, 'DELETE', '/api/v1/me', { token })).toMatchObject({ status: 400 });
    expect(await call(server.url, 'DELETE', '/api/v1/me', { token, body: { confirmation: 'holder@example.com' } })).toMatchObject({
      status: 400,
      body: { error: { code: 1001, field: 'password' } },
    });
    expect(await call(server.url, 'DELETE', '/api/v1/me', { token, body: { password: 'Wrong-pass1', confirmation: 'holder@example.com' } })).toMatchObject({
      status: 400,
      body: { error: { code: 1017, field: 'password' } },
    });
    expect(await call(server.url, 'DELETE', '/api/v1/me', { token, body: { code: '123456', confirmation: 'holder@example.com' } })).toMatchObject({
      status: 400,
      body: { error: { code: 1001, field: 'password' } },
    });
    // An account with a password proves itself by it, never by a code sent to it.
    expect(await call(server.url, 'POST', '/api/v1/me/deletion/code', { token })).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'password' } } });
    expect(await messageCount(server.ctx, 'holder@example.com')).toBe(0);

    expect(await userById(server.ctx, id)).toEqual(before);
    expect((await call(server.url, 'GET', '/api/v1/me', { token })).status).toBe(200);
    expect(await auditOf(id)).toContain('account.deletion_refused');
    expect(await auditOf(id)).not.toContain('account.deleted');
  });

  it('refuses a missing or mismatched confirmation, naming the field, before the password is tried', async () => {
    const id = await createAccount(server.ctx, { email: 'typist@example.com', phoneNumber: '0944444444' });
    const { token } = await accountSignIn(server.url, 'typist@example.com');
    const before = await userById(server.ctx, id);

    expect(await call(server.url, 'DELETE', '/api/v1/me', { token, body: { password: 'Passw0rd!' } })).toMatchObject({
      status: 400,
      body: { error: { code: 1001, field: 'confirmation' } },
    });
    // The phone number is not the confirmation of an account with an e-mail address; neither is a yes.
    for (const confirmation of ['0944444444', 'yes', 'typist@example.co', 'DELETE']) {
      expect(await call(server.url, 'DELETE', '/api/v1/me', { token, body: { password: 'Wrong-pass1', confirmation } })).toMatchObject({
        status: 400,
        body: { error: { code: 1002, field: 'confirmation' } },
      });
    }
    expect(await userById(server.ctx, id)).toEqual(before);
    // Mismatches spent no password try: no refusal for a wrong password was recorded.
    expect(await auditOf(id)).not.toContain('account.deletion_refused');

    // An account with only a phone number types the number.
    const phoneOnly = await createAccount(server.ctx, { phoneNumber: '0955555555' });
    const phone = await accountSignIn(server.url, '0955555555');
    expect(await call(server.url, 'DELETE', '/api/v1/me', { token: phone.token, body: { password: 'Passw0rd!', confirmation: '0955555555' } })).toMatchObject({ status: 204 });
    expect(await userById(server.ctx, phoneOnly)).toBeUndefined();
  });

  it('counts wrong passwords against the one budget of password re-checks of the account', async () => {
    await createAccount(server.ctx, { email: 'guesser@example.com' });
    const { token } = await accountSignIn(server.url, 'guesser@example.com');
    const budget = server.ctx.config.rateLimit.lockoutAfterFailures * 4;
    // Half the budget spent by the 2-step settings' re-check, the rest by deletion attempts.
    for (let i = 0; i < budget / 2; i += 1) {
      expect((await call(server.url, 'POST', '/api/v1/me/mfa/config', { token, body: { password: `Wrong-${i}` } })).status).toBe(400);
    }
    for (let i = 0; i < budget / 2; i += 1) {
      expect((await call(server.url, 'DELETE', '/api/v1/me', { token, body: { password: `Wrong-${i}`, confirmation: 'guesser@example.com' } })).body.error.code).toBe(1017);
    }
    // Spent: even the right password is refused now, and nothing is deleted.
    expect(await call(server.url, 'DELETE', '/api/v1/me', { token, body: { password: 'Passw0rd!', confirmation: 'guesser@example.com' } })).toMatchObject({
      status: 429,
      body: { error: { code: 1290 } },
    });
    expect((await call(server.url, 'GET', '/api/v1/me', { token })).status).toBe(200);
  });

  it('deletes an account without a password with a code sent to its verified address, once', async () => {
    const id = await createAccount(server.ctx, { email: 'nopass@example.com' });
    const { token, browser } = await accountSignIn(server.url, 'nopass@example.com');
    // As after a passwordless or social registration: no password to re-check.
    await server.ctx.db.updateTable('users').set({ password_hash: null, registration_method: 'passwordless' }).where('id', '=', id).execute();
    expect((await call(server.url, 'GET', '/api/v1/me', { token })).body).toMatchObject({ hasPassword: false });

    // Without a code, or with a password, it is refused.
    expect(await call(server.url, 'DELETE', '/api/v1/me', { token, body: { confirmation: 'nopass@example.com', password: 'Passw0rd!' } })).toMatchObject({
      status: 400,
      body: { error: { code: 1001, field: 'code' } },
    });
    expect(await call(server.url, 'POST', '/api/v1/me/deletion/code', { token, language: 'en' })).toMatchObject({ status: 200, body: { resendAfter: 60 } });
    // Resend is refused for 60 s.
    expect(await call(server.url, 'POST', '/api/v1/me/deletion/code', { token })).toMatchObject({ status: 429, body: { error: { code: 1291 } } });
    const code = await lastCode(server.ctx, 'nopass@example.com');
    const wrong = code === '000000' ? '111111' : '000000';
    expect(await call(server.url, 'DELETE', '/api/v1/me', { token, body: { code: wrong, confirmation: 'nopass@example.com' } })).toMatchObject({
      status: 400,
      body: { error: { code: 1040, field: 'code' } },
    });
    expect(await userById(server.ctx, id)).toBeDefined();

    expect(await call(server.url, 'DELETE', '/api/v1/me', { token, body: { code, confirmation: 'nopass@example.com' } })).toMatchObject({ status: 204 });
    expect(await userById(server.ctx, id)).toBeUndefined();
    expect(await sessionSignsIn(browser)).toBe(false);
    expect(await call(server.url, 'GET', '/api/v1/me', { token })).toMatchObject({ status: 401 });
    const audit = await server.ctx.db.selectFrom('audit_events').select('type').where('user_id', '=', id).execute();
    expect(audit.map((r) => r.type)).toEqual(expect.arrayContaining(['code.failed', 'account.deleted']));
  });

  it('answers 1027 for an account without a password and without a verified address', async () => {
    const id = await createAccount(server.ctx, { email: 'unverified@example.com' });
    const { token } = await accountSignIn(server.url, 'unverified@example.com');
    await server.ctx.db.updateTable('users').set({ password_hash: null, email_verified: 0, registration_method: 'facebook' }).where('id', '=', id).execute();
    expect(await call(server.url, 'POST', '/api/v1/me/deletion/code', { token })).toMatchObject({ status: 400, body: { error: { code: 1027 } } });
    expect(await call(server.url, 'DELETE', '/api/v1/me', { token, body: { code: '123456', confirmation: 'unverified@example.com' } })).toMatchObject({
      status: 400,
      body: { error: { code: 1027 } },
    });
    expect(await userById(server.ctx, id)).toBeDefined();
  });
});
