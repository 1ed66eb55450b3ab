import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { authorizationRequest, finishSignIn, relyingParty, startSignIn } from '../../../test/relying-party.ts';
import { accountSignIn, createAccount } from '../../../test/account.ts';
import { auditTypes, createClient, createTenant, postJson } from '../../../test/visitor.ts';
import { SoftwareAuthenticator } from '../../../test/software-authenticator.ts';
import { activateDevice, registerDevice } from '../../../test/webauthn.ts';

/**
 * Passkeys with autofill over real HTTP, through a real relying party: the Login screen's options
 * (no allowCredentials, user verification required), the sign-in with the passkey the person
 * picked (both factors, no 2-step), and the attacks: a replayed or foreign challenge, another
 * browser, another tenant's credential, an unverified user, refused accounts.
 */
describe('sign in with a passkey (autofill)', () => {
  let server: TestServer;
  const getOptions = (body: Record<string, unknown>) => postJson(server.url, '/api/v2/passkey-login/options', body);
  const logIn = (body: Record<string, unknown>) => postJson(server.url, '/api/v2/passkey-login', body);

  /** A sign-in started by a relying party in a browser of its own, and the Login screen's passkey options for it. */
  async function begin(clientId = 'demo-app') {
    const browser = new TestBrowser();
    const rp = await relyingParty(server.url, clientId, clientId === 'demo-app' ? 'demo-secret' : undefined);
    const auth = await authorizationRequest(rp);
    const challenge = await startSignIn(browser, server.url, auth);
    return { rp, auth, browser, challenge };
  }

  async function withOptions(clientId = 'demo-app') {
    const flow = await begin(clientId);
    const answer = await getOptions({ challenge: flow.challenge, client_id: clientId });
    expect(answer.status).toBe(200);
    return { ...flow, options: answer.body.publickeyCredentialRequestOptions as { challenge: string; allowCredentials?: unknown[] } };
  }

  /** A new demo account whose authenticator registered (and activated) a discoverable credential through the account area. */
  async function accountWithPasskey(email: string, options: { activate?: boolean } = {}) {
    const userId = await createAccount(server.ctx, { email });
    const { token } = await accountSignIn(server.url, email);
    const authenticator = new SoftwareAuthenticator(server.url, { discoverable: true });
    const device = await registerDevice(server.url, token, authenticator, 'Passkey');
    if (options.activate !== false) await activateDevice(server.ctx, server.url, token, email, device);
    return { userId, authenticator, deviceId: device.webauthnCredentialId };
  }

  const device = (id: string) => server.ctx.db.selectFrom('webauthn_credentials').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const signedInAmr = async (challenge: string) => ((await server.ctx.provider.Interaction.find(challenge))?.result as { login?: { amr?: string[] } } | undefined)?.login?.amr;
  const passkeyChallenges = () => server.ctx.db.selectFrom('passkey_challenges').selectAll().execute();
  const refused = { status: 400, body: { error: { code: 1102, field: 'publickey_credential' } } };

  beforeAll(async () => {
    server = await startTestServer({ env: { CODE_SENDS_PER_IP_PER_HOUR: '1000', LOGIN_RATE_LIMIT_PER_IP: '1000' } });
    await createTenant(server.ctx, { id: 'other-tenant', webauthnAllowed: true });
    await createClient(server.ctx, server.url, { id: 'other-tenant-app', tenantId: 'other-tenant' });
    await createTenant(server.ctx, { id: 'no-devices', webauthnAllowed: false });
    await createClient(server.ctx, server.url, { id: 'no-devices-app', tenantId: 'no-devices' });
    await createClient(server.ctx, server.url, { id: 'password-only', tenantId: 'demo', permissions: ['users:email:login'] });
  });
  afterAll(() => server?.close());

  it('signs in with the picked passkey: both factors, no 2-step, and the relying party gets tokens for the user', async () => {
    const { userId, authenticator, deviceId } = await accountWithPasskey('pk-1@example.com');
    // 2-step is on: a passkey (user verified on the device) counts as both steps.
    await server.ctx.db.updateTable('users').set({ enable_mfa: 1, authenticator_type: 'email' }).where('id', '=', userId).execute();
    expect(await device(deviceId)).toMatchObject({ discoverable: 1, backed_up: 0 });

    const r = await withOptions();
    expect(r.options).toMatchObject({ rpId: '127.0.0.1', userVerification: 'required', challenge: expect.any(String) });
    expect(r.options.allowCredentials ?? []).toEqual([]);
    // Stored only as a keyed hash, bound to this sign-in and client.
    const stored = (await passkeyChallenges()).filter((row) => row.interaction_uid === r.challenge);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ tenant_id: 'demo', client_id: 'demo-app' });
    expect(JSON.stringify(stored)).not.toContain(r.options.challenge);

    const answer = await logIn({ challenge: r.challenge, client_id: 'demo-app', publickey_credential: authenticator.assert(r.options, {}, userId) });
    expect(answer).toEqual({ status: 200, body: { redirectTo: `${server.url}/oidc/auth/${r.challenge}` } });
    expect(await signedInAmr(r.challenge)).toEqual(['hwk', 'user', 'mfa']);
    const tokens = await finishSignIn(r.browser, server.url, r.rp, r.auth, answer.body.redirectTo);
    expect(tokens.claims()).toMatchObject({ sub: userId, email: 'pk-1@example.com' });

    const row = await device(deviceId);
    expect(row.counter).toBe(authenticator.counter);
    expect(row.last_used_at).toEqual(expect.any(Number));
    expect((await passkeyChallenges()).filter((c) => c.interaction_uid === r.challenge)).toEqual([]);
    const events = await server.ctx.audit.listForUser(userId);
    const login = events.find((e) => e.type === 'webauthn.login');
    expect(JSON.parse(String(login?.details))).toEqual({ method: 'passkey', deviceId });
    expect(events.map((e) => e.type)).not.toContain('mfa.challenge_sent');
  });

  it('refuses a replayed challenge, and the same request signed twice at once succeeds once', async () => {
    const { userId, authenticator, deviceId } = await accountWithPasskey('pk-2@example.com');
    const r = await withOptions();
    const assertion = authenticator.assert(r.options, {}, userId);
    const answers = await Promise.all([0, 1].map(() => logIn({ challenge: r.challenge, publickey_credential: assertion })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    expect(answers.find((a) => a.status === 400)).toMatchObject({ body: { error: { code: 1026, field: 'publickey_credential' } } });
    const counter = (await device(deviceId)).counter;

    // A new sign-in: the used options' challenge is spent, whatever signs it.
    const next = await begin();
    await getOptions({ challenge: next.challenge });
    const replayed = { status: 400, body: { error: { code: 1026, field: 'publickey_credential' } } };
    expect(await logIn({ challenge: next.challenge, publickey_credential: assertion })).toMatchObject(replayed);
    expect(await logIn({ challenge: next.challenge, publickey_credential: authenticator.assert(r.options, {}, userId) })).toMatchObject(replayed);
    // A challenge the server never gave, and one of a replaced request.
    expect(await logIn({ challenge: next.challenge, publickey_credential: authenticator.assert(r.options, { challenge: 'bm90LWdpdmVu' }, userId) })).toMatchObject(replayed);
    const first = await getOptions({ challenge: next.challenge });
    await getOptions({ challenge: next.challenge });
    expect(await logIn({ challenge: next.challenge, publickey_credential: authenticator.assert(first.body.publickeyCredentialRequestOptions, {}, userId) })).toMatchObject(replayed);

    expect((await device(deviceId)).counter).toBe(counter);
    expect(await signedInAmr(next.challenge)).toBeUndefined();
    expect((await auditTypes(server.ctx, userId)).filter((t) => t === 'webauthn.login')).toHaveLength(1);
  });

  it("refuses another browser's challenge (1026 on challenge) and another sign-in's options, changing nothing", async () => {
    const { userId, authenticator, deviceId } = await accountWithPasskey('pk-3@example.com');
    const victim = await withOptions();
    const stranger = new TestBrowser();
    const post = async (path: string, body: unknown) => {
      const response = await stranger.postJson(`${server.url}${path}`, body);
      return { status: response.status, body: (await response.json()) as unknown };
    };
    const gone = { status: 400, body: { error: { code: 1026, field: 'challenge' } } };
    expect(await post('/api/v2/passkey-login/options', { challenge: victim.challenge })).toMatchObject(gone);
    expect(await post('/api/v2/passkey-login', { challenge: victim.challenge, publickey_credential: authenticator.assert(victim.options, {}, userId) })).toMatchObject(gone);
    expect(await signedInAmr(victim.challenge)).toBeUndefined();

    // The options of one sign-in do not serve another, even in the same hands.
    const other = await withOptions();
    expect(await logIn({ challenge: other.challenge, publickey_credential: authenticator.assert(victim.options, {}, userId) })).toMatchObject({
      status: 400,
      body: { error: { code: 1026, field: 'publickey_credential' } },
    });
    expect(await auditTypes(server.ctx, userId)).not.toContain('webauthn.login');
    const before = (await device(deviceId)).counter;

    // The victim's own options were never spent by the attempts.
    expect(await logIn({ challenge: victim.challenge, publickey_credential: authenticator.assert(victim.options, {}, userId) })).toMatchObject({ status: 200 });
    expect((await device(deviceId)).counter).toBeGreaterThan(before);
  });

  it("refuses a credential of another tenant as unknown (1029), and one never registered; it still signs in to its own tenant", async () => {
    const outsider = await createAccount(server.ctx, { email: 'pk-4@example.com', tenantId: 'other-tenant' });
    // Registered through the demo account area, then moved (as if registered) to the other tenant's account.
    const { authenticator, deviceId, userId: demoUser } = await accountWithPasskey('pk-4-demo@example.com');
    await server.ctx.db.updateTable('webauthn_credentials').set({ tenant_id: 'other-tenant', user_id: outsider }).where('id', '=', deviceId).execute();

    const r = await withOptions();
    const unknown = { status: 400, body: { error: { code: 1029, field: 'publickey_credential', message: 'This passkey is not registered here: log in another way' } } };
    expect(await logIn({ challenge: r.challenge, publickey_credential: authenticator.assert(r.options, {}, outsider) })).toMatchObject(unknown);
    expect(await signedInAmr(r.challenge)).toBeUndefined();
    const failed = await server.ctx.db.selectFrom('audit_events').selectAll().where('type', '=', 'webauthn.login_failed').where('tenant_id', '=', 'demo').execute();
    expect(failed.map((e) => JSON.parse(String(e.details)))).toContainEqual({ method: 'passkey', reason: 'unknown_passkey' });

    const stranger = new SoftwareAuthenticator(server.url, { discoverable: true });
    const again = await withOptions();
    expect(await logIn({ challenge: again.challenge, publickey_credential: stranger.assert(again.options, {}, demoUser) })).toMatchObject({ status: 400, body: { error: { code: 1029 } } });

    const own = await withOptions('other-tenant-app');
    const answer = await logIn({ challenge: own.challenge, publickey_credential: authenticator.assert(own.options, {}, outsider) });
    expect(answer.status).toBe(200);
    expect((await finishSignIn(own.browser, server.url, own.rp, own.auth, answer.body.redirectTo)).claims()?.sub).toBe(outsider);
  });

  it('refuses a user who was not verified on the device, a tampered or foreign assertion, and a user handle of someone else (1102)', async () => {
    const { userId, authenticator, deviceId } = await accountWithPasskey('pk-5@example.com');
    const other = await accountWithPasskey('pk-5-other@example.com');
    const attempt = async (make: (options: { challenge: string }) => unknown) => {
      const r = await withOptions();
      const answer = await logIn({ challenge: r.challenge, publickey_credential: make(r.options) });
      if (answer.status !== 200) expect(await signedInAmr(r.challenge)).toBeUndefined();
      return answer;
    };
    // One genuine sign-in first, so the stored counter has moved on from 0.
    expect(await attempt((o) => authenticator.assert(o, {}, userId))).toMatchObject({ status: 200 });
    const counter = (await device(deviceId)).counter;
    expect(counter).toBe(1);
    expect(await attempt((o) => authenticator.assert(o, { userVerified: false, counter: counter + 1 }, userId))).toMatchObject(refused);
    expect(await attempt((o) => authenticator.assert(o, { tamperSignature: true, counter: counter + 1 }, userId))).toMatchObject(refused);
    expect(await attempt((o) => authenticator.assert(o, { origin: 'https://evil.example', counter: counter + 1 }, userId))).toMatchObject(refused);
    expect(await attempt((o) => authenticator.assert(o, { counter: counter + 1 }, other.userId))).toMatchObject(refused);
    expect(await attempt((o) => authenticator.assert(o, { counter }, userId))).toMatchObject(refused);
    expect((await device(deviceId)).counter).toBe(counter);

    const reasons = (await server.ctx.audit.listForUser(userId)).filter((e) => e.type === 'webauthn.login_failed').map((e) => JSON.parse(String(e.details)).reason);
    // The replayed counter is refused by the verification itself (a counter that does not move forward).
    expect(reasons.sort()).toEqual(['invalid_assertion', 'invalid_assertion', 'invalid_assertion', 'user_handle_mismatch', 'user_not_verified']);
    expect((await auditTypes(server.ctx, userId)).filter((t) => t === 'webauthn.login')).toHaveLength(1);
  });

  it('refuses disabled, unactivated and locked accounts and an inactive device, as other sign-ins do, changing nothing', async () => {
    const { userId, authenticator, deviceId } = await accountWithPasskey('pk-6@example.com');
    const tryNow = async () => {
      const r = await withOptions();
      const answer = await logIn({ challenge: r.challenge, publickey_credential: authenticator.assert(r.options, {}, userId) });
      expect(await signedInAmr(r.challenge)).toBeUndefined();
      return answer;
    };
    const counter = (await device(deviceId)).counter;
    await server.ctx.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', userId).execute();
    expect(await tryNow()).toMatchObject({ status: 403, body: { error: { code: 1012 } } });
    await server.ctx.db.updateTable('users').set({ status: 'pending' }).where('id', '=', userId).execute();
    expect(await tryNow()).toMatchObject({ status: 403, body: { error: { code: 1011 } } });
    const lockedUntil = Date.now() + 10 * 60_000;
    await server.ctx.db.updateTable('users').set({ status: 'active', locked_until: lockedUntil }).where('id', '=', userId).execute();
    expect(await tryNow()).toMatchObject({ status: 403, body: { error: { code: 1302 } } });
    expect((await device(deviceId)).counter).toBe(counter);
    expect((await server.ctx.users.findById(userId))?.locked_until).toBe(lockedUntil);
    expect(await auditTypes(server.ctx, userId)).not.toContain('webauthn.login');

    const inactive = await accountWithPasskey('pk-6b@example.com', { activate: false });
    const r = await withOptions();
    expect(await logIn({ challenge: r.challenge, publickey_credential: inactive.authenticator.assert(r.options, {}, inactive.userId) })).toMatchObject({
      status: 400,
      body: { error: { code: 1027 } },
    });
  });

  it('needs the tenant switch and the client capability, the sign-in held by this browser, and options that have not expired', async () => {
    const { userId, authenticator } = await accountWithPasskey('pk-7@example.com');
    const closed = await begin('no-devices-app');
    expect(await getOptions({ challenge: closed.challenge })).toMatchObject({ status: 403, body: { error: { code: 1303 } } });
    const passwordOnly = await begin('password-only');
    expect(await getOptions({ challenge: passwordOnly.challenge })).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
    const flow = await withOptions();
    expect(await logIn({ challenge: passwordOnly.challenge, publickey_credential: authenticator.assert(flow.options, {}, userId) })).toMatchObject({ status: 403, body: { error: { code: 1301 } } });
    expect(await getOptions({ challenge: flow.challenge, client_id: 'password-only' })).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'client_id' } } });
    expect(await getOptions({ challenge: 'no-such-sign-in' })).toMatchObject({ status: 400, body: { error: { code: 1026, field: 'challenge' } } });
    expect(await getOptions({})).toMatchObject({ status: 400, body: { error: { code: 1001, field: 'challenge' } } });
    expect(await logIn({ challenge: flow.challenge, publickey_credential: { id: 'x' } })).toMatchObject({ status: 400, body: { error: { field: expect.stringMatching(/^publickey_credential/) } } });

    // Five minutes on, the options are dead.
    await server.ctx.db.updateTable('passkey_challenges').set({ expires_at: Date.now() - 1 }).where('interaction_uid', '=', flow.challenge).execute();
    expect(await logIn({ challenge: flow.challenge, publickey_credential: authenticator.assert(flow.options, {}, userId) })).toMatchObject({
      status: 400,
      body: { error: { code: 1026, field: 'publickey_credential' } },
    });
    // A new request of the same sign-in sweeps the dead one away.
    await getOptions({ challenge: flow.challenge });
    expect((await passkeyChallenges()).filter((c) => c.expires_at <= Date.now())).toEqual([]);
    expect(await signedInAmr(flow.challenge)).toBeUndefined();
  });

  it('lists both calls in the OpenAPI document, bodies in snake_case', async () => {
    const doc = (await (await fetch(`${server.url}/api/docs`)).json()) as any;
    const body = (path: string) => Object.keys(doc.paths[path].post.requestBody.content['application/json'].schema.properties);
    expect(body('/api/v2/passkey-login/options')).toEqual(['challenge', 'client_id']);
    expect(body('/api/v2/passkey-login')).toEqual(['challenge', 'client_id', 'publickey_credential']);
    expect(JSON.stringify(doc.paths['/api/v2/passkey-login'].post.responses['200'])).toContain('redirectTo');
  });

  it('counts attempts in the sign-in budget of the address (429)', async () => {
    const { userId, authenticator, deviceId } = await accountWithPasskey('pk-8@example.com');
    const r = await withOptions();
    // The address the server saw for this test's requests, as the audit recorded it.
    const event = await server.ctx.db.selectFrom('audit_events').select('ip').where('user_id', '=', userId).where('type', '=', 'webauthn.registered').executeTakeFirstOrThrow();
    const ip = String(event.ip);
    const { loginPerIp } = server.ctx.rateLimits;
    await loginPerIp.set(ip, loginPerIp.points, 60);
    try {
      expect(await logIn({ challenge: r.challenge, publickey_credential: authenticator.assert(r.options, {}, userId) })).toMatchObject({ status: 429, body: { error: { code: 1290 } } });
    } finally {
      await loginPerIp.delete(ip);
    }
    expect((await device(deviceId)).counter).toBe(0);
    // The refused attempt did not spend the options.
    expect(await logIn({ challenge: r.challenge, publickey_credential: authenticator.assert(r.options, {}, userId) })).toMatchObject({ status: 200 });
  });

  it("counts refused assertions in the account's budget, not sign-ins: a passkey used more often than the budget still signs in", async () => {
    const { userId, authenticator } = await accountWithPasskey('pk-9@example.com');
    const budget = server.ctx.rateLimits.loginPerAccount.points;
    for (let i = 0; i <= budget; i += 1) {
      const r = await withOptions();
      expect(await logIn({ challenge: r.challenge, publickey_credential: authenticator.assert(r.options, {}, userId) }), `sign-in ${i + 1}`).toMatchObject({ status: 200 });
    }
    // Assertions that do not verify (a user not verified on the device) spend it, and then even a good one is refused.
    for (let i = 0; i < budget; i += 1) {
      const r = await withOptions();
      expect(await logIn({ challenge: r.challenge, publickey_credential: authenticator.assert(r.options, { userVerified: false }, userId) })).toMatchObject(refused);
    }
    const r = await withOptions();
    expect(await logIn({ challenge: r.challenge, publickey_credential: authenticator.assert(r.options, {}, userId) })).toMatchObject({ status: 429 });
  });
});

