import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { accountSignIn, call, createAccount } from '../../../test/account.ts';
import { auditTypes, endCooldown, lastCode, lastMessage, otherCode } from '../../../test/visitor.ts';
import { SoftwareAuthenticator } from '../../../test/software-authenticator.ts';
import { activateDevice, registerDevice } from '../../../test/webauthn.ts';
import { resendCooldownKey } from '../codes/codes.service.ts';

/** The account area's devices over real HTTP: register (attestation verified for real), activate, delete. */
describe('WebAuthn devices of the account area', () => {
  let server: TestServer;
  const get = (path: string, token: string) => call(server.url, 'GET', path, { token });
  const post = (path: string, token: string, body: unknown) => call(server.url, 'POST', path, { token, body });
  const options = async (token: string) => (await get('/api/v1/webauthn-credentials/register', token)).body as { challenge: string; options: { challenge: string; excludeCredentials: { id: string }[] } };
  const register = (token: string, ceremony: string, body: Record<string, unknown>) => post(`/api/v1/webauthn-credentials/register?challenge=${ceremony}`, token, body);

  async function signedInUser(email: string) {
    const userId = await createAccount(server.ctx, { email });
    const { token } = await accountSignIn(server.url, email);
    return { userId, token };
  }

  beforeAll(async () => {
    server = await startTestServer({ env: { CODE_SENDS_PER_IP_PER_HOUR: '1000' } });
  });
  afterAll(() => server?.close());

  it('registers a device inactive, sends its activation code, and activates it with that code', async () => {
    const { userId, token } = await signedInUser('dev-1@example.com');
    const authenticator = new SoftwareAuthenticator(server.url);
    const start = await get('/api/v1/webauthn-credentials/register', token);
    expect(start.status).toBe(200);
    expect(start.body.options).toMatchObject({
      rp: { id: '127.0.0.1', name: 'Passgate Demo' },
      user: { name: 'dev-1@example.com' },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
      excludeCredentials: [],
    });

    const answer = await register(token, start.body.challenge, {
      device_name: '  My key  ',
      publickey_credential: authenticator.register(start.body.options),
      registration_challenge: start.body.options.challenge,
    });
    expect(answer).toMatchObject({ status: 200, body: { webauthnCredentialId: expect.any(String), challenge: expect.any(String), channel: 'email', destination: expect.stringMatching(/\*\*\*@/) } });
    const { webauthnCredentialId, challenge } = answer.body;

    const listed = await get('/api/v1/webauthn-credentials/me', token);
    expect(listed.body).toEqual({ items: [{ id: webauthnCredentialId, deviceName: 'My key', active: false, createdAt: expect.any(Number), lastUsedAt: null }] });
    const row = await server.ctx.db.selectFrom('webauthn_credentials').selectAll().where('id', '=', webauthnCredentialId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: userId, tenant_id: 'demo', credential_id: authenticator.id, counter: 0, active: 0 });
    expect(Buffer.from(row.public_key).length).toBeGreaterThan(64);

    // The code went by e-mail, in the request's language (vi), and is stored only hashed.
    const mail = await lastMessage(server.ctx, 'dev-1@example.com');
    expect(mail).toMatchObject({ channel: 'email', subject: '[Passgate Demo] Kích hoạt thiết bị mới', code: expect.stringMatching(/^\d{6}$/) });
    const codes = await server.ctx.db.selectFrom('one_time_codes').select('code_hash').where('purpose', '=', 'webauthn_activation').where('destination', '=', 'dev-1@example.com').execute();
    expect(codes.map((c) => c.code_hash)).not.toContain(mail!.code);
    const stored = await server.ctx.db.selectFrom('webauthn_challenges').select('id').where('user_id', '=', userId).execute();
    expect(stored.map((s) => s.id)).not.toContain(challenge);

    const resolve = (code: string) => post('/api/v2/resolve-challenge', token, { challenge_type: 'ACTIVATION_WEBAUTHN', challenge, webauthn_credential_id: webauthnCredentialId, code });
    expect(await resolve(otherCode(mail!.code!))).toMatchObject({ status: 400, body: { error: { code: 1040, field: 'code' } } });
    expect(await resolve(mail!.code!)).toEqual({ status: 200, body: { webauthnCredentialId, active: true }, headers: expect.anything() });
    expect(await resolve(mail!.code!)).toMatchObject({ status: 400, body: { error: { code: 1026 } } });
    expect((await get('/api/v1/webauthn-credentials/me', token)).body.items[0]).toMatchObject({ id: webauthnCredentialId, active: true });
    expect(await auditTypes(server.ctx, userId)).toEqual(expect.arrayContaining(['webauthn.registered', 'webauthn.activated']));

    // Registering again: the device is excluded, and the same authenticator is refused (409, 1028).
    const again = await options(token);
    expect(again.options.excludeCredentials.map((c) => c.id)).toEqual([authenticator.id]);
    const duplicate = await register(token, again.challenge, { device_name: 'Same key', publickey_credential: authenticator.register(again.options), registration_challenge: again.options.challenge });
    expect(duplicate).toMatchObject({ status: 409, body: { error: { code: 1028, message: 'This device is already registered' } } });
  });

  it('refuses a wrong origin, a wrong RP id, a foreign or reused ceremony, and a bad device name', async () => {
    const { token } = await signedInUser('dev-2@example.com');
    const other = await signedInUser('dev-2-other@example.com');
    const authenticator = new SoftwareAuthenticator(server.url);
    const start = await options(token);
    const body = (overrides: Record<string, unknown> = {}, answer = authenticator.register(start.options)) => ({ device_name: 'Key', publickey_credential: answer, registration_challenge: start.options.challenge, ...overrides });

    expect(await register(token, start.challenge, body({}, authenticator.register(start.options, { origin: 'https://evil.example' })))).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'publickey_credential' } } });
    expect(await register(token, start.challenge, body({}, authenticator.register(start.options, { rpId: 'evil.example' })))).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'publickey_credential' } } });
    expect(await register(token, start.challenge, body({}, authenticator.register(start.options, { challenge: 'AAAA' })))).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'publickey_credential' } } });
    expect(await register(token, start.challenge, body({ registration_challenge: 'AAAA' }))).toMatchObject({ status: 400, body: { error: { code: 1026, field: 'challenge' } } });
    expect(await register(token, start.challenge, body({ device_name: '   ' }))).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'device_name' } } });
    expect(await register(token, start.challenge, body({ device_name: 'x'.repeat(256) }))).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'device_name' } } });
    expect(await register(token, start.challenge, { publickey_credential: authenticator.register(start.options), registration_challenge: start.options.challenge })).toMatchObject({ status: 400, body: { error: { code: 1001, field: 'device_name' } } });
    // Another user's ceremony.
    expect(await register(other.token, start.challenge, body())).toMatchObject({ status: 400, body: { error: { code: 1026, field: 'challenge' } } });
    expect((await get('/api/v1/webauthn-credentials/me', token)).body.items).toEqual([]);

    // The refused attempts did not spend the ceremony; a good one does, once.
    expect(await register(token, start.challenge, body())).toMatchObject({ status: 200 });
    const second = new SoftwareAuthenticator(server.url);
    expect(await register(token, start.challenge, body({}, second.register(start.options)))).toMatchObject({ status: 400, body: { error: { code: 1026, field: 'challenge' } } });
  });

  it('expires a registration ceremony after 5 minutes', async () => {
    const { token } = await signedInUser('dev-3@example.com');
    const authenticator = new SoftwareAuthenticator(server.url);
    const start = await options(token);
    await server.ctx.db.updateTable('webauthn_challenges').set({ expires_at: Date.now() - 1 }).where('type', '=', 'registration').execute();
    const answer = await register(token, start.challenge, { device_name: 'Key', publickey_credential: authenticator.register(start.options), registration_challenge: start.options.challenge });
    expect(answer).toMatchObject({ status: 400, body: { error: { code: 1026, field: 'challenge' } } });
  });

  it('resends the activation code after 60 s only, and sends codes by SMS to an account without e-mail', async () => {
    const userId = await createAccount(server.ctx, { phoneNumber: '0912345678' });
    const { token } = await accountSignIn(server.url, '0912345678');
    const device = await registerDevice(server.url, token, new SoftwareAuthenticator(server.url));
    const first = await lastMessage(server.ctx, '0912345678');
    expect(first).toMatchObject({ channel: 'sms', text: expect.stringContaining('Mã kích hoạt thiết bị mới') });

    expect(await post('/api/v2/resend-challenge', token, { challenge: device.challenge })).toMatchObject({ status: 429, body: { error: { code: 1291 } } });
    await endCooldown(server.ctx, 'demo', 'webauthn_activation', '0912345678');
    expect(await post('/api/v2/resend-challenge', token, { challenge: device.challenge })).toMatchObject({
      status: 200,
      body: { challenge: device.challenge, channel: 'sms', destination: '******5678', resendAfter: 60 },
    });
    const second = await lastMessage(server.ctx, '0912345678');
    if (second!.code !== first!.code) {
      const old = await post('/api/v2/resolve-challenge', token, { challenge_type: 'ACTIVATION_WEBAUTHN', challenge: device.challenge, webauthn_credential_id: device.webauthnCredentialId, code: first!.code });
      expect(old).toMatchObject({ status: 400, body: { error: { code: 1040 } } });
    }
    await activateDevice(server.ctx, server.url, token, '0912345678', device);
    expect(await auditTypes(server.ctx, userId)).toContain('webauthn.activated');
  });

  it('activates an inactive device from the list, and deletes a device with a deletion code', async () => {
    const { userId, token } = await signedInUser('dev-4@example.com');
    const device = await registerDevice(server.url, token, new SoftwareAuthenticator(server.url), 'Laptop');
    const getChallenge = (type: string, id: string, client = 'account') => post('/api/v2/get-challenge', token, { challenge_type: type, client_id: client, webauthn_credential_id: id });

    expect(await getChallenge('ACTIVATION_WEBAUTHN', device.webauthnCredentialId)).toMatchObject({ status: 429, body: { error: { code: 1291 } } });
    await endCooldown(server.ctx, 'demo', 'webauthn_activation', 'dev-4@example.com');
    const activation = await getChallenge('ACTIVATION_WEBAUTHN', device.webauthnCredentialId);
    expect(activation).toMatchObject({ status: 200, body: { challenge: expect.any(String), channel: 'email', destination: 'd***@example.com', resendAfter: 60 } });
    // The code of the registration's challenge belonged to that challenge; the new one is the newest.
    await activateDevice(server.ctx, server.url, token, 'dev-4@example.com', { webauthnCredentialId: device.webauthnCredentialId, challenge: activation.body.challenge });
    expect(await getChallenge('ACTIVATION_WEBAUTHN', device.webauthnCredentialId)).toMatchObject({ status: 409, body: { error: { code: 1013 } } });

    // Unknown devices and another user's device are not found.
    const other = await signedInUser('dev-4-other@example.com');
    const foreign = await registerDevice(server.url, other.token, new SoftwareAuthenticator(server.url));
    expect(await getChallenge('DELETION_WEBAUTHN', foreign.webauthnCredentialId)).toMatchObject({ status: 404, body: { error: { code: 1002, field: 'webauthn_credential_id' } } });
    expect(await getChallenge('DELETION_WEBAUTHN', 'no-such-device')).toMatchObject({ status: 404, body: { error: { code: 1002 } } });
    expect(await getChallenge('DELETION_WEBAUTHN', device.webauthnCredentialId, 'demo-app')).toMatchObject({ status: 400, body: { error: { field: 'client_id' } } });
    expect(await call(server.url, 'POST', '/api/v2/get-challenge', { body: { challenge_type: 'DELETION_WEBAUTHN', client_id: 'account', webauthn_credential_id: device.webauthnCredentialId } })).toMatchObject({ status: 401, body: { error: { code: 1101 } } });

    const deletion = await getChallenge('DELETION_WEBAUTHN', device.webauthnCredentialId);
    expect(deletion).toMatchObject({ status: 200, body: { channel: 'email', destination: 'd***@example.com' } });
    const code = await lastCode(server.ctx, 'dev-4@example.com');
    const resolve = (body: Record<string, unknown>) => post('/api/v2/resolve-challenge', token, { challenge_type: 'DELETION_WEBAUTHN', challenge: deletion.body.challenge, webauthn_credential_id: device.webauthnCredentialId, code, ...body });
    // Bound to its type, its device and its user.
    expect(await resolve({ challenge_type: 'ACTIVATION_WEBAUTHN' })).toMatchObject({ status: 400, body: { error: { code: 1026 } } });
    expect(await resolve({ webauthn_credential_id: foreign.webauthnCredentialId })).toMatchObject({ status: 400, body: { error: { code: 1026 } } });
    expect(await call(server.url, 'POST', '/api/v2/resolve-challenge', { token: other.token, body: { challenge_type: 'DELETION_WEBAUTHN', challenge: deletion.body.challenge, webauthn_credential_id: device.webauthnCredentialId, code } })).toMatchObject({ status: 400, body: { error: { code: 1026 } } });
    expect(await resolve({})).toMatchObject({ status: 200, body: { webauthnCredentialId: device.webauthnCredentialId, deleted: true } });
    expect((await get('/api/v1/webauthn-credentials/me', token)).body.items).toEqual([]);
    expect(await auditTypes(server.ctx, userId)).toEqual(expect.arrayContaining(['webauthn.registered', 'webauthn.activated', 'webauthn.deleted']));
  });

  it('stores nothing when the activation code cannot be sent (503) or may not be sent yet (429): the same registration may be posted again', async () => {
    const { userId, token } = await signedInUser('dev-7@example.com');
    const authenticator = new SoftwareAuthenticator(server.url);
    const start = await options(token);
    const body = { device_name: 'Key', publickey_credential: authenticator.register(start.options), registration_challenge: start.options.challenge };
    const stored = async () => (await server.ctx.db.selectFrom('webauthn_credentials').select('id').where('user_id', '=', userId).execute()).length;

    const mail = server.ctx.messaging.mail;
    server.ctx.messaging.mail = { send: async () => Promise.reject(new Error('SMTP down')) };
    try {
      expect(await register(token, start.challenge, body)).toMatchObject({ status: 503, body: { error: { code: 1292 } } });
    } finally {
      server.ctx.messaging.mail = mail;
    }
    expect(await stored()).toBe(0);

    await server.ctx.rateLimits.codeResend.set(resendCooldownKey(server.ctx.keys, { tenantId: 'demo', purpose: 'webauthn_activation', destination: 'dev-7@example.com' }), 1, 60);
    expect(await register(token, start.challenge, body)).toMatchObject({ status: 429, body: { error: { code: 1291 } } });
    expect(await stored()).toBe(0);

    await endCooldown(server.ctx, 'demo', 'webauthn_activation', 'dev-7@example.com');
    expect(await register(token, start.challenge, body)).toMatchObject({ status: 200 });
    expect(await stored()).toBe(1);
  });

  it('answers 1303 when the tenant does not allow devices', async () => {
    const { token } = await signedInUser('dev-5@example.com');
    await server.ctx.db.updateTable('tenants').set({ webauthn_allowed: 0 }).where('id', '=', 'demo').execute();
    try {
      for (const path of ['/api/v1/webauthn-credentials/me', '/api/v1/webauthn-credentials/register']) {
        expect(await get(path, token)).toMatchObject({ status: 403, body: { error: { code: 1303 } } });
      }
      expect(await post('/api/v2/get-challenge', token, { challenge_type: 'DELETION_WEBAUTHN', client_id: 'account', webauthn_credential_id: 'x' })).toMatchObject({ status: 403, body: { error: { code: 1303 } } });
    } finally {
      await server.ctx.db.updateTable('tenants').set({ webauthn_allowed: 1 }).where('id', '=', 'demo').execute();
    }
  });

  it('deletes the devices with the account', async () => {
    const { userId, token } = await signedInUser('dev-6@example.com');
    const device = await registerDevice(server.url, token, new SoftwareAuthenticator(server.url));
    await activateDevice(server.ctx, server.url, token, 'dev-6@example.com', device);
    // A second device within 60 s of the first would be refused (1291): the activation code's resend cooldown.
    await endCooldown(server.ctx, 'demo', 'webauthn_activation', 'dev-6@example.com');
    await registerDevice(server.url, token, new SoftwareAuthenticator(server.url), 'Second');
    const count = async () => (await server.ctx.db.selectFrom('webauthn_credentials').select('id').where('user_id', '=', userId).execute()).length;
    const challenges = async () => (await server.ctx.db.selectFrom('webauthn_challenges').select('id').where('user_id', '=', userId).execute()).length;
    expect(await count()).toBe(2);
    expect(await challenges()).toBeGreaterThan(0);
    expect((await call(server.url, 'DELETE', '/api/v1/me', { token, body: { password: 'Passw0rd!', confirmation: 'dev-6@example.com' } })).status).toBe(204);
    expect(await count()).toBe(0);
    expect(await challenges()).toBe(0);
  });
});
