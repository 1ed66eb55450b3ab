import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { authorizationRequest, finishSignIn, relyingParty, signIn, startSignIn } from '../../../test/relying-party.ts';
import { auditTypes, createClient, createTenant, endCooldown, lastCode, lastMessage, messageCount, otherCode, postJson, userRow } from '../../../test/visitor.ts';
import { verifySecret } from '../../lib/passwords.ts';

/** POST /api/v1/users/register, /users/confirm and /users/activation/resend over real HTTP. */
describe('registration and activation', () => {
  let server: TestServer;
  const register = (body: Record<string, unknown>, language?: string) => postJson(server.url, '/api/v1/users/register', { client_id: 'demo-app', ...body }, language);
  const confirm = (body: Record<string, unknown>) => postJson(server.url, '/api/v1/users/confirm', { client_id: 'demo-app', ...body });
  const resend = (body: Record<string, unknown>, language?: string) => postJson(server.url, '/api/v1/users/activation/resend', { client_id: 'demo-app', ...body }, language);
  const userCount = async () => Number((await server.ctx.db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    server = await startTestServer({ env: { CODE_SENDS_PER_IP_PER_HOUR: '1000' } });
    await createTenant(server.ctx, { id: 'closed', registrationAllowed: false });
    await createClient(server.ctx, server.url, { id: 'closed-app', tenantId: 'closed' });
    await createTenant(server.ctx, { id: 'strict', passwordPolicy: { minLength: 10, uppercase: 1, number: 2, special: 1 } });
    await createClient(server.ctx, server.url, {
      id: 'strict-app',
      tenantId: 'strict',
      permissions: ['users:email:register', 'users:email:login', 'users:phoneNumber:register'],
      usernamePolicy: { email: { allowedDomains: ['acme.example'] }, phone: { regexValidation: '^09\\d{8}$' } },
    });
  });
  afterAll(() => server?.close());

  it('registers by e-mail, sends the code in the visitor language, activates with it, and then signs in', async () => {
    const answer = await register({ username: '  Ann.Le@Example.COM ', password: 'Lantern-42', name: 'Ann Le' }, 'en-US,en;q=0.9');
    expect(answer).toEqual({ status: 200, body: { username: 'ann.le@example.com', channel: 'email' } });

    const user = await userRow(server.ctx, 'demo', 'ann.le@example.com');
    expect(user).toMatchObject({ status: 'pending', name: 'Ann Le', email_verified: 0, locale: 'en', registration_method: 'password', phone_number: null });
    expect(await verifySecret(user!.password_hash!, 'Lantern-42')).toBe(true);
    expect(await server.ctx.users.recentPasswordHashes(user!.id, 5)).toEqual([user!.password_hash]);
    const mail = await lastMessage(server.ctx, 'ann.le@example.com');
    expect(mail).toMatchObject({ channel: 'email', subject: '[Passgate Demo] Your account activation code', code: expect.stringMatching(/^\d{6}$/) });
    expect(mail!.text).toContain(mail!.code);
    expect(mail!.html).toContain(mail!.code);

    // Not activated yet: sign-in answers 1011.
    const browser = new TestBrowser();
    const rp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    const challenge = await startSignIn(browser, server.url, await authorizationRequest(rp));
    const early = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username: 'ann.le@example.com', password: 'Lantern-42' });
    expect(early.status).toBe(403);
    expect(((await early.json()) as any).error.code).toBe(1011);

    expect(await confirm({ username: 'ann.le@example.com', code: otherCode(mail!.code!) })).toMatchObject({ status: 400, body: { error: { code: 1041, field: 'code' } } });
    expect(await confirm({ username: 'Ann.Le@example.com', code: mail!.code })).toEqual({ status: 200, body: {} });
    expect(await userRow(server.ctx, 'demo', 'ann.le@example.com')).toMatchObject({ status: 'active', email_verified: 1 });
    expect(await auditTypes(server.ctx, user!.id)).toEqual(['user.registered', 'code.failed', 'user.activated']);

    // The code is used; the account is active.
    expect(await confirm({ username: 'ann.le@example.com', code: mail!.code })).toMatchObject({ status: 400, body: { error: { code: 1013 } } });
    const { tokens } = await signIn(server.url, rp, 'ann.le@example.com', 'Lantern-42');
    expect(tokens.claims()).toMatchObject({ email: 'ann.le@example.com', email_verified: true, name: 'Ann Le' });
  });

  it('registers by phone (SMS in Vietnamese by default) and, with the challenge, finishes the sign-in on activation', async () => {
    const browser = new TestBrowser();
    const rp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    const auth = await authorizationRequest(rp);
    const challenge = await startSignIn(browser, server.url, auth);

    expect(await register({ username: '0912345001', password: 'Lantern-42', name: 'Bình', challenge })).toEqual({ status: 200, body: { username: '0912345001', channel: 'sms' } });
    const sms = await lastMessage(server.ctx, '0912345001');
    expect(sms).toMatchObject({ channel: 'sms', subject: null });
    expect(sms!.text).toBe(`Passgate Demo: Mã kích hoạt tài khoản của bạn là ${sms!.code}, hiệu lực 10 phút. Không chia sẻ mã này với bất kỳ ai.`);
    expect(await userRow(server.ctx, 'demo', '0912345001')).toMatchObject({ locale: 'vi', status: 'pending', email: null });

    const answer = await confirm({ username: '0912345001', code: sms!.code, challenge });
    expect(answer.status).toBe(200);
    expect(answer.body.redirectTo).toMatch(new RegExp(`^${server.url}/oidc/`));
    // The sign-in says what it rests on: the code just proved, not a password this step never checked.
    const result = (await server.ctx.provider.Interaction.find(challenge))?.result as { login?: { amr?: string[] } } | undefined;
    expect(result?.login?.amr).toEqual(['sms']);
    const tokens = await finishSignIn(browser, server.url, rp, auth, answer.body.redirectTo);
    expect(tokens.claims()).toMatchObject({ phone_number: '0912345001', phone_number_verified: true, name: 'Bình' });
  });

  it('refuses a challenge this browser did not start (1026, still pending, code unspent); activates without signing in for another tenant', async () => {
    await register({ username: 'nochallenge@example.com', password: 'Lantern-42', name: 'N' });
    const code = await lastCode(server.ctx, 'nochallenge@example.com');
    expect(await confirm({ username: 'nochallenge@example.com', code, challenge: 'no-such-challenge' })).toMatchObject({ status: 400, body: { error: { code: 1026, field: 'challenge' } } });
    expect(await userRow(server.ctx, 'demo', 'nochallenge@example.com')).toMatchObject({ status: 'pending' });
    expect(await confirm({ username: 'nochallenge@example.com', code })).toEqual({ status: 200, body: {} });

    const foreign = await startSignIn(new TestBrowser(), server.url, await authorizationRequest(await relyingParty(server.url, 'strict-app')));
    await register({ username: 'foreign@example.com', password: 'Lantern-42', name: 'F' });
    const foreignCode = await lastCode(server.ctx, 'foreign@example.com');
    expect(await confirm({ username: 'foreign@example.com', code: foreignCode, challenge: foreign })).toEqual({ status: 200, body: {} });
    const interaction = await server.ctx.provider.Interaction.find(foreign);
    expect(interaction?.result).toBeUndefined();
  });

  it('lets a new registration take over a pending one (name, password, a new code), but not within 60 s', async () => {
    await register({ username: 'squat@example.com', password: 'squatter1', name: 'Squatter' });
    const squatterCode = await lastCode(server.ctx, 'squat@example.com');
    const again = await register({ username: 'squat@example.com', password: 'owner-pw', name: 'Owner' });
    expect(again).toMatchObject({ status: 429, body: { error: { code: 1291, message: expect.stringMatching(/try again in \d+ s/) } } });

    await endCooldown(server.ctx, 'demo', 'activation', 'squat@example.com');
    expect(await register({ username: 'squat@example.com', password: 'owner-pw', name: 'Owner' }, 'en')).toMatchObject({ status: 200 });
    const user = await userRow(server.ctx, 'demo', 'squat@example.com');
    expect(user).toMatchObject({ name: 'Owner', status: 'pending', locale: 'en' });
    expect(await verifySecret(user!.password_hash!, 'owner-pw')).toBe(true);
    expect(await server.ctx.users.recentPasswordHashes(user!.id, 10)).toEqual([user!.password_hash]);
    const ownerCode = await lastCode(server.ctx, 'squat@example.com');
    if (ownerCode !== squatterCode) {
      expect(await confirm({ username: 'squat@example.com', code: squatterCode })).toMatchObject({ status: 400, body: { error: { code: 1041 } } });
    }
    expect(await confirm({ username: 'squat@example.com', code: ownerCode })).toEqual({ status: 200, body: {} });
  });

  it('refuses a name holding a control character (1002, field name), writing nothing and sending nothing', async () => {
    for (const name of ['A\u0007B', 'Ann\nSmith', 'Tab\there', 'C1\u0085']) {
      const username = `control-${name.length}-${name.charCodeAt(1)}@example.com`;
      expect(await register({ username, password: 'Str0ng!pass9x', name })).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'name' } } });
      expect(await userRow(server.ctx, 'demo', username)).toBeUndefined();
      expect(await messageCount(server.ctx, username)).toBe(0);
    }
    // Letters of every script stay welcome, spaces inside too.
    expect((await register({ username: 'vietnamese-name@example.com', password: 'Str0ng!pass9x', name: 'Nguyễn Thị Ánh' })).status).toBe(200);
  });

  it('refuses a password on the list of common breached passwords (1104, field password), in any case, writing nothing and sending nothing', async () => {
    const before = await userCount();
    for (const password of ['password123', 'PASSWORD123', 'Qwerty123', 'iloveyou1']) {
      expect(await register({ username: 'common@example.com', password, name: 'C' }, 'en')).toMatchObject({
        status: 400,
        body: { error: { code: 1104, field: 'password', message: 'This password is too common: it appears in lists of breached passwords' } },
      });
    }
    expect(await userCount()).toBe(before);
    expect(await messageCount(server.ctx, 'common@example.com')).toBe(0);

    expect(await register({ username: 'common@example.com', password: 'Harbour-lights-93', name: 'C' })).toMatchObject({ status: 200, body: { channel: 'email' } });
    expect(await userRow(server.ctx, 'demo', 'common@example.com')).toMatchObject({ status: 'pending' });
  });

  it('refuses an address or number that belongs to an active account (409, 1020 / 1019), writing nothing', async () => {
    const before = await userCount();
    expect(await register({ username: 'DEMO@example.com', password: 'Lantern-42', name: 'X' })).toMatchObject({ status: 409, body: { error: { code: 1020, field: 'username' } } });
    expect(await register({ username: '0912345001', password: 'Lantern-42', name: 'X' })).toMatchObject({ status: 409, body: { error: { code: 1019, field: 'username' } } });
    expect(await userCount()).toBe(before);
    expect(await messageCount(server.ctx, 'demo@example.com')).toBe(0);
  });

  it('applies the tenant switch (1303), the client capabilities (1301), the username policy (1016 / 1015) and the password policy (1002)', async () => {
    const before = await userCount();
    expect(await register({ client_id: 'nope', username: 'a@example.com', password: 'Lantern-42', name: 'A' })).toMatchObject({ status: 404, body: { error: { code: 1061 } } });
    expect(await register({ client_id: 'closed-app', username: 'a@example.com', password: 'Lantern-42', name: 'A' })).toMatchObject({ status: 403, body: { error: { code: 1303 } } });
    // partner-shop may only sign in by e-mail: it registers nobody.
    expect(await register({ client_id: 'partner-shop', username: 'a@example.com', password: 'Lantern-42', name: 'A' })).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
    expect(await register({ username: 'a@example', password: 'Lantern-42', name: 'A' })).toMatchObject({
      status: 400,
      body: { error: { code: 1016, field: 'username', message: 'a@example has an invalid format' } },
    });
    expect(await register({ username: '091234', password: 'Lantern-42', name: 'A' })).toMatchObject({ status: 400, body: { error: { code: 1015, message: '091234 has an invalid format' } } });
    expect(await register({ username: 'a@example.com', password: '12345', name: 'A' })).toMatchObject({
      status: 400,
      body: { error: { code: 1002, field: 'password', message: expect.stringContaining('at least 6 characters') } },
    });

    const strict = (body: Record<string, unknown>) => register({ client_id: 'strict-app', name: 'S', ...body });
    expect(await strict({ username: 'a@example.com', password: 'Abcdefgh12!' })).toMatchObject({ status: 400, body: { error: { code: 1016 } } });
    expect(await strict({ username: '0812345678', password: 'Abcdefgh12!' })).toMatchObject({ status: 400, body: { error: { code: 1015 } } });
    const weak = await strict({ username: 'a@acme.example', password: 'abcdefgh1' });
    expect(weak).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'password' } } });
    expect(weak.body.error.message).toBe('The password does not meet the password policy: it needs at least 10 characters, at least 1 uppercase letter, at least 2 digits, at least 1 special character');
    expect(await userCount()).toBe(before);

    expect(await strict({ username: 'a@acme.example', password: 'Abcdefgh12!' })).toMatchObject({ status: 200, body: { channel: 'email' } });
    expect(await strict({ username: '0912345678', password: 'Abcdefgh12!' })).toMatchObject({ status: 200, body: { channel: 'sms' } });
  });

  it('answers 1000, 1001 and 1002 naming the field for malformed, missing, over-long and mistyped input', async () => {
    const before = await userCount();
    expect(await postJson(server.url, '/api/v1/users/register', '{"client_id": "demo-app", "username": ')).toMatchObject({ status: 400, body: { error: { code: 1000 } } });
    expect(await register({ username: 'b@example.com', name: 'B' })).toMatchObject({ status: 400, body: { error: { code: 1001, field: 'password' } } });
    expect(await postJson(server.url, '/api/v1/users/register', { username: 'b@example.com', password: 'Lantern-42', name: 'B' })).toMatchObject({
      status: 400,
      body: { error: { code: 1001, field: 'client_id' } },
    });
    expect(await register({ username: 'b@example.com', password: 'Lantern-42', name: 'B'.repeat(256) })).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'name' } } });
    expect(await register({ username: 'b@example.com', password: 'Lantern-42', name: '   ' })).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'name' } } });
    expect(await register({ username: 'b@example.com', password: 'p'.repeat(129), name: 'B' })).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'password' } } });
    expect(await register({ username: `${'b'.repeat(250)}@example.com`, password: 'Lantern-42', name: 'B' })).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'username' } } });
    expect(await register({ username: 912345678, password: 'Lantern-42', name: 'B' })).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'username' } } });
    expect(await register({ username: 'b@example.com', password: 'Lantern-42', name: 'B', challenge: 'not a challenge!' })).toMatchObject({ status: 400, body: { error: { field: 'challenge' } } });
    expect(await userCount()).toBe(before);

    expect(await confirm({ username: 'b@example.com', code: '12345' })).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'code' } } });
    expect(await confirm({ username: 'b@example.com', code: '12345a' })).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'code' } } });
    expect(await confirm({ username: 'b@example.com' })).toMatchObject({ status: 400, body: { error: { code: 1001, field: 'code' } } });
    expect(await resend({ username: ['b@example.com'] })).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'username' } } });
  });

  it('refuses a code after 5 wrong tries (1026 even when right), once expired (1026), and when there is none (1026)', async () => {
    await register({ username: 'tries@example.com', password: 'Lantern-42', name: 'T' });
    const code = await lastCode(server.ctx, 'tries@example.com');
    for (let i = 0; i < 5; i += 1) {
      expect(await confirm({ username: 'tries@example.com', code: otherCode(code) })).toMatchObject({ status: 400, body: { error: { code: 1041 } } });
    }
    expect(await confirm({ username: 'tries@example.com', code })).toMatchObject({ status: 400, body: { error: { code: 1026, field: 'code' } } });
    expect(await userRow(server.ctx, 'demo', 'tries@example.com')).toMatchObject({ status: 'pending' });

    await register({ username: 'late@example.com', password: 'Lantern-42', name: 'L' });
    const late = await lastCode(server.ctx, 'late@example.com');
    await server.ctx.db.updateTable('one_time_codes').set({ expires_at: Date.now() - 1000 }).where('destination', '=', 'late@example.com').execute();
    expect(await confirm({ username: 'late@example.com', code: late })).toMatchObject({ status: 400, body: { error: { code: 1026 } } });
    expect(await confirm({ username: 'nobody@example.com', code: '123456' })).toMatchObject({ status: 400, body: { error: { code: 1026 } } });
  });

  it('resends a code to a pending account in its own language, and answers alike for every other username', async () => {
    await register({ username: 'resend@example.com', password: 'Lantern-42', name: 'R' }, 'en');
    const first = await lastCode(server.ctx, 'resend@example.com');
    expect(await resend({ username: 'resend@example.com' })).toMatchObject({ status: 429, body: { error: { code: 1291 } } });

    await endCooldown(server.ctx, 'demo', 'activation', 'resend@example.com');
    expect(await resend({ username: 'resend@example.com' }, 'vi')).toEqual({ status: 200, body: { resendAfter: 60 } });
    const mail = await lastMessage(server.ctx, 'resend@example.com');
    expect(mail!.subject).toBe('[Passgate Demo] Your account activation code');
    expect(await messageCount(server.ctx, 'resend@example.com')).toBe(2);
    if (mail!.code !== first) expect(await confirm({ username: 'resend@example.com', code: first })).toMatchObject({ status: 400, body: { error: { code: 1041 } } });

    // Unknown and active accounts: the same answer, no message, and the same cooldown.
    for (const username of ['unknown@example.com', 'demo@example.com', '0900000000']) {
      expect(await resend({ username })).toEqual({ status: 200, body: { resendAfter: 60 } });
      expect(await messageCount(server.ctx, username)).toBe(0);
      expect(await resend({ username })).toMatchObject({ status: 429, body: { error: { code: 1291 } } });
    }
    expect(await resend({ username: 'x@y' })).toMatchObject({ status: 400, body: { error: { code: 1016 } } });
  });

  it('answers 503 with a message when the code cannot be sent, writing nothing and keeping no cooldown', async () => {
    const mail = server.ctx.messaging.mail;
    const before = await userCount();
    server.ctx.messaging.mail = { send: async () => Promise.reject(new Error('SMTP is down')) };
    try {
      expect(await register({ username: 'unlucky@example.com', password: 'Lantern-42', name: 'U' })).toEqual({
        status: 503,
        body: { error: { code: 1292, message: 'We could not send the code, please try again' } },
      });
    } finally {
      server.ctx.messaging.mail = mail;
    }
    expect(await userCount()).toBe(before);
    const failures = await server.ctx.db.selectFrom('audit_events').selectAll().where('type', '=', 'code.send_failed').execute();
    expect(failures).toHaveLength(1);
    expect(JSON.parse(failures[0]!.details!)).toMatchObject({ purpose: 'activation', channel: 'email', reason: 'SMTP is down' });
    expect(await server.ctx.db.selectFrom('one_time_codes').select('id').where('destination', '=', 'unlucky@example.com').execute()).toEqual([]);

    expect(await register({ username: 'unlucky@example.com', password: 'Lantern-42', name: 'U' })).toMatchObject({ status: 200 });
  });
});
