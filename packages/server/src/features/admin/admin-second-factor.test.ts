import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { authorizationRequest, finishSignIn, relyingParty, startSignIn, type RelyingParty } from '../../../test/relying-party.ts';
import { accountSignIn, call, userById } from '../../../test/account.ts';
import { adminCall, adminConsole, adminSignIn, createAdmin, totpCode, type TestAdmin } from '../../../test/admin.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { SoftwareAuthenticator } from '../../../test/software-authenticator.ts';
import { lastCode } from '../../../test/visitor.ts';
import { activateDevice, registerDevice } from '../../../test/webauthn.ts';

/**
 * The admin console asks for a strong second factor of the sign-in itself, not of the account: an
 * operator whose only second factor was a device signed in with the password alone (a password
 * sign-in asks nothing more of such an account), and the admin API took that token; and with the
 * same password the attacker could add an authenticator app of their own in the account area and
 * then sign in to the console with both. Found by an attack run against a fresh build.
 */
describe('the admin console and an admin’s own factors want a sign-in that used the app or the device', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { LOGIN_RATE_LIMIT_PER_IP: '1000', CODE_SENDS_PER_IP_PER_HOUR: '1000' } });
  });
  afterAll(() => server?.close());

  /** An operator whose only 2-step factor is an active device (registered while they had none). */
  async function deviceOnlyOperator(email: string): Promise<{ operator: TestAdmin; authenticator: SoftwareAuthenticator }> {
    const operator = await createAdmin(server.ctx, email, [{ role: 'operator' }], { twoStep: false });
    const { token } = await accountSignIn(server.url, operator.email);
    const authenticator = new SoftwareAuthenticator(server.url, { discoverable: true });
    await activateDevice(server.ctx, server.url, token, operator.email, await registerDevice(server.url, token, authenticator));
    return { operator, authenticator };
  }

  /** A passkey sign-in at `rp` (the device counts as both factors): its tokens. */
  async function passkeySignIn(rp: RelyingParty, authenticator: SoftwareAuthenticator, userId: string, browser = new TestBrowser()) {
    const auth = await authorizationRequest(rp);
    const challenge = await startSignIn(browser, server.url, auth);
    const options = (await (await browser.postJson(`${server.url}/api/v2/passkey-login/options`, { challenge })).json()) as { publickeyCredentialRequestOptions: { challenge: string } };
    const assertion = authenticator.assert(options.publickeyCredentialRequestOptions, {}, userId);
    const signedIn = (await (await browser.postJson(`${server.url}/api/v2/passkey-login`, { challenge, publickey_credential: assertion })).json()) as { redirectTo: string };
    return finishSignIn(browser, server.url, rp, auth, signedIn.redirectTo);
  }

  it("refuses (403, 1307) a password-only console sign-in of an operator whose second factor is a device, and takes the device's", async () => {
    const { operator, authenticator } = await deviceOnlyOperator('device-op@example.com');

    // The password alone: the provider signs in (the account has no app or code to ask for)...
    const passwordOnly = await adminSignIn(server.url, operator);
    const refused = await adminCall(server.url, 'GET', '/me', { token: passwordOnly, language: 'en' });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 1307 } } });
    // ...and nothing of the admin API answers it, nor changes for it.
    expect(await adminCall(server.url, 'GET', '/tenants', { token: passwordOnly })).toMatchObject({ status: 403, body: { error: { code: 1307 } } });
    const patched = await adminCall(server.url, 'PATCH', '/tenants/demo', { token: passwordOnly, body: { name: 'Taken' } });
    expect(patched).toMatchObject({ status: 403, body: { error: { code: 1307 } } });
    expect((await server.ctx.tenants.findById('demo'))?.name).not.toBe('Taken');

    // The same operator with the device is let in, and the token says how they signed in.
    const tokens = await passkeySignIn(await adminConsole(server.url), authenticator, operator.id);
    expect(tokens.claims()?.amr).toEqual(['hwk', 'user', 'mfa']);
    expect(await adminCall(server.url, 'GET', '/me', { token: tokens.access_token })).toMatchObject({ status: 200, body: { operator: true } });
  });

  it('does not hand the console a live provider session begun with the password alone: its sign-in screen asks again', async () => {
    const { operator, authenticator } = await deviceOnlyOperator('sso-op@example.com');
    // The account area, signed in with the password in this browser: the provider session's amr is pwd.
    const { browser } = await accountSignIn(server.url, operator.email);
    const rp = await adminConsole(server.url);
    const readRequest = async (challenge: string) => (await (await browser.fetch(`${server.url}/api/v1/requests/login/${challenge}`)).json()) as { skip: boolean; redirectTo?: string };

    const challenge = await startSignIn(browser, server.url, await authorizationRequest(rp));
    expect(await readRequest(challenge)).toMatchObject({ skip: false });
    expect((await readRequest(challenge)).redirectTo).toBeUndefined();

    // After a device sign-in, the same browser's session is handed over at once.
    await passkeySignIn(rp, authenticator, operator.id, browser);
    const { url } = await browser.follow((await authorizationRequest(rp)).url, server.url);
    expect(url.startsWith(rp.redirectUri)).toBe(true);
    expect(new URL(url).searchParams.get('code')).toBeTruthy();
  });

  it('takes a sign-in with the password and the authenticator app', async () => {
    const operator = await createAdmin(server.ctx, 'app-op@example.com', [{ role: 'operator' }]);
    const token = await adminSignIn(server.url, operator);
    expect(await adminCall(server.url, 'GET', '/me', { token })).toMatchObject({ status: 200, body: { operator: true } });
  });

  it('refuses a console sign-in whose second step was an e-mailed code, though the account also has a device', async () => {
    const { operator } = await deviceOnlyOperator('mail-op@example.com');
    await server.ctx.db.updateTable('users').set({ enable_mfa: 1, authenticator_type: 'email' }).where('id', '=', operator.id).execute();

    const rp = await adminConsole(server.url);
    const browser = new TestBrowser();
    const auth = await authorizationRequest(rp);
    const challenge = await startSignIn(browser, server.url, auth);
    const login = (await (await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username: operator.email, password: 'Passw0rd!', client_id: rp.clientId })).json()) as { mfaToken: string; tokenType: string };
    expect(login.tokenType).toBe('email');
    expect((await browser.postJson(`${server.url}/api/v1/mfa/trigger-challenge`, { token_type: 'email', mfa_token: login.mfaToken, client_id: rp.clientId })).status).toBe(200);
    const mfa = await browser.postJson(`${server.url}/api/v1/mfa/login`, { client_id: rp.clientId, token_type: 'email', mfa_token: login.mfaToken, otp: await lastCode(server.ctx, operator.email), challenge });
    const tokens = await finishSignIn(browser, server.url, rp, auth, ((await mfa.json()) as { redirectTo: string }).redirectTo);
    // Relying parties can tell an e-mailed code from the authenticator app.
    expect(tokens.claims()?.amr).toEqual(['pwd', 'email', 'mfa']);
    expect(await adminCall(server.url, 'GET', '/me', { token: tokens.access_token })).toMatchObject({ status: 403, body: { error: { code: 1307 } } });
  });

  it('with the password alone, an attacker cannot give a device-only operator an authenticator app or a device of their own', async () => {
    const { operator, authenticator } = await deviceOnlyOperator('takeover-op@example.com');
    const before = await userById(server.ctx, operator.id);
    const devicesBefore = await server.ctx.db.selectFrom('webauthn_credentials').select(['id', 'active']).where('user_id', '=', operator.id).execute();

    // The attacker signs in to the account area with the password (nothing more is asked)...
    const { token } = await accountSignIn(server.url, operator.email);
    const refusedCalls = [
      call(server.url, 'POST', '/api/v1/me/mfa/associate', { token, body: { password: 'Passw0rd!', authenticator_type: 'totp' } }),
      call(server.url, 'POST', '/api/v1/me/mfa/confirm', { token, body: { password: 'Passw0rd!', authenticator_type: 'totp', code: '123456' } }),
      call(server.url, 'POST', '/api/v1/me/mfa/disable', { token, body: { password: 'Passw0rd!' } }),
      call(server.url, 'GET', '/api/v1/webauthn-credentials/register', { token }),
      call(server.url, 'POST', '/api/v2/get-challenge', { token, body: { challenge_type: 'DELETION_WEBAUTHN', client_id: 'account', webauthn_credential_id: devicesBefore[0]?.id } }),
    ];
    for (const answer of await Promise.all(refusedCalls)) expect(answer).toMatchObject({ status: 403, body: { error: { code: 1307 } } });
    // ...and nothing of the account's factors changed, nor was any code sent.
    expect(await userById(server.ctx, operator.id)).toEqual(before);
    expect(await server.ctx.db.selectFrom('webauthn_credentials').select(['id', 'active']).where('user_id', '=', operator.id).execute()).toEqual(devicesBefore);

    // The owner, signed in to the account area with the device, sets up the app.
    const owner = await passkeySignIn(await relyingParty(server.url, 'account'), authenticator, operator.id);
    const associate = await call(server.url, 'POST', '/api/v1/me/mfa/associate', { token: owner.access_token, body: { password: 'Passw0rd!', authenticator_type: 'totp' } });
    expect(associate.status).toBe(200);
    const secret = String(associate.body.secret);
    const confirm = await call(server.url, 'POST', '/api/v1/me/mfa/confirm', { token: owner.access_token, body: { password: 'Passw0rd!', authenticator_type: 'totp', code: totpCode(secret) } });
    expect(confirm).toMatchObject({ status: 200, body: { enableMfa: true, authenticatorType: 'totp' } });
    // From then on, a password and the app's code are a strong sign-in, here too.
    const withApp = await adminSignIn(server.url, { ...operator, totpSecret: secret });
    expect(await adminCall(server.url, 'GET', '/me', { token: withApp })).toMatchObject({ status: 200 });
  });

  it('holds neither an admin setting up their first strong factor nor a user without an admin role', async () => {
    const newcomer = await createAdmin(server.ctx, 'new-op@example.com', [{ role: 'operator' }], { twoStep: false });
    const { token: adminToken } = await accountSignIn(server.url, newcomer.email);
    expect((await call(server.url, 'POST', '/api/v1/me/mfa/associate', { token: adminToken, body: { password: 'Passw0rd!', authenticator_type: 'totp' } })).status).toBe(200);

    // A plain user whose device is no 2-step (a password signs them in anyway) is not held either.
    const plain = await createAdmin(server.ctx, 'plain@example.com', [], { twoStep: false });
    const { token: plainToken } = await accountSignIn(server.url, plain.email);
    await activateDevice(server.ctx, server.url, plainToken, plain.email, await registerDevice(server.url, plainToken, new SoftwareAuthenticator(server.url)));
    expect((await call(server.url, 'POST', '/api/v1/me/mfa/associate', { token: plainToken, body: { password: 'Passw0rd!', authenticator_type: 'totp' } })).status).toBe(200);
  });
});
