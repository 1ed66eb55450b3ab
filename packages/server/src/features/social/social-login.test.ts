import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishSignIn, oidc, relyingParty, authorizationRequest } from '../../../test/relying-party.ts';
import { call, createAccount } from '../../../test/account.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { auditTypes, createClient, createTenant, lastCode } from '../../../test/visitor.ts';
import type { TestServer } from '../../../test/test-server.ts';
import type { FakeSocialProviders } from '../../../test/fake-social-providers.ts';
import { verifyFacebookToken } from './facebook.ts';
import { verifyGoogleToken } from './google.ts';
import { FACEBOOK_APP, FACEBOOK_SECRET, GOOGLE_APP, begin, expectNotSignedIn, identitiesOf, loginBody, socialLogin, startSocialTestbed, usersWithEmail, type SocialTestbed } from './social-test-setup.ts';

/** POST /api/v1/social/login over real HTTP, against the local fake of Google's and Facebook's APIs. */
describe('sign-in with Google and Facebook', () => {
  let testbed: SocialTestbed;
  let server: TestServer;
  let fake: FakeSocialProviders;
  const login = (body: Record<string, unknown>) => socialLogin(server, body);

  beforeAll(async () => {
    testbed = await startSocialTestbed({}, { captureLogs: true });
    ({ server, fake } = testbed);
  });
  afterAll(() => testbed?.close());

  it('Google: a first sign-in creates the account, the relying party gets its claims, the next sign-in reuses it', async () => {
    fake.google.set('g-ann', { appId: GOOGLE_APP, sub: 'google-sub-ann', email: 'Ann.Google@Example.com', emailVerified: true, name: 'Ann Nguyễn', picture: 'https://lh3.example/ann.png' });
    const first = await begin(server);
    const answer = await login(loginBody('google', first.challenge, 'g-ann'));
    expect(answer).toEqual({ status: 200, body: { redirectTo: expect.any(String) } });
    const tokens = await finishSignIn(first.browser, server.url, first.rp, first.auth, answer.body.redirectTo);
    const [user] = await usersWithEmail(server, 'ann.google@example.com');
    expect(user).toMatchObject({ registration_method: 'google', password_hash: null, email_verified: 1, name: 'Ann Nguyễn', status: 'active' });
    expect(tokens.claims()).toMatchObject({ sub: user!.id, email: 'ann.google@example.com', email_verified: true, name: 'Ann Nguyễn' });
    expect(await identitiesOf(server, user!.id)).toEqual([{ provider: 'google', subject: 'google-sub-ann', email: 'ann.google@example.com' }]);
    // The token went to tokeninfo in the query and to userinfo as a bearer token.
    const userinfo = fake.requests.filter((r) => r.path === '/oauth2/v3/userinfo').at(-1);
    expect(userinfo?.headers.authorization).toBe('Bearer g-ann');

    const second = await begin(server);
    const again = await login(loginBody('google', second.challenge, 'g-ann', { client_id: 'social-app' }));
    expect(again.status).toBe(200);
    const tokens2 = await finishSignIn(second.browser, server.url, second.rp, second.auth, again.body.redirectTo);
    expect(tokens2.claims()?.sub).toBe(user!.id);
    expect(await usersWithEmail(server, 'ann.google@example.com')).toHaveLength(1);
    // The second sign-in came from another browser: its owner hears of it.
    expect(await auditTypes(server.ctx, user!.id)).toEqual(['social.registered', 'social.login', 'social.login', 'signin.new_browser']);
  });

  it('Facebook: the token is checked with the app credentials and appsecret_proof; the account is created once', async () => {
    fake.facebook.set('fb-bob', { appId: FACEBOOK_APP, userId: '4455667788', email: 'bob.fb@example.com', name: 'Bob Trần', picture: 'https://fb.example/bob.jpg' });
    const first = await begin(server);
    const answer = await login(loginBody('facebook', first.challenge, 'fb-bob'));
    expect(answer.status).toBe(200);
    const tokens = await finishSignIn(first.browser, server.url, first.rp, first.auth, answer.body.redirectTo);
    const [user] = await usersWithEmail(server, 'bob.fb@example.com');
    expect(user).toMatchObject({ registration_method: 'facebook', password_hash: null, email_verified: 1, name: 'Bob Trần' });
    expect(tokens.claims()).toMatchObject({ sub: user!.id, email: 'bob.fb@example.com', name: 'Bob Trần' });
    const debug = fake.requests.filter((r) => r.path === '/v19.0/debug_token').at(-1);
    expect(debug?.query.get('access_token')).toBe(`${FACEBOOK_APP}|${FACEBOOK_SECRET}`);
    expect(fake.requests.filter((r) => r.path === '/v19.0/me').at(-1)?.query.get('appsecret_proof')).toMatch(/^[0-9a-f]{64}$/);

    const second = await begin(server);
    expect((await login(loginBody('facebook', second.challenge, 'fb-bob'))).status).toBe(200);
    expect(await usersWithEmail(server, 'bob.fb@example.com')).toHaveLength(1);
    expect(await identitiesOf(server, user!.id)).toEqual([{ provider: 'facebook', subject: '4455667788', email: 'bob.fb@example.com' }]);
  });

  it('answers 1063 for a token issued to another app, an expired token and an unknown one, and creates nothing', async () => {
    fake.google.set('g-other-app', { appId: 'someone-else.apps.googleusercontent.com', sub: 'g-other', email: 'other@example.com' });
    fake.google.set('g-expired', { appId: GOOGLE_APP, sub: 'g-exp', email: 'expired@example.com', expiresIn: -30 });
    fake.google.set('g-no-time-left', { appId: GOOGLE_APP, sub: 'g-exp', email: 'expired@example.com', expiresIn: 0 });
    fake.facebook.set('fb-other-app', { appId: '999', userId: '111', email: 'other@example.com' });
    fake.facebook.set('fb-expired', { appId: FACEBOOK_APP, userId: '222', email: 'expired@example.com', expiresAt: Math.floor(Date.now() / 1000) - 60 });
    const { challenge } = await begin(server);
    const rejected = { status: 401, body: { error: { code: 1063, field: 'access_token', message: 'access_token is not valid' } } };
    for (const token of ['g-other-app', 'g-expired', 'g-no-time-left', 'g-unknown']) expect(await login(loginBody('google', challenge, token))).toEqual(rejected);
    for (const token of ['fb-other-app', 'fb-expired', 'fb-unknown']) expect(await login(loginBody('facebook', challenge, token))).toEqual(rejected);
    expect(await usersWithEmail(server, 'other@example.com')).toEqual([]);
    expect(await usersWithEmail(server, 'expired@example.com')).toEqual([]);
    const failures = await server.ctx.db.selectFrom('audit_events').select('details').where('type', '=', 'social.login_failed').execute();
    expect(failures.filter((f) => f.details?.includes('invalid_token')).length).toBeGreaterThanOrEqual(7);
  });

  it('answers 1064 (Google) and 1065 (Facebook) when the provider gives no id', async () => {
    fake.google.set('g-no-id', { appId: GOOGLE_APP, sub: null, email: 'noid@example.com' });
    fake.facebook.set('fb-no-id', { appId: FACEBOOK_APP, userId: null, email: 'noid@example.com' });
    const { challenge } = await begin(server);
    expect(await login(loginBody('google', challenge, 'g-no-id'))).toMatchObject({ status: 401, body: { error: { code: 1064, message: 'Missing id from Google' } } });
    expect(await login(loginBody('facebook', challenge, 'fb-no-id'))).toMatchObject({ status: 401, body: { error: { code: 1065, message: 'Missing id from Facebook' } } });
    expect(await usersWithEmail(server, 'noid@example.com')).toEqual([]);
  });

  it('answers 503/1293 when the provider is down, and never logs the token', async () => {
    fake.google.set('g-secret-token-value', { appId: GOOGLE_APP, sub: 'g-down', email: 'down@example.com' });
    fake.facebook.set('fb-secret-token-value', { appId: FACEBOOK_APP, userId: '333', email: 'down@example.com' });
    const logged = server.logs.length;
    const { challenge } = await begin(server);
    fake.mode = 'down';
    try {
      const unavailable = { status: 503, body: { error: { code: 1293, message: 'The sign-in provider cannot be reached, try again' } } };
      expect(await login(loginBody('google', challenge, 'g-secret-token-value'))).toEqual(unavailable);
      expect(await login(loginBody('facebook', challenge, 'fb-secret-token-value'))).toEqual(unavailable);
    } finally {
      fake.mode = 'up';
    }
    const lines = server.logs.slice(logged);
    expect(lines.join('')).toContain('the sign-in provider failed');
    expect(lines.join('')).not.toMatch(/secret-token-value|facebook-app-secret/);
    // Up again: the same token works.
    expect((await login(loginBody('google', challenge, 'g-secret-token-value'))).status).toBe(200);
  });

  it('gives up on a provider that does not answer within 5 s (503/1293)', async () => {
    fake.google.set('g-slow', { appId: GOOGLE_APP, sub: 'g-slow', email: 'slow@example.com' });
    const { challenge } = await begin(server);
    fake.mode = 'hang';
    const started = Date.now();
    try {
      expect(await login(loginBody('google', challenge, 'g-slow'))).toMatchObject({ status: 503, body: { error: { code: 1293 } } });
    } finally {
      fake.mode = 'up';
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_900);
  }, 15_000);

  it('answers 503/1293 for a client with a Facebook app id but no app secret (the operator must set it)', async () => {
    fake.facebook.set('fb-carol', { appId: FACEBOOK_APP, userId: '444', email: 'carol@example.com' });
    const { challenge } = await begin(server, 'fb-no-secret');
    const before = fake.requests.length;
    expect(await login(loginBody('facebook', challenge, 'fb-carol'))).toMatchObject({ status: 503, body: { error: { code: 1293 } } });
    expect(fake.requests.length).toBe(before);
  });

  it('answers 1301 without the login capability, 1002 for an app id that is not the client\'s, 1010 without the register capability', async () => {
    fake.google.set('g-dan', { appId: GOOGLE_APP, sub: 'g-dan', email: 'dan@example.com' });
    const noSocial = await begin(server, 'no-social');
    expect(await login(loginBody('google', noSocial.challenge, 'g-dan'))).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
    expect(await login(loginBody('facebook', noSocial.challenge, 'g-dan'))).toMatchObject({ status: 403, body: { error: { code: 1301 } } });

    const social = await begin(server);
    expect(await login(loginBody('google', social.challenge, 'g-dan', { app_id: 'not-my-app' }))).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'app_id' } } });
    expect(await login(loginBody('facebook', social.challenge, 'g-dan', { app_id: GOOGLE_APP }))).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'app_id' } } });
    // demo-app has every capability but no app ids.
    const demo = await begin(server, 'demo-app');
    expect(await login(loginBody('google', demo.challenge, 'g-dan'))).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'app_id' } } });
    expect(await login(loginBody('google', social.challenge, 'g-dan', { client_id: 'social-login-only' }))).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'client_id' } } });

    const loginOnly = await begin(server, 'social-login-only');
    expect(await login(loginBody('google', loginOnly.challenge, 'g-dan'))).toMatchObject({ status: 404, body: { error: { code: 1010 } } });
    expect(await usersWithEmail(server, 'dan@example.com')).toEqual([]);
    // An identity that already has an account signs in there.
    expect((await login(loginBody('google', social.challenge, 'g-dan'))).status).toBe(200);
    expect((await login(loginBody('google', loginOnly.challenge, 'g-dan'))).status).toBe(200);
  });

  it('answers 1010 for a new identity when the tenant does not allow registration; existing identities and linking still work', async () => {
    await createTenant(server.ctx, { id: 'closing' });
    await createClient(server.ctx, server.url, { id: 'closing-app', tenantId: 'closing', permissions: ['social:google:login', 'social:google:register'], googleAppId: GOOGLE_APP });
    fake.google.set('g-ken', { appId: GOOGLE_APP, sub: 'g-ken', email: 'ken@example.com' });
    fake.google.set('g-lan', { appId: GOOGLE_APP, sub: 'g-lan', email: 'lan@example.com' });
    fake.google.set('g-mai', { appId: GOOGLE_APP, sub: 'g-mai', email: 'mai@example.com', emailVerified: true });
    const open = await begin(server, 'closing-app');
    expect((await login(loginBody('google', open.challenge, 'g-ken'))).status).toBe(200);
    const [ken] = await usersWithEmail(server, 'ken@example.com');
    const maiId = await createAccount(server.ctx, { tenantId: 'closing', email: 'mai@example.com' });

    await server.ctx.tenants.update('closing', { registration_allowed: 0 });
    const closed = await begin(server, 'closing-app');
    expect(await login(loginBody('google', closed.challenge, 'g-lan'))).toEqual({ status: 404, body: { error: { code: 1010, message: expect.any(String) } } });
    expect(await usersWithEmail(server, 'lan@example.com')).toEqual([]);
    expect(await server.ctx.db.selectFrom('user_identities').select('subject').where('subject', '=', 'g-lan').execute()).toEqual([]);
    const failures = await server.ctx.db.selectFrom('audit_events').select('details').where('type', '=', 'social.login_failed').where('tenant_id', '=', 'closing').execute();
    expect(failures.map((f) => JSON.parse(f.details ?? '{}'))).toEqual([{ provider: 'google', reason: 'no_account' }]);

    // The account that already holds the identity still signs in; a verified e-mail of an account still asks for proof.
    const again = await login(loginBody('google', closed.challenge, 'g-ken'));
    expect(again.status).toBe(200);
    expect((await finishSignIn(closed.browser, server.url, closed.rp, closed.auth, again.body.redirectTo)).claims()?.sub).toBe(ken!.id);
    const linking = await begin(server, 'closing-app');
    expect(await login(loginBody('google', linking.challenge, 'g-mai'))).toMatchObject({ status: 200, body: { linkRequired: true, email: 'm***@example.com' } });
    expect(await identitiesOf(server, maiId)).toEqual([]);
  });

  it('never links nor takes an unverified e-mail address', async () => {
    const holderId = await createAccount(server.ctx, { email: 'erin@example.com' });
    fake.google.set('g-erin-unverified', { appId: GOOGLE_APP, sub: 'g-erin', email: 'erin@example.com', emailVerified: false, name: 'Not Erin' });
    const { challenge } = await begin(server);
    const answer = await login(loginBody('google', challenge, 'g-erin-unverified'));
    expect(answer).toEqual({ status: 200, body: { redirectTo: expect.any(String) } });
    const identity = await server.ctx.db.selectFrom('user_identities').selectAll().where('subject', '=', 'g-erin').executeTakeFirstOrThrow();
    expect(identity.user_id).not.toBe(holderId);
    expect(await server.ctx.users.findById(identity.user_id)).toMatchObject({ email: null, email_verified: 0, name: 'Not Erin', registration_method: 'google' });
    expect(await identitiesOf(server, holderId)).toEqual([]);

    // A free unverified address is not kept either: nobody holds it.
    fake.google.set('g-frank-unverified', { appId: GOOGLE_APP, sub: 'g-frank', email: 'frank@example.com', emailVerified: false });
    expect((await login(loginBody('google', challenge, 'g-frank-unverified'))).status).toBe(200);
    expect(await usersWithEmail(server, 'frank@example.com')).toEqual([]);
  });

  it('an unverified address cannot squat: the owner still registers with it, and the owner\'s verified sign-in gets an account of its own', async () => {
    fake.google.set('g-squatter', { appId: GOOGLE_APP, sub: 'g-squatter', email: 'victim-squat@example.com', emailVerified: false, name: 'Squatter' });
    expect((await login(loginBody('google', (await begin(server)).challenge, 'g-squatter'))).status).toBe(200);
    const squatter = await server.ctx.db.selectFrom('user_identities').select('user_id').where('subject', '=', 'g-squatter').executeTakeFirstOrThrow();

    // The owner registers with a password: the address is free (pending until its code comes).
    const registered = await new TestBrowser().postJson(`${server.url}/api/v1/users/register`, { username: 'victim-squat@example.com', password: 'Lantern-42', name: 'Victim', client_id: 'demo-app' });
    expect(registered.status).toBe(200);

    // The owner's verified Google identity is offered the owner's own (pending) account, never the squatter's.
    fake.google.set('g-victim', { appId: GOOGLE_APP, sub: 'g-victim', email: 'victim-squat@example.com', emailVerified: true, name: 'Victim' });
    const answer = await login(loginBody('google', (await begin(server)).challenge, 'g-victim'));
    expect(answer.body).toMatchObject({ linkRequired: true });
    const [holder] = await usersWithEmail(server, 'victim-squat@example.com');
    expect(holder!.id).not.toBe(squatter.user_id);
    expect(await identitiesOf(server, squatter.user_id)).toEqual([{ provider: 'google', subject: 'g-squatter', email: 'victim-squat@example.com' }]);
  });

  it('takes an address back from an account that held it unverified (kept before this rule), and signs the verified owner into an account of its own', async () => {
    fake.google.set('g-old-squatter', { appId: GOOGLE_APP, sub: 'g-old-squatter', email: 'old-squat@example.com', emailVerified: false });
    expect((await login(loginBody('google', (await begin(server)).challenge, 'g-old-squatter'))).status).toBe(200);
    const squatter = await server.ctx.db.selectFrom('user_identities').select('user_id').where('subject', '=', 'g-old-squatter').executeTakeFirstOrThrow();
    // As an older version stored it: the unverified address on the account.
    await server.ctx.db.updateTable('users').set({ email: 'old-squat@example.com', email_verified: 0 }).where('id', '=', squatter.user_id).execute();

    fake.google.set('g-old-victim', { appId: GOOGLE_APP, sub: 'g-old-victim', email: 'old-squat@example.com', emailVerified: true });
    const answer = await login(loginBody('google', (await begin(server)).challenge, 'g-old-victim'));
    expect(answer).toEqual({ status: 200, body: { redirectTo: expect.any(String) } });
    const owner = await server.ctx.db.selectFrom('user_identities').select('user_id').where('subject', '=', 'g-old-victim').executeTakeFirstOrThrow();
    expect(owner.user_id).not.toBe(squatter.user_id);
    expect(await usersWithEmail(server, 'old-squat@example.com')).toMatchObject([{ id: owner.user_id, email_verified: 1 }]);
    expect(await server.ctx.users.findById(squatter.user_id)).toMatchObject({ email: null, email_verified: 0 });
    expect(await auditTypes(server.ctx, squatter.user_id)).toContain('user.email_released');
  });

  it('refuses a disabled account (1012) and a locked one (1302)', async () => {
    fake.facebook.set('fb-gina', { appId: FACEBOOK_APP, userId: '555', email: 'gina@example.com' });
    const { challenge } = await begin(server);
    expect((await login(loginBody('facebook', challenge, 'fb-gina'))).status).toBe(200);
    const [gina] = await usersWithEmail(server, 'gina@example.com');
    await server.ctx.users.update(gina!.id, { locked_until: Date.now() + 60_000 });
    expect(await login(loginBody('facebook', challenge, 'fb-gina'))).toMatchObject({ status: 403, body: { error: { code: 1302 } } });
    await server.ctx.users.update(gina!.id, { locked_until: null, status: 'disabled' });
    expect(await login(loginBody('facebook', challenge, 'fb-gina'))).toMatchObject({ status: 403, body: { error: { code: 1012 } } });
  });

  it('a social account sees 2-step verification as not supported', async () => {
    fake.google.set('g-hana', { appId: GOOGLE_APP, sub: 'g-hana', email: 'hana@example.com', name: 'Hana' });
    const start = await begin(server);
    const answer = await login(loginBody('google', start.challenge, 'g-hana'));
    await finishSignIn(start.browser, server.url, start.rp, start.auth, answer.body.redirectTo);
    // The account area, in the same browser: the provider session signs it in without a new sign-in.
    const account = await relyingParty(server.url, 'account');
    const auth = await authorizationRequest(account);
    const { url } = await start.browser.follow(auth.url, server.url);
    expect(url.startsWith(account.redirectUri)).toBe(true);
    const tokens = await oidc.authorizationCodeGrant(account.config, new URL(url), { pkceCodeVerifier: auth.verifier, expectedState: auth.state, expectedNonce: auth.nonce });
    const token = tokens.access_token;
    expect(await call(server.url, 'GET', '/api/v1/me', { token })).toMatchObject({ status: 200, body: { registrationMethod: 'google', email: 'hana@example.com', enableMfa: false } });
    for (const path of ['config', 'associate']) {
      expect(await call(server.url, 'POST', `/api/v1/me/mfa/${path}`, { token, body: { password: 'anything', authenticator_type: 'totp' } })).toMatchObject({
        status: 403,
        body: { error: { code: 1301, message: 'Registration does not support 2-Step Verification' } },
      });
    }

    // Deleting the account takes its identity along: the next Google sign-in starts a new account.
    const [hana] = await usersWithEmail(server, 'hana@example.com');
    // Without a password, the deletion is proved by a code sent to the address Google vouched for.
    expect((await call(server.url, 'POST', '/api/v1/me/deletion/code', { token })).status).toBe(200);
    const code = await lastCode(server.ctx, 'hana@example.com');
    expect((await call(server.url, 'DELETE', '/api/v1/me', { token, body: { code, confirmation: 'hana@example.com' } })).status).toBe(204);
    expect(await identitiesOf(server, hana!.id)).toEqual([]);
    const again = await begin(server);
    expect((await login(loginBody('google', again.challenge, 'g-hana'))).status).toBe(200);
    const [reborn] = await usersWithEmail(server, 'hana@example.com');
    expect(reborn!.id).not.toBe(hana!.id);
  });

  it('refuses bad input with the field', async () => {
    const { challenge } = await begin(server);
    expect(await login({ authorizer: 'apple', app_id: 'x', challenge, access_token: 't' })).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'authorizer' } } });
    expect(await login({ authorizer: 'google', app_id: GOOGLE_APP, challenge })).toMatchObject({ status: 400, body: { error: { code: 1001, field: 'access_token' } } });
    expect(await login({ authorizer: 'google', challenge, access_token: 't' })).toMatchObject({ status: 400, body: { error: { code: 1001, field: 'app_id' } } });
    expect(await login(loginBody('google', 'no-such-challenge', 't'))).toMatchObject({ status: 400, body: { error: { code: 1026, field: 'challenge' } } });
  });

  /** A lone surrogate in the token made encodeURIComponent throw in verifyGoogleToken: a 500 for anyone holding a challenge. */
  it('refuses a token that is not well-formed Unicode (400, 1002) before any provider is asked, and signs nobody in', async () => {
    const { challenge, browser } = await begin(server);
    const asked = fake.requests.length;
    const logged = server.logs.length;
    for (const authorizer of ['google', 'facebook'] as const) {
      // As an attacker writes it: the surrogate as a JSON escape.
      const body = `{"authorizer":"${authorizer}","app_id":"${authorizer === 'google' ? GOOGLE_APP : FACEBOOK_APP}","challenge":"${challenge}","access_token":"ya29.\\ud800"}`;
      const answer = await browser.fetch(`${server.url}/api/v1/social/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(answer.status, authorizer).toBe(400);
      expect(await answer.json()).toMatchObject({ error: { code: 1002, field: 'access_token' } });
    }
    expect(fake.requests.length).toBe(asked);
    await expectNotSignedIn(server, challenge);
    expect(server.logs.slice(logged).filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
  });

  it('checks no token that is not printable ASCII with the provider, whoever calls the check: 1063', async () => {
    const deps = { baseUrl: fake.url, log: { warn: () => undefined } };
    const asked = fake.requests.length;
    for (const token of ['ya29.\ud800', 'ya29.\udc00x', 'ya29.€', 'ya29.\r\nx', '']) {
      await expect(verifyGoogleToken(deps, GOOGLE_APP, token), JSON.stringify(token)).rejects.toMatchObject({ code: 1063, status: 401, field: 'access_token' });
      await expect(verifyFacebookToken({ ...deps, baseUrl: `${fake.url}/v19.0` }, { appId: FACEBOOK_APP, appSecret: FACEBOOK_SECRET }, token)).rejects.toMatchObject({ code: 1063 });
    }
    expect(fake.requests.length).toBe(asked);
  });
});
