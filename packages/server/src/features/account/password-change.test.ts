import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { oidc, relyingParty, signIn } from '../../../test/relying-party.ts';
import { accountSignIn, call, createAccount, userById } from '../../../test/account.ts';
import { authorizationRequest, startSignIn } from '../../../test/relying-party.ts';
import { noticesIdle } from '../known-browsers/notice-delivery.ts';

/** POST /api/v1/me/password over real HTTP. */
describe('POST /api/v1/me/password', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  const change = (token: string | undefined, body: unknown, language = 'vi') => call(server.url, 'POST', '/api/v1/me/password', { token, body, language });

  /** Whether `username` / `password` signs in (the login API's answer). */
  async function loginStatus(username: string, password: string) {
    const rp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    const browser = new TestBrowser();
    const challenge = await startSignIn(browser, server.url, await authorizationRequest(rp));
    const response = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username, password, client_id: 'demo-app' });
    return { status: response.status, body: (await response.json()) as any };
  }

  const notices = async (to: string) => {
    await noticesIdle(server.ctx);
    // The password-changed notices only (each new test browser's sign-in brings a new sign-in notice).
    return ((await server.ctx.messaging.outbox?.list({ to, limit: 100 })) ?? []).filter((m) => !m.code && /Mật khẩu|password was changed/.test(m.subject ?? m.text));
  };

  const auditCount = async (userId: string, type: string) =>
    (await server.ctx.db.selectFrom('audit_events').select('id').where('user_id', '=', userId).where('type', '=', type).execute()).length;

  it('changes the password, keeps this session, signs out the others and revokes their tokens, and tells the owner', async () => {
    const email = 'change-1@example.com';
    const userId = await createAccount(server.ctx, { email, name: 'Minh' });
    const here = await accountSignIn(server.url, email);
    const elsewhere = await accountSignIn(server.url, email);
    const demoApp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    // A refresh token whose session has already ended (its grant lives on): revoked all the same.
    const orphan = await signIn(server.url, demoApp, email, 'Passw0rd!', new TestBrowser(), { scope: 'openid profile email offline_access' });
    const ended = await server.ctx.db.deleteFrom('oidc_payloads').where('model', '=', 'Session').where('account_id', '=', userId).where('payload', 'like', '%"demo-app"%').executeTakeFirst();
    expect(Number(ended.numDeletedRows)).toBe(1);
    await noticesIdle(server.ctx);
    expect((await oidc.refreshTokenGrant(demoApp.config, orphan.tokens.refresh_token!)).access_token).toBeTruthy();
    const offline = await signIn(server.url, demoApp, email, 'Passw0rd!', new TestBrowser(), { scope: 'openid profile email offline_access' });
    const before = await userById(server.ctx, userId);

    const answer = await change(here.token, { current_password: 'Passw0rd!', new_password: 'N3w-Secret-Tree' });
    expect(answer).toMatchObject({ status: 200, body: { ok: true, otherSessionsSignedOut: 2 } });

    // This session goes on; the other account-area session and the relying party's tokens do not.
    expect((await call(server.url, 'GET', '/api/v1/me', { token: here.token })).status).toBe(200);
    expect((await call(server.url, 'GET', '/api/v1/me', { token: elsewhere.token })).status).toBe(401);
    await expect(oidc.refreshTokenGrant(demoApp.config, offline.tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(oidc.refreshTokenGrant(demoApp.config, orphan.tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });

    // The old password is refused, the new one signs in.
    expect(await loginStatus(email, 'Passw0rd!')).toMatchObject({ status: 401, body: { error: { code: 1017 } } });
    expect(await loginStatus(email, 'N3w-Secret-Tree')).toMatchObject({ status: 200 });

    const after = await userById(server.ctx, userId);
    expect(after!.password_hash).not.toBe(before!.password_hash);
    expect(after!.password_hash).not.toContain('N3w-Secret-Tree');
    expect(after!.password_changed_at).toBeGreaterThan(before!.password_changed_at!);
    expect(await auditCount(userId, 'password.changed')).toBe(1);

    const [notice, ...more] = await notices(email);
    expect(more).toHaveLength(0);
    expect(notice).toMatchObject({ channel: 'email', subject: '[Passgate Demo] Mật khẩu của bạn đã được thay đổi' });
    expect(notice!.text).toContain('Xin chào Minh,');
    expect(notice!.text).toContain('Các phiên đăng nhập khác của bạn đã được đăng xuất.');
    expect(notice!.text).not.toContain('N3w-Secret-Tree');
    expect(notice!.text).not.toContain('Passw0rd!');
  });

  it('refuses a wrong current password (1017 on current_password) and changes nothing', async () => {
    const email = 'change-wrong@example.com';
    const userId = await createAccount(server.ctx, { email });
    const here = await accountSignIn(server.url, email);
    const elsewhere = await accountSignIn(server.url, email);
    const before = await userById(server.ctx, userId);

    expect(await change(here.token, { current_password: 'Wrong-Pass1', new_password: 'N3w-Secret-Tree' })).toMatchObject({
      status: 400,
      body: { error: { code: 1017, field: 'current_password' } },
    });
    expect(await userById(server.ctx, userId)).toEqual(before);
    expect((await call(server.url, 'GET', '/api/v1/me', { token: elsewhere.token })).status).toBe(200);
    expect(await auditCount(userId, 'password.changed')).toBe(0);
    expect(await notices(email)).toHaveLength(0);
  });

  it('refuses a new password against the policy (1002), on the breached list (1104) or recently used (1031), naming new_password', async () => {
    const email = 'change-rules@example.com';
    const userId = await createAccount(server.ctx, { email });
    const { token } = await accountSignIn(server.url, email);
    const before = await userById(server.ctx, userId);

    const short = await change(token, { current_password: 'Passw0rd!', new_password: 'a1b2' }, 'en');
    expect(short).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'new_password' } } });
    expect(short.body.error.message).toContain('at least 6 characters');
    expect(await change(token, { current_password: 'Passw0rd!', new_password: 'password123' })).toMatchObject({ status: 400, body: { error: { code: 1104, field: 'new_password' } } });
    expect(await change(token, { current_password: 'Passw0rd!', new_password: 'Passw0rd!' })).toMatchObject({ status: 400, body: { error: { code: 1031, field: 'new_password' } } });
    // Malformed bodies: the field is named, never a 500.
    expect(await change(token, { current_password: 'Passw0rd!' })).toMatchObject({ status: 400, body: { error: { code: 1001, field: 'new_password' } } });
    expect(await change(token, { current_password: 'Passw0rd!', new_password: 'x'.repeat(129) })).toMatchObject({ status: 400, body: { error: { field: 'new_password' } } });
    expect(await change(token, { current_password: '', new_password: 'N3w-Secret-Tree' })).toMatchObject({ status: 400, body: { error: { field: 'current_password' } } });
    expect(await change(token, 'not json')).toMatchObject({ status: 400 });

    expect(await userById(server.ctx, userId)).toEqual(before);
    // A change, then back to an earlier password: refused by the history.
    expect((await change(token, { current_password: 'Passw0rd!', new_password: 'Second-Pass-42' })).status).toBe(200);
    expect(await change(token, { current_password: 'Second-Pass-42', new_password: 'Passw0rd!' })).toMatchObject({ status: 400, body: { error: { code: 1031 } } });
  });

  it('answers 1105 for an account without a password, and 401 without the account client’s token', async () => {
    const email = 'change-nopassword@example.com';
    const userId = await createAccount(server.ctx, { email });
    const { token } = await accountSignIn(server.url, email);
    const demoApp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    const rpToken = (await signIn(server.url, demoApp, email, 'Passw0rd!')).tokens.access_token;

    expect(await change(undefined, { current_password: 'Passw0rd!', new_password: 'N3w-Secret-Tree' })).toMatchObject({ status: 401, body: { error: { code: 1101 } } });
    expect(await change(rpToken, { current_password: 'Passw0rd!', new_password: 'N3w-Secret-Tree' })).toMatchObject({ status: 401, body: { error: { code: 1102 } } });

    // As an account that signs in with Google or a phone code has it.
    await server.ctx.users.update(userId, { password_hash: null, registration_method: 'google' });
    expect(await change(token, { current_password: 'anything', new_password: 'N3w-Secret-Tree' })).toMatchObject({ status: 400, body: { error: { code: 1105 } } });
    expect((await userById(server.ctx, userId))!.password_hash).toBeNull();
  });

  it('goes through when the notice cannot be sent', async () => {
    const email = 'change-mailfail@example.com';
    await createAccount(server.ctx, { email });
    const { token } = await accountSignIn(server.url, email);
    const mail = server.ctx.messaging.mail;
    const original = mail.send;
    mail.send = async () => {
      throw new Error('421 service not available');
    };
    try {
      expect((await change(token, { current_password: 'Passw0rd!', new_password: 'N3w-Secret-Tree' })).status).toBe(200);
      await noticesIdle(server.ctx);
    } finally {
      mail.send = original;
    }
    expect(await loginStatus(email, 'N3w-Secret-Tree')).toMatchObject({ status: 200 });
  });

  it('is listed in the OpenAPI document with its snake_case body', async () => {
    const doc = (await (await fetch(`${server.url}/api/docs`)).json()) as any;
    const operation = doc.paths['/api/v1/me/password'].post;
    expect(Object.keys(operation.requestBody.content['application/json'].schema.properties)).toEqual(['current_password', 'new_password']);
    expect(Object.keys(operation.responses['200'].content['application/json'].schema.properties)).toEqual(['ok', 'otherSessionsSignedOut']);
    expect(operation.security).toEqual([{ bearerAuth: [] }]);
  });

  it('spends the re-check budget shared with the other password re-checks (1290 once spent), even for the right password', async () => {
    const email = 'change-budget@example.com';
    const userId = await createAccount(server.ctx, { email });
    const { token } = await accountSignIn(server.url, email);
    const before = await userById(server.ctx, userId);
    let answer = await change(token, { current_password: 'Wrong-Pass1', new_password: 'N3w-Secret-Tree' });
    for (let i = 0; i < 100 && answer.status === 400; i += 1) answer = await change(token, { current_password: 'Wrong-Pass1', new_password: 'N3w-Secret-Tree' });
    expect(answer).toMatchObject({ status: 429, body: { error: { code: 1290 } } });
    expect(await change(token, { current_password: 'Passw0rd!', new_password: 'N3w-Secret-Tree' })).toMatchObject({ status: 429, body: { error: { code: 1290 } } });
    // The same budget as the 2-step settings' re-check.
    expect(await call(server.url, 'POST', '/api/v1/me/mfa/config', { token, body: { password: 'Passw0rd!' } })).toMatchObject({ status: 429 });
    expect(await userById(server.ctx, userId)).toEqual(before);
  });
});
