import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { authorizationRequest, oidc, relyingParty, signIn, startSignIn } from '../../../test/relying-party.ts';
import { auditTypes, createClient, createTenant, endCooldown, lastCode, lastMessage, messageCount, otherCode, postJson, userRow } from '../../../test/visitor.ts';
import { createUserService } from '../users/users.service.ts';
import { verifySecret } from '../../lib/passwords.ts';
import { noticesIdle } from '../known-browsers/notice-delivery.ts';

/** POST /api/v1/password/recover and /password/reset over real HTTP. */
describe('password recovery', () => {
  let server: TestServer;
  const recover = (body: Record<string, unknown>, language?: string) => postJson(server.url, '/api/v1/password/recover', { client_id: 'demo-app', ...body }, language);
  const reset = (body: Record<string, unknown>) => postJson(server.url, '/api/v1/password/reset', { client_id: 'demo-app', ...body });

  /** Signs in through the login API; answers the error code, or 0 for success. */
  async function login(username: string, password: string, clientId = 'demo-app', secret: string | undefined = 'demo-secret'): Promise<number> {
    const browser = new TestBrowser();
    const challenge = await startSignIn(browser, server.url, await authorizationRequest(await relyingParty(server.url, clientId, secret)));
    const response = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username, password });
    return response.ok ? 0 : ((await response.json()) as any).error.code;
  }

  /** Asks for a recovery code (ending any cooldown first) and answers it. */
  async function recoveryCode(username: string, clientId = 'demo-app', tenantId = 'demo'): Promise<string> {
    await endCooldown(server.ctx, tenantId, 'recovery', username);
    expect(await recover({ client_id: clientId, username })).toEqual({ status: 200, body: { resendAfter: 60 } });
    return lastCode(server.ctx, username);
  }

  beforeAll(async () => {
    server = await startTestServer({ env: { CODE_SENDS_PER_IP_PER_HOUR: '1000', LOGIN_RATE_LIMIT_PER_IP: '1000' } });
    const users = createUserService({ db: server.ctx.db });
    await users.createUser({ tenantId: 'demo', email: 'reset@example.com', name: 'Rita', password: 'Original1!' });
    await users.createUser({ tenantId: 'demo', phoneNumber: '0987654321', name: 'Phong', password: 'Original1!' });
    await users.createUser({ tenantId: 'demo', email: 'waiting@example.com', name: 'W', password: 'Original1!', status: 'pending' });
    await createTenant(server.ctx, { id: 'nohelp', resetPasswordAllowed: false });
    await createClient(server.ctx, server.url, { id: 'nohelp-app', tenantId: 'nohelp' });
    await createTenant(server.ctx, { id: 'history', passwordHistorySize: 2, passwordPolicy: { minLength: 8, uppercase: 0, number: 1, special: 0 } });
    await createClient(server.ctx, server.url, { id: 'history-app', tenantId: 'history', permissions: ['users:email:login', 'password:reset'] });
    await users.createUser({ tenantId: 'history', email: 'hist@example.com', name: 'H', password: 'password-A1' });
  });
  afterAll(() => server?.close());

  it('sends a recovery code, sets the new password with it, and the old password stops working', async () => {
    const before = await userRow(server.ctx, 'demo', 'reset@example.com');
    await server.ctx.users.update(before!.id, { failed_login_count: 7, locked_until: Date.now() + 60_000 });

    expect(await recover({ username: 'Reset@Example.com' }, 'en')).toEqual({ status: 200, body: { resendAfter: 60 } });
    const mail = await lastMessage(server.ctx, 'reset@example.com');
    expect(mail).toMatchObject({ channel: 'email', subject: '[Passgate Demo] Your password recovery code' });
    expect(mail!.text).toContain('Hello Rita,');
    const code = mail!.code!;

    expect(await reset({ username: 'reset@example.com', password: 'Brand-new1', code: otherCode(code) })).toMatchObject({ status: 400, body: { error: { code: 1042, field: 'code' } } });
    // A refused password costs nothing: the same code still works.
    expect(await reset({ username: 'reset@example.com', password: 'short', code })).toMatchObject({
      status: 400,
      body: { error: { code: 1002, field: 'password', message: expect.stringContaining('at least 6 characters') } },
    });
    expect(await userRow(server.ctx, 'demo', 'reset@example.com')).toMatchObject({ password_hash: before!.password_hash });

    const changedAt = Date.now();
    expect(await reset({ username: 'reset@example.com', password: 'Brand-new1', code })).toEqual({ status: 200, body: { ok: true } });
    const after = await userRow(server.ctx, 'demo', 'reset@example.com');
    expect(after).toMatchObject({ failed_login_count: 0, locked_until: null });
    expect(after!.password_hash).toMatch(/^\$argon2id\$/);
    expect(Number(after!.password_changed_at)).toBeGreaterThanOrEqual(changedAt);
    expect(await server.ctx.users.recentPasswordHashes(after!.id, 5)).toEqual([after!.password_hash, before!.password_hash]);
    expect(await auditTypes(server.ctx, after!.id)).toEqual(['user.created', 'password.recovery_requested', 'code.failed', 'password.reset']);

    expect(await login('reset@example.com', 'Original1!')).toBe(1017);
    expect(await login('reset@example.com', 'Brand-new1')).toBe(0);
    // The code is used.
    expect(await reset({ username: 'reset@example.com', password: 'Another-1', code })).toMatchObject({ status: 400, body: { error: { code: 1026 } } });
  });

  it("lifts the own locks of the account's trusted browsers too, so the owner's browser signs in with the new password at once", async () => {
    await createUserService({ db: server.ctx.db }).createUser({ tenantId: 'demo', email: 'typo@example.com', name: 'T', password: 'Original1!' });
    await createUserService({ db: server.ctx.db }).createUser({ tenantId: 'demo', email: 'other-typo@example.com', name: 'O', password: 'Original1!' });
    const demoApp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    // Browsers each account has signed in from: they hold their key, and the account knows them.
    const { browser: owners } = await signIn(server.url, demoApp, 'typo@example.com', 'Original1!');
    const { browser: others } = await signIn(server.url, demoApp, 'other-typo@example.com', 'Original1!');
    await noticesIdle(server.ctx);
    /** A sign-in from `browser` (prompt=login: its session does not skip the screen); the error code, or 0. */
    const from = async (browser: TestBrowser, username: string, password: string): Promise<number> => {
      const challenge = await startSignIn(browser, server.url, await authorizationRequest(demoApp, { prompt: 'login' }));
      const response = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username, password, client_id: 'demo-app' });
      return response.ok ? 0 : ((await response.json()) as any).error.code;
    };
    const wrongUntilLocked = async (browser: TestBrowser, username: string) => {
      for (let i = 0; i < server.ctx.config.rateLimit.lockoutAfterFailures; i += 1) expect(await from(browser, username, `typo-${i}`)).toBe(1017);
      expect(await from(browser, username, 'Original1!')).toBe(1302);
    };
    await wrongUntilLocked(owners, 'typo@example.com');
    await wrongUntilLocked(others, 'other-typo@example.com');
    // Only the browsers were locked, not the accounts.
    expect(await userRow(server.ctx, 'demo', 'typo@example.com')).toMatchObject({ failed_login_count: 0, locked_until: null });

    const code = await recoveryCode('typo@example.com');
    expect(await reset({ username: 'typo@example.com', password: 'Brand-new2', code })).toEqual({ status: 200, body: { ok: true } });
    expect(await from(owners, 'typo@example.com', 'Brand-new2')).toBe(0);
    // Another account's browser keeps its lock.
    expect(await from(others, 'other-typo@example.com', 'Original1!')).toBe(1302);
  });

  it('refuses a new password on the list of common breached passwords (1104, field password), in any case, changing nothing and keeping the code', async () => {
    await createUserService({ db: server.ctx.db }).createUser({ tenantId: 'demo', email: 'common@example.com', name: 'C', password: 'Original1!' });
    const before = await userRow(server.ctx, 'demo', 'common@example.com');
    const code = await recoveryCode('common@example.com');
    for (const password of ['password123', 'PassWord123', 'sunshine1']) {
      expect(await reset({ username: 'common@example.com', password, code })).toMatchObject({ status: 400, body: { error: { code: 1104, field: 'password' } } });
    }
    expect(await userRow(server.ctx, 'demo', 'common@example.com')).toMatchObject({ password_hash: before!.password_hash });
    expect(await server.ctx.users.recentPasswordHashes(before!.id, 5)).toEqual([before!.password_hash]);
    expect(await login('common@example.com', 'Original1!')).toBe(0);

    expect(await reset({ username: 'common@example.com', password: 'Harbour-lights-93', code })).toEqual({ status: 200, body: { ok: true } });
    expect(await login('common@example.com', 'Harbour-lights-93')).toBe(0);
  });

  it('recovers by phone (SMS, Vietnamese by default)', async () => {
    expect(await recover({ username: '0987654321' })).toEqual({ status: 200, body: { resendAfter: 60 } });
    const sms = await lastMessage(server.ctx, '0987654321');
    expect(sms!.text).toBe(`Passgate Demo: Mã khôi phục mật khẩu của bạn là ${sms!.code}, hiệu lực 10 phút. Không chia sẻ mã này với bất kỳ ai.`);
    expect(await reset({ username: '0987654321', password: 'Phone-new1', code: sms!.code })).toEqual({ status: 200, body: { ok: true } });
    expect(await login('0987654321', 'Phone-new1')).toBe(0);
  });

  it('answers alike for unknown, pending and active accounts, with the same 60 s cooldown for each', async () => {
    for (const username of ['ghost@example.com', 'waiting@example.com', '0900000001']) {
      expect(await recover({ username })).toEqual({ status: 200, body: { resendAfter: 60 } });
      expect(await messageCount(server.ctx, username)).toBe(0);
      expect(await recover({ username })).toMatchObject({ status: 429, body: { error: { code: 1291, message: expect.stringMatching(/try again in \d+ s/) } } });
    }
    await recoveryCode('reset@example.com');
    expect(await recover({ username: 'reset@example.com' })).toMatchObject({ status: 429, body: { error: { code: 1291 } } });
    expect(await reset({ username: 'ghost@example.com', password: 'Whatever-91x', code: '123456' })).toMatchObject({ status: 400, body: { error: { code: 1042 } } });
  });

  it('answers a wrong code alike for an unknown and a real account after a recovery request, and the unknown one never signs up or resets', async () => {
    await createUserService({ db: server.ctx.db }).createUser({ tenantId: 'demo', email: 'alike@example.com', name: 'A', password: 'Original1!' });
    for (const username of ['nobody-here@example.com', 'alike@example.com']) {
      await endCooldown(server.ctx, 'demo', 'recovery', username);
      expect(await recover({ username })).toEqual({ status: 200, body: { resendAfter: 60 } });
      const wrong = username === 'alike@example.com' ? otherCode(await lastCode(server.ctx, username)) : '000000';
      for (let i = 0; i < 5; i++) {
        expect(await reset({ username, password: 'Whatever-91x', code: wrong })).toMatchObject({ status: 400, body: { error: { code: 1042, field: 'code' } } });
      }
      expect(await reset({ username, password: 'Whatever-91x', code: wrong })).toMatchObject({ status: 400, body: { error: { code: 1026, field: 'code' } } });
    }
    expect(await userRow(server.ctx, 'demo', 'nobody-here@example.com')).toBeUndefined();
    expect(await messageCount(server.ctx, 'nobody-here@example.com')).toBe(0);
  });

  it('ends an open recovery code when the password changes another way: the code asked for before cannot set a password after', async () => {
    const users = createUserService({ db: server.ctx.db });
    await users.createUser({ tenantId: 'demo', email: 'stale-code@example.com', name: 'S', password: 'Original1!' });
    const code = await recoveryCode('stale-code@example.com');
    // The owner changes the password in the account area.
    const rp = await relyingParty(server.url, 'account');
    const { tokens } = await signIn(server.url, rp, 'stale-code@example.com', 'Original1!');
    const change = await fetch(`${server.url}/api/v1/me/password`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ current_password: 'Original1!', new_password: 'Owners-New-9' }),
    });
    expect(change.status).toBe(200);

    expect(await reset({ username: 'stale-code@example.com', password: 'Attackers-1x', code })).toMatchObject({ status: 400, body: { error: { code: 1026, field: 'code' } } });
    expect(await login('stale-code@example.com', 'Owners-New-9')).toBe(0);
    expect(await login('stale-code@example.com', 'Attackers-1x')).toBe(1017);
  });

  it('refuses the last password_history_size passwords, the current one included (1031), and a reset to the current one when the tenant keeps none', async () => {
    const history = (body: Record<string, unknown>) => reset({ client_id: 'history-app', username: 'hist@example.com', ...body });
    let code = await recoveryCode('hist@example.com', 'history-app', 'history');
    expect(await history({ password: 'password-A1', code })).toMatchObject({ status: 400, body: { error: { code: 1031, field: 'password' } } });
    expect(await login('hist@example.com', 'password-A1', 'history-app', undefined)).toBe(0);
    expect(await history({ password: 'password-B1', code })).toEqual({ status: 200, body: { ok: true } });

    code = await recoveryCode('hist@example.com', 'history-app', 'history');
    expect(await history({ password: 'password-A1', code })).toMatchObject({ status: 400, body: { error: { code: 1031 } } });
    expect(await history({ password: 'password-B1', code })).toMatchObject({ status: 400, body: { error: { code: 1031 } } });
    expect(await history({ password: 'password-C1', code })).toEqual({ status: 200, body: { ok: true } });

    // Two passwords remembered: C (current) and B. A may come back.
    code = await recoveryCode('hist@example.com', 'history-app', 'history');
    expect(await history({ password: 'password-A1', code })).toEqual({ status: 200, body: { ok: true } });

    // A tenant that keeps no history accepts the current password again.
    await server.ctx.tenants.update('history', { password_history_size: 0 });
    code = await recoveryCode('hist@example.com', 'history-app', 'history');
    expect(await history({ password: 'password-A1', code })).toEqual({ status: 200, body: { ok: true } });
    await server.ctx.tenants.update('history', { password_history_size: 2 });
  });

  it('signs the account out everywhere: its refresh tokens and sessions stop working', async () => {
    const users = createUserService({ db: server.ctx.db });
    await users.createUser({ tenantId: 'demo', email: 'everywhere@example.com', name: 'E', password: 'Original1!' });
    const rp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    const { tokens, browser } = await signIn(server.url, rp, 'everywhere@example.com', 'Original1!', undefined, { scope: 'openid email offline_access' });
    expect(tokens.refresh_token).toEqual(expect.any(String));

    const code = await recoveryCode('everywhere@example.com');
    expect(await reset({ username: 'everywhere@example.com', password: 'Brand-new2', code })).toEqual({ status: 200, body: { ok: true } });

    await expect(oidc.refreshTokenGrant(rp.config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    // The browser's provider session is gone too: a new request asks for the login screen.
    await startSignIn(browser, server.url, await authorizationRequest(rp));
  });

  it('refuses a code after 5 wrong tries (1026 even when right) and once expired, leaving the old password working', async () => {
    const before = await userRow(server.ctx, 'demo', 'reset@example.com');
    const code = await recoveryCode('reset@example.com');
    for (let i = 0; i < 5; i += 1) {
      expect(await reset({ username: 'reset@example.com', password: 'Never-set1', code: otherCode(code) })).toMatchObject({ status: 400, body: { error: { code: 1042 } } });
    }
    expect(await reset({ username: 'reset@example.com', password: 'Never-set1', code })).toMatchObject({ status: 400, body: { error: { code: 1026, field: 'code' } } });

    const late = await recoveryCode('reset@example.com');
    await server.ctx.db.updateTable('one_time_codes').set({ expires_at: Date.now() - 1000 }).where('destination', '=', 'reset@example.com').execute();
    expect(await reset({ username: 'reset@example.com', password: 'Never-set1', code: late })).toMatchObject({ status: 400, body: { error: { code: 1026 } } });
    const after = await userRow(server.ctx, 'demo', 'reset@example.com');
    expect(after!.password_hash).toBe(before!.password_hash);
    expect(await verifySecret(after!.password_hash!, 'Brand-new1')).toBe(true);
  });

  it('gives a guesser no new tries by asking for new codes: past 10 wrong codes in 15 minutes even the right code is refused (429), and the password stays', async () => {
    const username = 'budget@example.com';
    await createUserService({ db: server.ctx.db }).createUser({ tenantId: 'demo', email: username, name: 'B', password: 'Original1!' });
    const before = await userRow(server.ctx, 'demo', username);
    // 4 + 4 + 2 wrong codes, each code still open (fewer than its 5 tries), a new code asked for in between.
    for (const tries of [4, 4, 2]) {
      const code = await recoveryCode(username);
      for (let i = 0; i < tries; i += 1) {
        expect(await reset({ username, password: 'Guessed-91x', code: otherCode(code) })).toMatchObject({ status: 400, body: { error: { code: 1042, field: 'code' } } });
      }
    }
    const right = await recoveryCode(username);
    expect(await reset({ username, password: 'Guessed-91x', code: right })).toMatchObject({ status: 429, body: { error: { code: 1290 } } });
    expect(await userRow(server.ctx, 'demo', username)).toEqual(before);
    expect(await auditTypes(server.ctx, before!.id)).not.toContain('password.reset');
    expect(await login(username, 'Original1!')).toBe(0);
  });

  it('applies the tenant switch (1303), the client capability (1301) and the sign-in kinds of username (1016 / 1015 / 1014)', async () => {
    for (const call of [recover, reset]) {
      const body = { username: 'reset@example.com', password: 'Brand-new1', code: '123456' };
      expect(await call({ ...body, client_id: 'nope' })).toMatchObject({ status: 404, body: { error: { code: 1061 } } });
      expect(await call({ ...body, client_id: 'nohelp-app' })).toMatchObject({ status: 403, body: { error: { code: 1303 } } });
      expect(await call({ ...body, client_id: 'partner-shop' })).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
      expect(await call({ ...body, username: 'reset@example' })).toMatchObject({ status: 400, body: { error: { code: 1016, message: 'reset@example has an invalid format' } } });
      expect(await call({ ...body, username: '12345' })).toMatchObject({ status: 400, body: { error: { code: 1015, field: 'username' } } });
      // history-app signs in by e-mail only: a phone number is not a username there.
      expect(await call({ ...body, client_id: 'history-app', username: '0987654321' })).toMatchObject({ status: 400, body: { error: { code: 1015 } } });
      // Neither an address nor a number: 1014 where both are taken, the e-mail's where only it is.
      expect(await call({ ...body, username: 'plainaddress' })).toMatchObject({ status: 400, body: { error: { code: 1014, field: 'username' } } });
      expect(await call({ ...body, client_id: 'history-app', username: 'plainaddress' })).toMatchObject({ status: 400, body: { error: { code: 1016, field: 'username' } } });
    }
  });

  it('answers 1000, 1001 and 1002 naming the field for malformed, missing, over-long and mistyped input', async () => {
    expect(await postJson(server.url, '/api/v1/password/reset', '{"client_id":"demo-app",')).toMatchObject({ status: 400, body: { error: { code: 1000 } } });
    expect(await reset({ username: 'reset@example.com', code: '123456' })).toMatchObject({ status: 400, body: { error: { code: 1001, field: 'password' } } });
    expect(await reset({ username: 'reset@example.com', password: 'Brand-new1' })).toMatchObject({ status: 400, body: { error: { code: 1001, field: 'code' } } });
    expect(await reset({ username: 'reset@example.com', password: 'Brand-new1', code: 123456 })).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'code' } } });
    expect(await reset({ username: 'reset@example.com', password: 'x'.repeat(129), code: '123456' })).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'password' } } });
    expect(await recover({ username: 'r'.repeat(300) })).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'username' } } });
    expect(await recover({ username: 'reset@example.com', recaptcha_token: 'x'.repeat(5000) })).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'recaptcha_token' } } });
    expect(await recover({})).toMatchObject({ status: 400, body: { error: { code: 1001, field: 'username' } } });
  });

  it('answers 503 when the code cannot be sent, keeping the earlier code valid and no cooldown', async () => {
    const code = await recoveryCode('0987654321');
    await endCooldown(server.ctx, 'demo', 'recovery', '0987654321');
    const sms = server.ctx.messaging.sms;
    server.ctx.messaging.sms = { send: async () => Promise.reject(new Error('SMS gateway timeout')) };
    try {
      expect(await recover({ username: '0987654321' })).toEqual({ status: 503, body: { error: { code: 1292, message: 'We could not send the code, please try again' } } });
    } finally {
      server.ctx.messaging.sms = sms;
    }
    const user = await userRow(server.ctx, 'demo', '0987654321');
    expect(await auditTypes(server.ctx, user!.id)).toContain('sms.send_failed');
    expect(await reset({ username: '0987654321', password: 'Phone-new2', code })).toEqual({ status: 200, body: { ok: true } });
    expect(await recover({ username: '0987654321' })).toMatchObject({ status: 200 });
  });
});