/** A passkey sign-in at trace level: no sign-in challenge, WebAuthn challenge or signature in the log. */
describe('passkey sign-in logs', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ captureLogs: true });
  });
  afterAll(() => server?.close());

  it('keeps the challenges and the assertion out of the log', async () => {
    const userId = await createAccount(server.ctx, { email: 'pk-logs@example.com' });
    const { token } = await accountSignIn(server.url, 'pk-logs@example.com');
    const authenticator = new SoftwareAuthenticator(server.url, { discoverable: true });
    await activateDevice(server.ctx, server.url, token, 'pk-logs@example.com', await registerDevice(server.url, token, authenticator));
    const rp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    const challenge = await startSignIn(new TestBrowser(), server.url, await authorizationRequest(rp));
    const options = (await postJson(server.url, '/api/v2/passkey-login/options', { challenge })).body.publickeyCredentialRequestOptions;
    const refused = authenticator.assert(options, { origin: 'https://evil.example' }, userId);
    expect((await postJson(server.url, '/api/v2/passkey-login', { challenge, publickey_credential: refused })).status).toBe(400);
    const options2 = (await postJson(server.url, '/api/v2/passkey-login/options', { challenge })).body.publickeyCredentialRequestOptions;
    const assertion = authenticator.assert(options2, {}, userId);
    expect((await postJson(server.url, '/api/v2/passkey-login', { challenge, publickey_credential: assertion })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));

    const log = server.logs.join('');
    expect(log).toContain('a passkey assertion was refused');
    for (const secret of [challenge, options.challenge, options2.challenge, refused.response.signature, assertion.response.signature, assertion.response.clientDataJSON]) {
      expect(secret).toBeTruthy();
      expect(log).not.toContain(secret);
    }
  });
});
