import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { authorizationRequest, finishSignIn, relyingParty, startSignIn, type Authorization, type RelyingParty } from '../../../test/relying-party.ts';
import { auditTypes, createClient, createTenant, endCooldown, lastCode, lastMessage, messageCount, otherCode, postJson, startFakeSiteVerify, userRow, type FakeSiteVerify } from '../../../test/visitor.ts';
import { newId } from '../../lib/ids.ts';

/** POST /api/v1/passwordless/send, /resend and /login over real HTTP. */
describe('passwordless sign-in by phone', () => {
  let server: TestServer;
  let siteVerify: FakeSiteVerify;
  const send = (body: Record<string, unknown> | string, language?: string) => postJson(server.url, '/api/v1/passwordless/send', body, language);
  const resend = (body: Record<string, unknown>) => postJson(server.url, '/api/v1/passwordless/resend', body);
  const login = (body: Record<string, unknown>) => postJson(server.url, '/api/v1/passwordless/login', body);

  async function begin(clientId = 'demo-app'): Promise<{ rp: RelyingParty; auth: Authorization; browser: TestBrowser; challenge: string }> {
    const browser = new TestBrowser();
    const rp = await relyingParty(server.url, clientId, clientId === 'demo-app' ? 'demo-secret' : undefined);
    const auth = await authorizationRequest(rp);
    const challenge = await startSignIn(browser, server.url, auth);
    return { rp, auth, browser, challenge };
  }

  async function addUser(phone: string, status = 'active') {
    const now = Date.now();
    const id = newId();
    await server.ctx.users.insert({
      id, tenant_id: 'demo', email: null, email_verified: 0, phone_number: phone, phone_number_verified: status === 'active' ? 1 : 0, name: 'Phone User',
      birthday: null, gender: null, locale: 'vi', avatar_key: null, password_hash: null, password_changed_at: null, registration_method: 'password',
      status, enable_mfa: 0, authenticator_type: null, totp_secret_enc: null, failed_login_count: 0, locked_until: null, created_at: now, updated_at: now,
    });
    return id;
  }

  beforeAll(async () => {
    siteVerify = await startFakeSiteVerify();
    server = await startTestServer({ env: { CODE_SENDS_PER_IP_PER_HOUR: '1000', RECAPTCHA_VERIFY_URL: siteVerify.url } });
    await createClient(server.ctx, server.url, { id: 'captcha-pl', tenantId: 'demo', permissions: ['passwordless:login', 'passwordless:register'], recaptcha: { enabled: true, siteKey: 'k', secret: 's' } });
    await createClient(server.ctx, server.url, { id: 'pl-login-only', tenantId: 'demo', permissions: ['passwordless:login'] });
    await createClient(server.ctx, server.url, { id: 'no-pl', tenantId: 'demo', permissions: ['users:email:login'] });
    await createClient(server.ctx, server.url, { id: 'strict-pl', tenantId: 'demo', permissions: ['passwordless:login'], usernamePolicy: { phone: { regexValidation: '^\\+849\\d{8}$' } } });
    await createTenant(server.ctx, { id: 'closed', passwordlessAuthenticationAllowed: false });
    await createClient(server.ctx, server.url, { id: 'closed-app', tenantId: 'closed' });
  });
  afterAll(async () => {
    await server?.close();
    await siteVerify?.close();
  });

  it('checks reCAPTCHA for a client that has it', async () => {
    const { challenge } = await begin('captcha-pl');
    expect(await send({ challenge, phone_number: '0901000020' })).toMatchObject({ status: 400, body: { error: { code: 1001, field: 'recaptcha_token' } } });
    expect(await send({ challenge, phone_number: '0901000020', recaptcha_token: 'bad-token' })).toMatchObject({ status: 400, body: { error: { field: 'recaptcha_token' } } });
    expect(await messageCount(server.ctx, '0901000020')).toBe(0);
    expect(await send({ challenge, phone_number: '0901000020', recaptcha_token: 'good-token' })).toMatchObject({ status: 200 });
    const code = await lastCode(server.ctx, '0901000020');
    expect(await login({ challenge, phone_number: '0901000020', code })).toMatchObject({ status: 400, body: { error: { field: 'recaptcha_token' } } });
    expect(await login({ challenge, phone_number: '0901000020', code, recaptcha_token: 'good-token' })).toMatchObject({ status: 200 });
  });

  it('signs an existing phone in: code by SMS in the visitor language, redirectTo, tokens with phone_number', async () => {
    const userId = await addUser('0901000001');
    const { rp, auth, browser, challenge } = await begin();
    expect(await send({ challenge, phone_number: ' 0901000001 ', client_id: 'demo-app' }, 'en')).toEqual({ status: 200, body: { resendAfter: 60 } });
    const sms = await lastMessage(server.ctx, '0901000001');
    expect(sms).toMatchObject({ channel: 'sms', code: expect.stringMatching(/^\d{6}$/) });
    // The account's own language (vi) wins over the request's.
    expect(sms!.text).toBe(`Passgate Demo: Mã đăng nhập của bạn là ${sms!.code}, hiệu lực 10 phút. Không chia sẻ mã này với bất kỳ ai.`);

    const answer = await login({ challenge, phone_number: '0901000001', code: sms!.code });
    expect(answer.status).toBe(200);
    const tokens = await finishSignIn(browser, server.url, rp, auth, answer.body.redirectTo);
    expect(tokens.claims()).toMatchObject({ sub: userId, phone_number: '0901000001', phone_number_verified: true });
    expect(await auditTypes(server.ctx, userId)).toEqual(['passwordless.code_sent', 'passwordless.success']);
    // Single use.
    const again = await begin();
    expect(await login({ challenge: again.challenge, phone_number: '0901000001', code: sms!.code })).toMatchObject({ status: 400, body: { error: { code: 1026, field: 'code' } } });
  });

  it('creates the account of a new phone when the client has passwordless:register', async () => {
    const { rp, auth, browser, challenge } = await begin();
    expect(await send({ challenge, phone_number: '0901000002' })).toEqual({ status: 200, body: { resendAfter: 60 } });
    expect(await userRow(server.ctx, 'demo', '0901000002')).toBeUndefined();
    const answer = await login({ challenge, phone_number: '0901000002', code: await lastCode(server.ctx, '0901000002'), client_id: 'demo-app' });
    expect(answer.status).toBe(200);
    const user = await userRow(server.ctx, 'demo', '0901000002');
    expect(user).toMatchObject({ status: 'active', phone_number_verified: 1, registration_method: 'passwordless', password_hash: null, name: null, email: null });
    const tokens = await finishSignIn(browser, server.url, rp, auth, answer.body.redirectTo);
    expect(tokens.claims()).toMatchObject({ sub: user!.id, phone_number: '0901000002' });
    expect(await auditTypes(server.ctx, user!.id)).toEqual(['user.registered', 'passwordless.success']);
  });

  it('activates a pending account with the proof of its phone', async () => {
    const userId = await addUser('0901000003', 'pending');
    const { challenge } = await begin();
    expect(await send({ challenge, phone_number: '0901000003' })).toMatchObject({ status: 200 });
    expect(await login({ challenge, phone_number: '0901000003', code: await lastCode(server.ctx, '0901000003') })).toMatchObject({ status: 200, body: { redirectTo: expect.any(String) } });
    expect(await userRow(server.ctx, 'demo', '0901000003')).toMatchObject({ id: userId, status: 'active', phone_number_verified: 1 });
  });

  it('answers 1010 for an unknown phone when the client lacks passwordless:register, and sends nothing', async () => {
    const { challenge } = await begin('pl-login-only');
    expect(await send({ challenge, phone_number: '0901000004' })).toMatchObject({ status: 404, body: { error: { code: 1010, field: 'phone_number' } } });
    expect(await messageCount(server.ctx, '0901000004')).toBe(0);
    // No cooldown was spent.
    expect(await send({ challenge, phone_number: '0901000004', client_id: 'pl-login-only' })).toMatchObject({ status: 404, body: { error: { code: 1010 } } });
    // An existing phone works with that client.
    await addUser('0901000005');
    expect(await send({ challenge, phone_number: '0901000005' })).toMatchObject({ status: 200 });
  });

  it('answers 1301 without passwordless:login and 1303 when the tenant switch is off', async () => {
    const { challenge } = await begin();
    expect(await send({ challenge, phone_number: '0901000006', client_id: 'no-pl' })).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
    expect(await resend({ phone_number: '0901000006', client_id: 'no-pl' })).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
    expect(await login({ challenge, phone_number: '0901000006', code: '123456', client_id: 'no-pl' })).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
    expect(await send({ challenge, phone_number: '0901000006', client_id: 'closed-app' })).toMatchObject({ status: 403, body: { error: { code: 1303 } } });
    expect(await login({ challenge, phone_number: '0901000006', code: '123456', client_id: 'closed-app' })).toMatchObject({ status: 403, body: { error: { code: 1303 } } });
    // A client_id that is not the challenge's.
    expect(await send({ challenge, phone_number: '0901000006', client_id: 'pl-login-only' })).toMatchObject({ status: 400, body: { error: { field: 'client_id' } } });
    expect(await messageCount(server.ctx, '0901000006')).toBe(0);
  });

  it('kills the code after five wrong tries', async () => {
    await addUser('0901000007');
    const { challenge } = await begin();
    expect(await send({ challenge, phone_number: '0901000007' })).toMatchObject({ status: 200 });
    const code = await lastCode(server.ctx, '0901000007');
    for (let i = 0; i < 5; i++) {
      expect(await login({ challenge, phone_number: '0901000007', code: otherCode(code) })).toMatchObject({ status: 400, body: { error: { code: 1043, field: 'code' } } });
    }
    expect(await login({ challenge, phone_number: '0901000007', code })).toMatchObject({ status: 400, body: { error: { code: 1026, field: 'code' } } });
    const user = await userRow(server.ctx, 'demo', '0901000007');
    expect((await auditTypes(server.ctx, user!.id)).filter((t) => t === 'passwordless.failure')).toHaveLength(6);
  });

  it('refuses an expired code and an expired challenge', async () => {
    await addUser('0901000008');
    const { challenge } = await begin();
    expect(await send({ challenge, phone_number: '0901000008' })).toMatchObject({ status: 200 });
    const code = await lastCode(server.ctx, '0901000008');
    await server.ctx.db.updateTable('one_time_codes').set({ expires_at: Date.now() - 1 }).where('destination', '=', '0901000008').execute();
    expect(await login({ challenge, phone_number: '0901000008', code })).toMatchObject({ status: 400, body: { error: { code: 1026, field: 'code' } } });
    expect(await send({ challenge: 'no-such-challenge', phone_number: '0901000008' })).toMatchObject({ status: 400, body: { error: { code: 1026, field: 'challenge' } } });
  });

  it('answers 1291 to a second code within 60 s; resend takes the client from the challenge or client_id', async () => {
    await addUser('0901000009');
    const { challenge } = await begin();
    expect(await send({ challenge, phone_number: '0901000009' })).toMatchObject({ status: 200 });
    expect(await resend({ challenge, phone_number: '0901000009' })).toMatchObject({ status: 429, body: { error: { code: 1291 } } });
    expect(await send({ challenge, phone_number: '0901000009' })).toMatchObject({ status: 429, body: { error: { code: 1291 } } });
    await endCooldown(server.ctx, 'demo', 'passwordless', '0901000009');
    expect(await resend({ challenge, phone_number: '0901000009' })).toEqual({ status: 200, body: { resendAfter: 60 } });
    await endCooldown(server.ctx, 'demo', 'passwordless', '0901000009');
    expect(await resend({ phone_number: '0901000009', client_id: 'demo-app' })).toEqual({ status: 200, body: { resendAfter: 60 } });
    expect(await messageCount(server.ctx, '0901000009')).toBe(3);
    // Only the newest code works.
    expect(await login({ challenge, phone_number: '0901000009', code: await lastCode(server.ctx, '0901000009') })).toMatchObject({ status: 200 });
  });

  it('answers 503/1292 when the SMS cannot be sent, storing no code and keeping no cooldown', async () => {
    await addUser('0901000010');
    const { challenge } = await begin();
    const sms = server.ctx.messaging.sms;
    server.ctx.messaging.sms = { send: async () => Promise.reject(new Error('gateway down')) };
    try {
      expect(await send({ challenge, phone_number: '0901000010' })).toEqual({ status: 503, body: { error: { code: 1292, message: 'We could not send the code, please try again' } } });
    } finally {
      server.ctx.messaging.sms = sms;
    }
    expect(await server.ctx.db.selectFrom('one_time_codes').select('id').where('destination', '=', '0901000010').execute()).toEqual([]);
    const user = await userRow(server.ctx, 'demo', '0901000010');
    expect(await auditTypes(server.ctx, user!.id)).toEqual(['sms.send_failed']);
    expect(await send({ challenge, phone_number: '0901000010' })).toMatchObject({ status: 200 });
  });

  it('refuses bad input', async () => {
    const { challenge } = await begin();
    expect(await send({ challenge, phone_number: '090100001' })).toMatchObject({ status: 400, body: { error: { code: 1015, field: 'phone_number' } } });
    expect(await send({ challenge, phone_number: '09010000111' })).toMatchObject({ status: 400, body: { error: { code: 1015, field: 'phone_number' } } });
    expect(await send({ challenge, phone_number: 'a@b.example' })).toMatchObject({ status: 400, body: { error: { code: 1015 } } });
    expect(await send({ challenge })).toMatchObject({ status: 400, body: { error: { code: 1001, field: 'phone_number' } } });
    expect(await send({ phone_number: '0901000011' })).toMatchObject({ status: 400, body: { error: { code: 1001, field: 'challenge' } } });
    expect(await send({ challenge, phone_number: 901000011 })).toMatchObject({ status: 400, body: { error: { field: 'phone_number' } } });
    expect(await resend({ phone_number: '0901000011' })).toMatchObject({ status: 400, body: { error: { code: 1001, field: 'client_id' } } });
    expect(await login({ challenge, phone_number: '0901000011', code: '12345' })).toMatchObject({ status: 400, body: { error: { field: 'code' } } });
    expect(await login({ challenge, phone_number: '0901000011' })).toMatchObject({ status: 400, body: { error: { code: 1001, field: 'code' } } });
    expect(await login({ challenge, phone_number: '0901000011', code: 123456 })).toMatchObject({ status: 400, body: { error: { field: 'code' } } });
    expect(await send('{not json')).toMatchObject({ status: 400 });
    // The client's phone policy replaces the 10-digit rule.
    const strict = await begin('strict-pl');
    expect(await send({ challenge: strict.challenge, phone_number: '0901000011' })).toMatchObject({ status: 400, body: { error: { code: 1015 } } });
    expect(await send({ challenge: strict.challenge, phone_number: '+84901000011' })).toMatchObject({ status: 404, body: { error: { code: 1010 } } });
  });
});
