import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishSignIn } from '../../../test/relying-party.ts';
import { createAccount, userById } from '../../../test/account.ts';
import { auditTypes, endCooldown, lastCode, lastMessage, otherCode, postJson } from '../../../test/visitor.ts';
import type { TestServer } from '../../../test/test-server.ts';
import type { FakeSocialProviders } from '../../../test/fake-social-providers.ts';
import { FACEBOOK_APP, GOOGLE_APP, begin, identitiesOf, loginBody, socialLogin, startSocialTestbed, type SignInStart, type SocialTestbed } from './social-test-setup.ts';

/** Linking a Google or Facebook identity to the existing account its verified e-mail belongs to: never without proof. */
describe('linking a social identity to an existing account', () => {
  let testbed: SocialTestbed;
  let server: TestServer;
  let fake: FakeSocialProviders;
  const login = (body: Record<string, unknown>) => socialLogin(server, body);
  const link = (body: Record<string, unknown>) => postJson(server.url, '/api/v1/social/link', body);
  const sendCode = (body: Record<string, unknown>) => postJson(server.url, '/api/v1/social/link/send-code', body);

  beforeAll(async () => {
    testbed = await startSocialTestbed();
    ({ server, fake } = testbed);
  });
  afterAll(() => testbed?.close());

  /** A social sign-in whose verified e-mail is `email`: answers the start and the linkRequired answer. */
  async function linkRequired(authorizer: 'google' | 'facebook', token: string, email: string, subject: string): Promise<SignInStart & { linkToken: string; body: any }> {
    if (authorizer === 'google') fake.google.set(token, { appId: GOOGLE_APP, sub: subject, email, emailVerified: true, name: 'Provider Name' });
    else fake.facebook.set(token, { appId: FACEBOOK_APP, userId: subject, email, name: 'Provider Name' });
    const start = await begin(server);
    const answer = await login(loginBody(authorizer, start.challenge, token));
    expect(answer.status).toBe(200);
    return { ...start, linkToken: answer.body.linkToken, body: answer.body };
  }

  it('asks for proof instead of linking by e-mail, and links with the right password; the identity then signs in directly', async () => {
    const userId = await createAccount(server.ctx, { email: 'ivy@example.com', name: 'Ivy' });
    const start = await linkRequired('google', 'g-ivy', 'ivy@example.com', 'g-sub-ivy');
    expect(start.body).toEqual({ linkRequired: true, linkToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), email: 'i***@example.com', methods: ['password', 'code'] });
    expect(await identitiesOf(server, userId)).toEqual([]);
    const stored = await server.ctx.db.selectFrom('social_link_tokens').select('id').execute();
    expect(stored.map((r) => r.id)).not.toContain(start.linkToken);

    // No proof, both proofs, a wrong password.
    expect(await link({ challenge: start.challenge, link_token: start.linkToken })).toMatchObject({ status: 400, body: { error: { code: 1001, field: 'password' } } });
    expect(await link({ challenge: start.challenge, link_token: start.linkToken, password: 'Passw0rd!', code: '123456' })).toMatchObject({ status: 400, body: { error: { code: 1002 } } });
    expect(await link({ challenge: start.challenge, link_token: start.linkToken, password: 'Wrong-pass1' })).toEqual({
      status: 401,
      body: { error: { code: 1017, field: 'password', message: 'Username or password is not correct' } },
    });
    expect(await userById(server.ctx, userId)).toMatchObject({ failed_login_count: 1 });
    expect(await identitiesOf(server, userId)).toEqual([]);

    const answer = await link({ challenge: start.challenge, link_token: start.linkToken, password: 'Passw0rd!' });
    expect(answer).toEqual({ status: 200, body: { redirectTo: expect.any(String) } });
    const tokens = await finishSignIn(start.browser, server.url, start.rp, start.auth, answer.body.redirectTo);
    expect(tokens.claims()).toMatchObject({ sub: userId, email: 'ivy@example.com', name: 'Ivy' });
    expect(await identitiesOf(server, userId)).toEqual([{ provider: 'google', subject: 'g-sub-ivy', email: 'ivy@example.com' }]);
    expect(await userById(server.ctx, userId)).toMatchObject({ failed_login_count: 0, registration_method: 'password' });
    expect(await auditTypes(server.ctx, userId)).toEqual(expect.arrayContaining(['social.login_failed', 'social.linked', 'social.login']));

    // The link token is single use.
    expect(await link({ challenge: start.challenge, link_token: start.linkToken, password: 'Passw0rd!' })).toMatchObject({ status: 400, body: { error: { code: 1026, field: 'link_token' } } });

    const next = await begin(server);
    const direct = await login(loginBody('google', next.challenge, 'g-ivy'));
    expect(direct).toEqual({ status: 200, body: { redirectTo: expect.any(String) } });
    expect((await finishSignIn(next.browser, server.url, next.rp, next.auth, direct.body.redirectTo)).claims()?.sub).toBe(userId);
  });

  it('links with a code sent to the account\'s e-mail', async () => {
    const userId = await createAccount(server.ctx, { email: 'jack@example.com', name: 'Jack' });
    const start = await linkRequired('facebook', 'fb-jack', 'jack@example.com', '7001');
    const body = { challenge: start.challenge, link_token: start.linkToken };
    expect(await sendCode(body)).toEqual({ status: 200, body: { channel: 'email', destination: 'j***@example.com', resendAfter: 60 } });
    const mail = await lastMessage(server.ctx, 'jack@example.com');
    expect(mail).toMatchObject({ channel: 'email', subject: '[Passgate Demo] Mã xác nhận liên kết tài khoản' });
    expect(await sendCode(body)).toMatchObject({ status: 429, body: { error: { code: 1291 } } });

    const code = await lastCode(server.ctx, 'jack@example.com');
    expect(await link({ ...body, code: otherCode(code) })).toMatchObject({ status: 400, body: { error: { code: 1040, field: 'code' } } });
    expect(await identitiesOf(server, userId)).toEqual([]);
    const answer = await link({ ...body, code, client_id: 'social-app' });
    expect(answer.status).toBe(200);
    expect((await finishSignIn(start.browser, server.url, start.rp, start.auth, answer.body.redirectTo)).claims()).toMatchObject({ sub: userId, email: 'jack@example.com' });
    expect(await identitiesOf(server, userId)).toEqual([{ provider: 'facebook', subject: '7001', email: 'jack@example.com' }]);
    expect(await link({ ...body, code })).toMatchObject({ status: 400, body: { error: { code: 1026, field: 'link_token' } } });

    const next = await begin(server);
    expect(await login(loginBody('facebook', next.challenge, 'fb-jack'))).toEqual({ status: 200, body: { redirectTo: expect.any(String) } });
  });

  it('a code works only for the link token it was sent for, and a token only for its own challenge and client', async () => {
    await createAccount(server.ctx, { email: 'kim@example.com' });
    const first = await linkRequired('google', 'g-kim', 'kim@example.com', 'g-sub-kim');
    expect((await sendCode({ challenge: first.challenge, link_token: first.linkToken })).status).toBe(200);
    const code = await lastCode(server.ctx, 'kim@example.com');
    const second = await linkRequired('google', 'g-kim', 'kim@example.com', 'g-sub-kim');
    expect(await link({ challenge: second.challenge, link_token: second.linkToken, code })).toMatchObject({ status: 400, body: { error: { code: 1026, field: 'code' } } });
    expect(await link({ challenge: second.challenge, link_token: first.linkToken, code })).toMatchObject({ status: 400, body: { error: { code: 1026, field: 'link_token' } } });
    expect(await link({ challenge: first.challenge, link_token: first.linkToken, code, client_id: 'social-login-only' })).toMatchObject({ status: 400, body: { error: { code: 1026 } } });
    expect(await sendCode({ challenge: first.challenge, link_token: 'no-such-token' })).toMatchObject({ status: 400, body: { error: { code: 1026, field: 'link_token' } } });
    // An expired token.
    await server.ctx.db.updateTable('social_link_tokens').set({ expires_at: Date.now() - 1 }).execute();
    expect(await link({ challenge: first.challenge, link_token: first.linkToken, code })).toMatchObject({ status: 400, body: { error: { code: 1026, field: 'link_token' } } });
  });

  it('an expired password does not link (1103, as at the login screen); the code still does', async () => {
    const userId = await createAccount(server.ctx, { email: 'old-pw@example.com' });
    await server.ctx.db.updateTable('users').set({ password_changed_at: Date.now() - 100 * 86_400_000 }).where('id', '=', userId).execute();
    await server.ctx.tenants.update('demo', { password_max_age_days: 90 });
    try {
      const start = await linkRequired('google', 'g-old-pw', 'old-pw@example.com', 'g-sub-old-pw');
      expect(await link({ challenge: start.challenge, link_token: start.linkToken, password: 'Passw0rd!' })).toMatchObject({ status: 403, body: { error: { code: 1103 } } });
      expect(await identitiesOf(server, userId)).toEqual([]);
      expect((await server.ctx.provider.Interaction.find(start.challenge))?.result).toBeUndefined();

      await endCooldown(server.ctx, 'demo', 'social_link', 'old-pw@example.com');
      expect((await sendCode({ challenge: start.challenge, link_token: start.linkToken })).status).toBe(200);
      const linked = await link({ challenge: start.challenge, link_token: start.linkToken, code: await lastCode(server.ctx, 'old-pw@example.com') });
      expect(linked).toEqual({ status: 200, body: { redirectTo: expect.any(String) } });
      expect(await identitiesOf(server, userId)).toEqual([{ provider: 'google', subject: 'g-sub-old-pw', email: 'old-pw@example.com' }]);
    } finally {
      await server.ctx.tenants.update('demo', { password_max_age_days: null });
    }
  });

  it('wrong passwords count toward the account\'s lockout (1302)', async () => {
    const userId = await createAccount(server.ctx, { email: 'lee@example.com' });
    const start = await linkRequired('google', 'g-lee', 'lee@example.com', 'g-sub-lee');
    for (let i = 0; i < 5; i++) {
      expect(await link({ challenge: start.challenge, link_token: start.linkToken, password: `Wrong-${i}` })).toMatchObject({ status: 401, body: { error: { code: 1017 } } });
    }
    // The link token is dead after 5 wrong passwords; a new one meets the locked account.
    expect(await link({ challenge: start.challenge, link_token: start.linkToken, password: 'Passw0rd!' })).toMatchObject({ status: 400, body: { error: { code: 1026, field: 'link_token' } } });
    const again = await linkRequired('google', 'g-lee', 'lee@example.com', 'g-sub-lee');
    expect(await link({ challenge: again.challenge, link_token: again.linkToken, password: 'Passw0rd!' })).toMatchObject({ status: 403, body: { error: { code: 1302 } } });
    // The code does not get around the lock.
    await endCooldown(server.ctx, 'demo', 'social_link', 'lee@example.com');
    expect((await sendCode({ challenge: again.challenge, link_token: again.linkToken })).status).toBe(200);
    expect(await link({ challenge: again.challenge, link_token: again.linkToken, code: await lastCode(server.ctx, 'lee@example.com') })).toMatchObject({ status: 403, body: { error: { code: 1302 } } });
    expect(await identitiesOf(server, userId)).toEqual([]);
    expect(await auditTypes(server.ctx, userId)).toContain('login.locked');
  });

  it('a pending account is offered the code only, which links and activates it; a disabled one answers 1012', async () => {
    const pendingId = await createAccount(server.ctx, { email: 'mai@example.com', status: 'pending' });
    const start = await linkRequired('facebook', 'fb-mai', 'mai@example.com', '7002');
    expect(start.body).toMatchObject({ linkRequired: true, methods: ['code'] });
    expect(await link({ challenge: start.challenge, link_token: start.linkToken, password: 'Passw0rd!' })).toMatchObject({ status: 401, body: { error: { code: 1017 } } });
    expect((await sendCode({ challenge: start.challenge, link_token: start.linkToken })).status).toBe(200);
    const answer = await link({ challenge: start.challenge, link_token: start.linkToken, code: await lastCode(server.ctx, 'mai@example.com') });
    expect(answer.status).toBe(200);
    expect(await userById(server.ctx, pendingId)).toMatchObject({ status: 'active', email_verified: 1 });
    expect(await auditTypes(server.ctx, pendingId)).toEqual(expect.arrayContaining(['user.activated', 'social.linked', 'social.login']));

    await createAccount(server.ctx, { email: 'ned@example.com', status: 'disabled' });
    fake.google.set('g-ned', { appId: GOOGLE_APP, sub: 'g-sub-ned', email: 'ned@example.com', emailVerified: true });
    const disabled = await begin(server);
    expect(await login(loginBody('google', disabled.challenge, 'g-ned'))).toMatchObject({ status: 403, body: { error: { code: 1012 } } });
  });
});
