import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { authorizationRequest, finishSignIn, startSignIn } from '../../../test/relying-party.ts';
import { accountSignIn } from '../../../test/account.ts';
import { adminCall, adminConsole, adminSignIn, createAdmin } from '../../../test/admin.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { SoftwareAuthenticator } from '../../../test/software-authenticator.ts';
import { activateDevice, registerDevice } from '../../../test/webauthn.ts';

/**
 * The admin console asks for two factors of the sign-in itself, not of the account: an operator
 * whose only second factor is a device signed in with the password alone (a password sign-in asks
 * for nothing more of such an account), and the admin API took that token: a stolen password was
 * enough for every tenant (found by an attack run against a fresh build).
 */
describe('the admin API wants a sign-in with two factors', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { LOGIN_RATE_LIMIT_PER_IP: '1000' } });
  });
  afterAll(() => server?.close());

  it("refuses (403, 1304) the token of a password-only sign-in of an operator whose second factor is a device, and takes the device's", async () => {
    const operator = await createAdmin(server.ctx, 'device-op@example.com', [{ role: 'operator' }], { twoStep: false });
    const { token: accountToken } = await accountSignIn(server.url, operator.email);
    const authenticator = new SoftwareAuthenticator(server.url, { discoverable: true });
    await activateDevice(server.ctx, server.url, accountToken, operator.email, await registerDevice(server.url, accountToken, authenticator));

    // The password alone: the provider signs in (the account has no app or code to ask for)...
    const passwordOnly = await adminSignIn(server.url, operator);
    const refused = await adminCall(server.url, 'GET', '/me', { token: passwordOnly, language: 'en' });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 1304, message: expect.stringContaining('one factor only') } } });
    // ...and nothing of the admin API answers it.
    expect((await adminCall(server.url, 'GET', '/tenants', { token: passwordOnly })).status).toBe(403);
    expect((await adminCall(server.url, 'PATCH', '/tenants/demo', { token: passwordOnly, body: { name: 'Taken' } })).status).toBe(403);
    expect((await server.ctx.tenants.findById('demo'))?.name).not.toBe('Taken');

    // The same operator with the device (a passkey sign-in counts as both factors) is let in.
    const rp = await adminConsole(server.url);
    const browser = new TestBrowser();
    const auth = await authorizationRequest(rp);
    const challenge = await startSignIn(browser, server.url, auth);
    const options = (await (await browser.postJson(`${server.url}/api/v2/passkey-login/options`, { challenge })).json()) as { publickeyCredentialRequestOptions: { challenge: string } };
    const assertion = authenticator.assert(options.publickeyCredentialRequestOptions, {}, operator.id);
    const signedIn = (await (await browser.postJson(`${server.url}/api/v2/passkey-login`, { challenge, publickey_credential: assertion })).json()) as { redirectTo: string };
    const tokens = await finishSignIn(browser, server.url, rp, auth, signedIn.redirectTo);
    expect(tokens.claims()?.amr).toEqual(['hwk', 'user', 'mfa']);
    expect(await adminCall(server.url, 'GET', '/me', { token: tokens.access_token })).toMatchObject({ status: 200, body: { operator: true } });
  });

  it('takes a sign-in with the password and the authenticator app', async () => {
    const operator = await createAdmin(server.ctx, 'app-op@example.com', [{ role: 'operator' }]);
    const token = await adminSignIn(server.url, operator);
    expect(await adminCall(server.url, 'GET', '/me', { token })).toMatchObject({ status: 200, body: { operator: true } });
  });
});
