import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { authorizationRequest, finishSignIn, relyingParty, startSignIn } from '../../../test/relying-party.ts';
import { accountSignIn, createAccount } from '../../../test/account.ts';
import { auditTypes, createClient, createTenant, endCooldown, postJson } from '../../../test/visitor.ts';
import { SoftwareAuthenticator } from '../../../test/software-authenticator.ts';
import { writeTinyMmdb } from '../../../test/mmdb.ts';
import { accountWithDevice, activateDevice, registerDevice } from '../../../test/webauthn.ts';
import { createDeviceLoginService } from './device-login.service.ts';

/** Sign in with a device over real HTTP, through a real relying party: this device, another device, and what is refused. */
describe('sign in with a device', () => {
  let server: TestServer;
  const getChallenge = (body: Record<string, unknown>) => postJson(server.url, '/api/v2/get-challenge', { challenge_type: 'AUTHN_WEBAUTHN', ...body });
  const resolve = (body: Record<string, unknown>) => postJson(server.url, '/api/v2/resolve-challenge', { challenge_type: 'AUTHN_WEBAUTHN', ...body });
  const poll = (body: Record<string, unknown>) => postJson(server.url, '/api/v2/device-login/poll', body);

  const dir = mkdtempSync(join(tmpdir(), 'passgate-device-login-'));

  /** A sign-in started by the demo-app relying party in a browser of its own (sending `userAgent`, when given). */
  async function begin(clientId = 'demo-app', userAgent?: string) {
    const browser = new TestBrowser(userAgent);
    const rp = await relyingParty(server.url, clientId, clientId === 'demo-app' ? 'demo-secret' : undefined);
    const auth = await authorizationRequest(rp);
    const challenge = await startSignIn(browser, server.url, auth);
    return { rp, auth, browser, challenge };
  }

  /** A sign-in and its device sign-in request for `username`. */
  async function request(username: string, userAgent?: string) {
    const flow = await begin('demo-app', userAgent);
    const answer = await getChallenge({ client_id: 'demo-app', oauth_challenge: flow.challenge, username });
    expect(answer.status).toBe(200);
    const { challenge, challengeRequest } = answer.body;
    const options = challengeRequest.publickeyCredentialRequestOptions;
    const pollBody = { challenge: challengeRequest.getRedirectUrlChallenge, redirect_url_key: challengeRequest.redirectUrlKey, oauth_challenge: flow.challenge };
    return { ...flow, answer: answer.body, challenge, options, pollBody };
  }

  beforeAll(async () => {
    // Every request of these tests comes from 127.0.0.1, which this little database places in Hanoi.
    const geoip = join(dir, 'city.mmdb');
    writeTinyMmdb(geoip, '127.0.0.0', 8, { city: { names: { en: 'Hanoi' } }, country: { iso_code: 'VN', names: { en: 'Vietnam' } } });
    server = await startTestServer({ env: { CODE_SENDS_PER_IP_PER_HOUR: '1000', LOGIN_RATE_LIMIT_PER_IP: '1000', GEOIP_DB: geoip } });
    await createTenant(server.ctx, { id: 'no-devices', webauthnAllowed: false });
    await createClient(server.ctx, server.url, { id: 'no-devices-app', tenantId: 'no-devices' });
    await createClient(server.ctx, server.url, { id: 'password-only', tenantId: 'demo', permissions: ['users:email:login'] });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('signs in on this device: request, assertion, poll, and the relying party gets tokens for the user', async () => {
    const { userId, authenticator, webauthnCredentialId } = await accountWithDevice(server.ctx, server.url, 'login-1@example.com');
    const r = await request('LOGIN-1@example.com');
    expect(r.answer).toMatchObject({ challenge: expect.any(String), expiresIn: 300, qrCode: expect.stringMatching(/^data:image\/png;base64,/) });
    expect(r.answer.verifyUrl).toBe(`${server.url}/login/webauthn/verify-device?challenge=${r.pollBody.oauth_challenge}&authnChallenge=${r.challenge}`);
    expect(r.pollBody.challenge).toBe(r.challenge);
    expect(r.options).toMatchObject({ rpId: '127.0.0.1', userVerification: 'required', allowCredentials: [{ id: authenticator.id, type: 'public-key' }] });

    // Not approved yet: pending (409, 1200). Bound to its sign-in: another challenge is refused.
    expect(await poll(r.pollBody)).toMatchObject({ status: 409, body: { error: { code: 1200 } } });
    expect(await resolve({ challenge: r.challenge, oauth_challenge: r.challenge, publickey_credential: authenticator.assert(r.options) })).toMatchObject({ status: 400, body: { error: { code: 1026 } } });

    const assertion = authenticator.assert(r.options, {}, userId);
    expect(await resolve({ challenge: r.challenge, oauth_challenge: r.pollBody.oauth_challenge, publickey_credential: assertion })).toEqual({ status: 200, body: { approved: true } });
    // Single use: the same request cannot be approved twice.
    expect(await resolve({ challenge: r.challenge, oauth_challenge: r.pollBody.oauth_challenge, publickey_credential: authenticator.assert(r.options) })).toMatchObject({ status: 400, body: { error: { code: 1026 } } });

    // Only the holder of the redirect URL key finishes the sign-in.
    expect(await poll({ ...r.pollBody, redirect_url_key: 'not-the-key' })).toMatchObject({ status: 400, body: { error: { code: 1026 } } });
    const done = await poll(r.pollBody);
    expect(done).toMatchObject({ status: 200, body: { code: 'approved', redirectTo: expect.any(String) } });
    expect(await poll(r.pollBody)).toMatchObject({ status: 400, body: { error: { code: 1026 } } });

    const tokens = await finishSignIn(r.browser, server.url, r.rp, r.auth, done.body.redirectTo);
    expect(tokens.claims()).toMatchObject({ sub: userId, email: 'login-1@example.com' });

    const row = await server.ctx.db.selectFrom('webauthn_credentials').selectAll().where('id', '=', webauthnCredentialId).executeTakeFirstOrThrow();
    expect(row.counter).toBe(authenticator.counter - 1);
    expect(row.last_used_at).toEqual(expect.any(Number));
    expect(await auditTypes(server.ctx, userId)).toEqual(expect.arrayContaining(['webauthn.login']));
  });

  it('signs in through another device: the second browser asserts, the first polls and finishes', async () => {
    const { userId, authenticator } = await accountWithDevice(server.ctx, server.url, 'login-2@example.com');
    const r = await request('login-2@example.com');

    // The second device reads the QR link's request, with no cookie of the first.
    const second = new TestBrowser();
    const link = new URL(r.answer.verifyUrl);
    const info = await second.fetch(`${server.url}/api/v2/device-login/${link.searchParams.get('authnChallenge')}?oauth_challenge=${link.searchParams.get('challenge')}`);
    expect(info.status).toBe(200);
    const body = (await info.json()) as { clientName: string; username: string; expiresIn: number; publickeyCredentialRequestOptions: { challenge: string } };
    expect(body).toMatchObject({ clientName: 'Demo App', username: 'l***@example.com', publickeyCredentialRequestOptions: { challenge: r.options.challenge } });
    expect(body.expiresIn).toBeGreaterThan(290);
    expect((await second.fetch(`${server.url}/api/v2/device-login/${r.challenge}?oauth_challenge=someone-elses-challenge`)).status).toBe(400);

    const approved = await second.postJson(`${server.url}/api/v2/resolve-challenge`, {
      challenge_type: 'AUTHN_WEBAUTHN',
      challenge: link.searchParams.get('authnChallenge'),
      oauth_challenge: link.searchParams.get('challenge'),
      publickey_credential: authenticator.assert(body.publickeyCredentialRequestOptions),
    });
    expect(approved.status).toBe(200);
    // Approved: the verify-device page cannot be read again.
    expect((await second.fetch(`${server.url}/api/v2/device-login/${r.challenge}?oauth_challenge=${r.pollBody.oauth_challenge}`)).status).toBe(400);

    const done = await poll(r.pollBody);
    expect(done.status).toBe(200);
    const tokens = await finishSignIn(r.browser, server.url, r.rp, r.auth, done.body.redirectTo);
    expect(tokens.claims()?.sub).toBe(userId);
  });

  it('refuses a replayed, tampered, foreign-origin or other-challenge assertion (1102), and nothing is approved', async () => {
    const { userId, authenticator } = await accountWithDevice(server.ctx, server.url, 'login-3@example.com');
    const first = await request('login-3@example.com');
    const used = authenticator.assert(first.options);
    expect(await resolve({ challenge: first.challenge, oauth_challenge: first.pollBody.oauth_challenge, publickey_credential: used })).toMatchObject({ status: 200 });

    const r = await request('login-3@example.com');
    const attempt = (publickey_credential: unknown) => resolve({ challenge: r.challenge, oauth_challenge: r.pollBody.oauth_challenge, publickey_credential });
    const refused = { status: 400, body: { error: { code: 1102, field: 'publickey_credential', message: 'Verify device failed' } } };
    expect(await attempt(used)).toMatchObject(refused);
    expect(await attempt(authenticator.assert(r.options, { counter: authenticator.counter }))).toMatchObject(refused);
    expect(await attempt(authenticator.assert(r.options, { tamperClientData: true }))).toMatchObject(refused);
    expect(await attempt(authenticator.assert(r.options, { tamperSignature: true }))).toMatchObject(refused);
    expect(await attempt(authenticator.assert(r.options, { origin: 'https://evil.example' }))).toMatchObject(refused);
    expect(await attempt(authenticator.assert(r.options, { rpId: 'evil.example' }))).toMatchObject(refused);
    expect(await attempt(authenticator.assert(r.options, { type: 'webauthn.create' }))).toMatchObject(refused);
    // Presence without the person verified (a key without PIN or biometrics) would skip 2-step: refused.
    expect(r.options).toMatchObject({ userVerification: 'required' });
    expect(await attempt(authenticator.assert(r.options, { userVerified: false }))).toMatchObject(refused);
    // Another user's authenticator, even a working one.
    const stranger = await accountWithDevice(server.ctx, server.url, 'login-3-other@example.com');
    expect(await attempt(stranger.authenticator.assert(r.options))).toMatchObject(refused);
    expect(await poll(r.pollBody)).toMatchObject({ status: 409, body: { error: { code: 1200 } } });

    // The genuine next assertion still works.
    expect(await attempt(authenticator.assert(r.options))).toMatchObject({ status: 200, body: { approved: true } });
    expect((await auditTypes(server.ctx, userId)).filter((t) => t === 'webauthn.login_failed').length).toBeGreaterThanOrEqual(8);
  });

  it('accepts an authenticator that does not count (counter 0) every time, and one request once even when resolved at the same moment', async () => {
    const userId = await createAccount(server.ctx, { email: 'login-0@example.com' });
    const { token } = await accountSignIn(server.url, 'login-0@example.com');
    const authenticator = new SoftwareAuthenticator(server.url, { counts: false });
    const device = await registerDevice(server.url, token, authenticator);
    await activateDevice(server.ctx, server.url, token, 'login-0@example.com', device);
    for (let i = 0; i < 2; i += 1) {
      const r = await request('login-0@example.com');
      const answers = await Promise.all([0, 1, 2].map(() => resolve({ challenge: r.challenge, oauth_challenge: r.pollBody.oauth_challenge, publickey_credential: authenticator.assert(r.options) })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400]);
      const done = await poll(r.pollBody);
      expect(done.status).toBe(200);
      expect((await finishSignIn(r.browser, server.url, r.rp, r.auth, done.body.redirectTo)).claims()?.sub).toBe(userId);
    }
    expect(authenticator.counter).toBe(0);
  });

  it('never lets an inactive device sign in', async () => {
    // Only an inactive device: 1027, as for an unknown account.
    const userId = await createAccount(server.ctx, { email: 'login-4@example.com' });
    const { token } = await accountSignIn(server.url, 'login-4@example.com');
    const inactive = new SoftwareAuthenticator(server.url);
    await registerDevice(server.url, token, inactive);
    const flow = await begin();
    const noActive = { status: 404, body: { error: { code: 1027, message: 'You do not have any active credentials' } } };
    expect(await getChallenge({ client_id: 'demo-app', oauth_challenge: flow.challenge, username: 'login-4@example.com' })).toMatchObject(noActive);
    expect(await getChallenge({ client_id: 'demo-app', oauth_challenge: flow.challenge, username: 'nobody@example.com' })).toMatchObject(noActive);

    // With an active device too, the inactive one is not offered and its assertion is refused.
    const active = await accountWithDevice(server.ctx, server.url, 'login-4b@example.com');
    const { token: tokenB } = await accountSignIn(server.url, 'login-4b@example.com');
    const inactiveB = new SoftwareAuthenticator(server.url);
    await endCooldown(server.ctx, 'demo', 'webauthn_activation', 'login-4b@example.com');
    await registerDevice(server.url, tokenB, inactiveB);
    const r = await request('login-4b@example.com');
    expect(r.options.allowCredentials.map((c: { id: string }) => c.id)).toEqual([active.authenticator.id]);
    expect(await resolve({ challenge: r.challenge, oauth_challenge: r.pollBody.oauth_challenge, publickey_credential: inactiveB.assert(r.options) })).toMatchObject({ status: 400, body: { error: { code: 1102 } } });
    expect(await auditTypes(server.ctx, userId)).not.toContain('webauthn.login');
  });

  it('refuses an expired request (300 s): no approval, no poll, no verify-device page', async () => {
    await accountWithDevice(server.ctx, server.url, 'login-5@example.com');
    const { authenticator } = await accountWithDevice(server.ctx, server.url, 'login-5b@example.com');
    const shortLived = createDeviceLoginService(server.ctx, { ttls: { deviceLoginMs: 100 } });
    const flow = await begin();
    const answer = await shortLived.start({ challengeType: 'AUTHN_WEBAUTHN', oauthChallenge: flow.challenge, username: 'login-5b@example.com' }, { ip: '10.1.1.1', userAgent: undefined, locale: 'vi', browser: { interactionUid: flow.challenge, sessionId: undefined } });
    await new Promise((done) => setTimeout(done, 150));
    const expired = { status: 400, body: { error: { code: 1026, field: 'challenge' } } };
    expect(await resolve({ challenge: answer.challenge, oauth_challenge: flow.challenge, publickey_credential: authenticator.assert(answer.challengeRequest.publickeyCredentialRequestOptions) })).toMatchObject(expired);
    expect(await poll({ challenge: answer.challenge, redirect_url_key: answer.challengeRequest.redirectUrlKey, oauth_challenge: flow.challenge })).toMatchObject(expired);
    expect(await postJson(server.url, '/api/v2/device-login/poll', {})).toMatchObject({ status: 400, body: { error: { code: 1001 } } });
    const info = await fetch(`${server.url}/api/v2/device-login/${answer.challenge}?oauth_challenge=${flow.challenge}`);
    expect(info.status).toBe(400);
  });

  it('checks the username, the tenant switch, the client capability and the account state', async () => {
    const { userId } = await accountWithDevice(server.ctx, server.url, 'login-6@example.com');
    const flow = await begin();
    expect(await getChallenge({ oauth_challenge: flow.challenge, username: 'not a username' })).toMatchObject({ status: 400, body: { error: { code: 1014, field: 'username' } } });
    expect(await getChallenge({ oauth_challenge: flow.challenge })).toMatchObject({ status: 400, body: { error: { code: 1001, field: 'username' } } });
    expect(await getChallenge({ oauth_challenge: 'no-such-sign-in', username: 'login-6@example.com' })).toMatchObject({ status: 400, body: { error: { code: 1026, field: 'oauth_challenge' } } });
    expect(await getChallenge({ client_id: 'password-only', oauth_challenge: flow.challenge, username: 'login-6@example.com' })).toMatchObject({ status: 400, body: { error: { field: 'client_id' } } });

    const closed = await begin('no-devices-app');
    expect(await getChallenge({ oauth_challenge: closed.challenge, username: 'login-6@example.com' })).toMatchObject({ status: 403, body: { error: { code: 1303 } } });
    const passwordOnly = await begin('password-only');
    expect(await getChallenge({ client_id: 'password-only', oauth_challenge: passwordOnly.challenge, username: 'login-6@example.com' })).toMatchObject({ status: 403, body: { error: { code: 1301 } } });

    // A locked account (1302), then a disabled one (1012), as for a password sign-in.
    await server.ctx.db.updateTable('users').set({ locked_until: Date.now() + 60_000 }).where('id', '=', userId).execute();
    expect(await getChallenge({ oauth_challenge: flow.challenge, username: 'login-6@example.com' })).toMatchObject({ status: 403, body: { error: { code: 1302 } } });
    await server.ctx.db.updateTable('users').set({ locked_until: null, status: 'disabled' }).where('id', '=', userId).execute();
    expect(await getChallenge({ oauth_challenge: flow.challenge, username: 'login-6@example.com' })).toMatchObject({ status: 403, body: { error: { code: 1012 } } });
  });

  it('refuses the approved request of an account disabled meanwhile', async () => {
    const { userId, authenticator } = await accountWithDevice(server.ctx, server.url, 'login-7@example.com');
    const r = await request('login-7@example.com');
    expect(await resolve({ challenge: r.challenge, oauth_challenge: r.pollBody.oauth_challenge, publickey_credential: authenticator.assert(r.options) })).toMatchObject({ status: 200 });
    await server.ctx.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', userId).execute();
    expect(await poll(r.pollBody)).toMatchObject({ status: 403, body: { error: { code: 1012 } } });
  });
  // The phishing this guards against: a stranger starts a device sign-in for the victim's username
  // in their own browser and sends the victim the verify-device link ("verify your account").
  const ATTACKER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
  const VICTIM_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
  const infoOf = (browser: TestBrowser, r: { challenge: string; pollBody: { oauth_challenge: string } }, language = 'en') =>
    browser.fetch(`${server.url}/api/v2/device-login/${r.challenge}?oauth_challenge=${r.pollBody.oauth_challenge}`, { headers: { 'accept-language': language } });
  const deny = (browser: TestBrowser, body: Record<string, unknown>) => browser.postJson(`${server.url}/api/v2/device-login/deny`, body);

  it('shows the device asked to approve the browser, address, place and time of the browser that asked, not its own', async () => {
    const { userId } = await accountWithDevice(server.ctx, server.url, 'login-8@example.com');
    const before = Date.now();
    // A header longer than anyone's is stored cut to 512 characters.
    const r = await request('login-8@example.com', `${ATTACKER_UA} ${'x'.repeat(2000)}`);
    const stored = await server.ctx.db.selectFrom('webauthn_challenges').selectAll().where('user_id', '=', userId).where('type', '=', 'authn').executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ requester_ip: '127.0.0.1' });
    expect(stored.requester_user_agent).toHaveLength(512);
    expect(stored.requester_user_agent?.startsWith(ATTACKER_UA)).toBe(true);

    const victim = new TestBrowser(VICTIM_UA);
    const info = await infoOf(victim, r);
    expect(info.status).toBe(200);
    const body = (await info.json()) as { requester: { browser: string; os: string; ip: string; place?: string; requestedAt: string } };
    expect(body.requester).toEqual({ browser: 'Chrome 156', os: 'Linux', ip: '127.0.0.1', place: 'Hanoi, Vietnam', requestedAt: expect.any(String) });
    expect(Date.parse(body.requester.requestedAt)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(Date.parse(body.requester.requestedAt)).toBeLessThanOrEqual(Date.now());
    // The place in the reader's language.
    const inVietnamese = (await (await infoOf(victim, r, 'vi')).json()) as { requester: { place?: string } };
    expect(inVietnamese.requester.place).toBe('Hanoi, Việt Nam');
  });

  it('"No, it\'s not me": the refused request can be neither approved nor collected, and the refusal is audited', async () => {
    const { userId, authenticator } = await accountWithDevice(server.ctx, server.url, 'login-9@example.com');
    const sessionsOf = async (id: string) => (await server.ctx.db.selectFrom('session_activity').select('session_uid').where('user_id', '=', id).execute()).map((r) => r.session_uid).sort();
    const sessionsBefore = await sessionsOf(userId);
    const attacker = await request('login-9@example.com', ATTACKER_UA);
    expect(await poll(attacker.pollBody)).toMatchObject({ status: 409, body: { error: { code: 1200 } } });

    const victim = new TestBrowser(VICTIM_UA);
    const link = new URL(attacker.answer.verifyUrl);
    const body = { challenge: link.searchParams.get('authnChallenge'), oauth_challenge: link.searchParams.get('challenge') };
    const refused = await deny(victim, body);
    expect(refused.status).toBe(200);
    expect(await refused.json()).toEqual({ denied: true });

    const expired = { status: 400, body: { error: { code: 1026, field: 'challenge' } } };
    // A second refusal, the verify-device page, and a genuine assertion afterwards (a mistaken Continue): all refused.
    const again = await deny(victim, body);
    expect({ status: again.status, body: await again.json() }).toMatchObject(expired);
    expect((await infoOf(victim, attacker)).status).toBe(400);
    expect(await resolve({ ...body, publickey_credential: authenticator.assert(attacker.options) })).toMatchObject(expired);
    // The attacker's browser stops waiting and gets no sign-in.
    expect(await poll(attacker.pollBody)).toMatchObject(expired);
    const row = await server.ctx.db.selectFrom('webauthn_challenges').select('state').where('user_id', '=', userId).where('type', '=', 'authn').executeTakeFirstOrThrow();
    expect(row.state).toBe('denied');
    // No new provider session was opened for the account (the one it has is the set-up's, in the account area).
    expect(await sessionsOf(userId)).toEqual(sessionsBefore);

    const types = await auditTypes(server.ctx, userId);
    expect(types).toContain('webauthn.login_denied');
    expect(types).not.toContain('webauthn.login');
    const event = await server.ctx.db.selectFrom('audit_events').selectAll().where('user_id', '=', userId).where('type', '=', 'webauthn.login_denied').executeTakeFirstOrThrow();
    expect(event).toMatchObject({ tenant_id: 'demo', client_id: 'demo-app', ip: '127.0.0.1', user_agent: VICTIM_UA });
    // The account owner finds the refusal among the account's security events.
    const { token } = await accountSignIn(server.url, 'login-9@example.com');
    const listed = (await (await fetch(`${server.url}/api/v1/me/security-events`, { headers: { authorization: `Bearer ${token}` } })).json()) as { items: { type: string }[] };
    expect(listed.items.map((item) => item.type)).toContain('webauthn.login_denied');
  });

  it('lists the refusal and the requester in the OpenAPI document, the body in snake_case', async () => {
    const doc = (await (await fetch(`${server.url}/api/docs`)).json()) as any;
    expect(Object.keys(doc.paths['/api/v2/device-login/deny'].post.requestBody.content['application/json'].schema.properties)).toEqual(['challenge', 'oauth_challenge']);
    expect(JSON.stringify(doc.paths['/api/v2/device-login/deny'].post.responses['200'])).toContain('denied');
    expect(JSON.stringify(doc.paths['/api/v2/device-login/{challenge}'].get.responses['200'])).toContain('requestedAt');
  });

  it('refuses to deny an unknown request, or one of another sign-in', async () => {
    await accountWithDevice(server.ctx, server.url, 'login-10@example.com');
    const r = await request('login-10@example.com');
    const stranger = new TestBrowser();
    const unknown = await deny(stranger, { challenge: 'no-such-request', oauth_challenge: r.pollBody.oauth_challenge });
    expect({ status: unknown.status, body: await unknown.json() }).toMatchObject({ status: 400, body: { error: { code: 1026, field: 'challenge' } } });
    const foreign = await deny(stranger, { challenge: r.challenge, oauth_challenge: 'someone-elses-challenge' });
    expect(foreign.status).toBe(400);
    const missing = await deny(stranger, { challenge: r.challenge });
    expect({ status: missing.status, body: await missing.json() }).toMatchObject({ status: 400, body: { error: { code: 1001 } } });
    // Still pending: nothing was refused.
    expect(await poll(r.pollBody)).toMatchObject({ status: 409, body: { error: { code: 1200 } } });
  });
});
