import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { authorizationRequest, oidc, relyingParty, signIn, startSignIn, type RelyingParty } from '../../../test/relying-party.ts';
import { createAccount } from '../../../test/account.ts';
import { createClient } from '../../../test/visitor.ts';
import { runCli } from '../../../test/cli.ts';
import { createUserService } from './users.service.ts';

/**
 * A password set by an operator (`passgate user set-password`) signs the account out everywhere,
 * as a password reset does: the operator sets one when the account was taken over, so whoever held
 * its sessions or refresh tokens must not go on with them. Over real HTTP, with a real relying party.
 */
describe('user set-password ends the sessions', () => {
  let server: TestServer;
  let demoApp: RelyingParty;
  let bcl: RelyingParty;
  let receiver: Server;
  const logoutTokens: string[] = [];

  beforeAll(async () => {
    // A relying party's back-channel logout endpoint, on loopback (allowed for the tests).
    receiver = createServer((request: IncomingMessage, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        logoutTokens.push(new URLSearchParams(body).get('logout_token') ?? '');
        response.writeHead(200, { 'cache-control': 'no-store' }).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    server = await startTestServer({ env: { OUTGOING_ALLOW_PRIVATE_HOSTS: '127.0.0.1', LOGIN_RATE_LIMIT_PER_IP: '1000' } });
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    await createClient(server.ctx, server.url, {
      id: 'bcl-app',
      tenantId: 'demo',
      tokenEndpointAuthMethod: 'client_secret_basic',
      secret: 'bcl-app-secret',
      backchannelLogoutUri: `${receiverUrl}/logout`,
      backchannelLogoutSessionRequired: true,
    });
    demoApp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    bcl = await relyingParty(server.url, 'bcl-app', 'bcl-app-secret');
  });
  afterAll(async () => {
    await server?.close();
    receiver?.closeAllConnections();
    receiver?.close();
  });

  const cli = (args: string[]) => runCli(server, args);

  /** A sign-in at demo-app with a refresh token, and at bcl-app in the same browser (one provider session). */
  async function signedIn(email: string) {
    const browser = new TestBrowser();
    const { tokens } = await signIn(server.url, demoApp, email, 'Passw0rd!', browser, { scope: 'openid profile email offline_access' });
    expect(tokens.refresh_token).toBeTruthy();
    const bclTokens = (await signIn(server.url, bcl, email, 'Passw0rd!', browser)).tokens;
    return { browser, refreshToken: tokens.refresh_token!, sid: bclTokens.claims()!.sid as string };
  }

  /** A new authorization request with prompt=none in `browser`: the code, or the error it is answered with. */
  async function silently(browser: TestBrowser) {
    const { url } = await browser.follow((await authorizationRequest(demoApp, { prompt: 'none', scope: 'openid profile email' })).url, server.url);
    expect(url.startsWith(demoApp.redirectUri)).toBe(true);
    const params = new URL(url).searchParams;
    return { code: params.get('code'), error: params.get('error') };
  }

  /** The login API's answer to a password sign-in at demo-app. */
  async function login(username: string, password: string) {
    const browser = new TestBrowser();
    const challenge = await startSignIn(browser, server.url, await authorizationRequest(demoApp));
    const response = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username, password, client_id: 'demo-app' });
    return { status: response.status, body: (await response.json()) as any };
  }

  const auditOf = async (userId: string) =>
    (await server.ctx.audit.listForUser(userId)).map((e) => ({ type: e.type, details: typeof e.details === 'string' ? (JSON.parse(e.details) as unknown) : e.details }));

  it('through the command line: the refresh token and the browser session stop working, relying parties are told, the new password signs in', async () => {
    const email = 'taken-over@example.com';
    const userId = await createAccount(server.ctx, { email });
    const { browser, refreshToken, sid } = await signedIn(email);
    // Before: the refresh token gets new access tokens, the browser session signs in silently.
    expect((await oidc.refreshTokenGrant(demoApp.config, refreshToken)).access_token).toBeTruthy();
    expect((await silently(browser)).code).toBeTruthy();
    const before = logoutTokens.length;

    const set = await cli(['user', 'set-password', '--tenant', 'demo', '--username', email, '--password', 'Fresh-Start-42']);
    expect(set.code, set.err).toBe(0);
    expect(set.out).toContain(userId);
    expect(set.out).not.toContain('Fresh-Start-42');

    await expect(oidc.refreshTokenGrant(demoApp.config, refreshToken)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await silently(browser)).toEqual({ code: null, error: 'login_required' });
    // The command waited for its deliveries before it exited: the logout token is there already.
    expect(logoutTokens.length - before).toBe(1);
    expect(decodeJwt(logoutTokens[before]!)).toMatchObject({ sub: userId, sid, aud: 'bcl-app' });
    expect(await server.ctx.db.selectFrom('oidc_payloads').select('id').where('account_id', '=', userId).execute()).toEqual([]);

    expect(await login(email, 'Passw0rd!')).toMatchObject({ status: 401, body: { error: { code: 1017 } } });
    expect(await login(email, 'Fresh-Start-42')).toMatchObject({ status: 200, body: { redirectTo: expect.any(String) } });
    expect(await auditOf(userId)).toEqual(
      expect.arrayContaining([
        { type: 'password.changed', details: { by: 'cli' } },
        { type: 'sessions.ended', details: { by: 'cli', reason: 'password_set' } },
      ]),
    );
  });

  it('a refused password (policy, or one used recently) ends nothing', async () => {
    const email = 'kept@example.com';
    await createAccount(server.ctx, { email });
    const { browser, refreshToken } = await signedIn(email);
    const before = logoutTokens.length;

    expect(await cli(['user', 'set-password', '--tenant', 'demo', '--username', email, '--password', 'short'])).toMatchObject({ code: 1 });
    expect(await cli(['user', 'set-password', '--tenant', 'demo', '--username', email, '--password', 'Passw0rd!'])).toMatchObject({ code: 1 });

    expect((await oidc.refreshTokenGrant(demoApp.config, refreshToken)).access_token).toBeTruthy();
    expect((await silently(browser)).code).toBeTruthy();
    expect(logoutTokens.length).toBe(before);
    expect((await login(email, 'Passw0rd!')).status).toBe(200);
  });

  it('through the service with the database alone (the demo seed, tests): the sessions, grants and refresh tokens go all the same', async () => {
    const email = 'db-only@example.com';
    const userId = await createAccount(server.ctx, { email });
    const { browser, refreshToken } = await signedIn(email);

    const { user, delivered } = await createUserService({ db: server.ctx.db }).setPassword('demo', email, 'Fresh-Start-43');
    await delivered;
    expect(user.id).toBe(userId);

    await expect(oidc.refreshTokenGrant(demoApp.config, refreshToken)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await silently(browser)).toEqual({ code: null, error: 'login_required' });
    expect((await login(email, 'Fresh-Start-43')).status).toBe(200);
  });
});
