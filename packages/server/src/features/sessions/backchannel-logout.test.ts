import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { eventually } from '../../../test/eventually.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { authorizationRequest, relyingParty, signIn, oidc, type RelyingParty } from '../../../test/relying-party.ts';
import { accountSignIn, call, createAccount } from '../../../test/account.ts';
import { createClient, endCooldown, lastCode, postJson } from '../../../test/visitor.ts';
import { BACKCHANNEL_LOGOUT_TIMEOUT_MS } from '../../oidc/provider-fetch.ts';
import { runCli } from '../../../test/cli.ts';

/**
 * OpenID Connect Back-Channel Logout 1.0 over real HTTP: relying parties of this test receive the
 * logout tokens Passgate posts and verify them against the provider's JWKS, as a real one would.
 */

const LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

interface Delivery {
  path: string;
  contentType: string | undefined;
  logoutToken: string;
}

/** A relying party's back-channel endpoint: records every POST; a silent one never answers. */
async function startLogoutReceiver(mode: 'answer' | 'silent'): Promise<{ url: string; deliveries: Delivery[]; server: Server }> {
  const deliveries: Delivery[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      deliveries.push({ path: request.url ?? '', contentType: request.headers['content-type'], logoutToken: new URLSearchParams(body).get('logout_token') ?? '' });
      if (mode === 'answer') response.writeHead(200, { 'cache-control': 'no-store' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, deliveries, server };
}

describe('back-channel logout', () => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startLogoutReceiver>>;
  let silent: Awaited<ReturnType<typeof startLogoutReceiver>>;
  let jwks: ReturnType<typeof createRemoteJWKSet>;
  const rps: Record<string, RelyingParty> = {};

  beforeAll(async () => {
    receiver = await startLogoutReceiver('answer');
    silent = await startLogoutReceiver('silent');
    // The receivers listen on loopback, which outgoing requests refuse but for the tests' allowance.
    server = await startTestServer({ captureLogs: true, env: { OUTGOING_ALLOW_PRIVATE_HOSTS: '127.0.0.1', CODE_SENDS_PER_IP_PER_HOUR: '1000' } });
    const confidential = (id: string, settings: Record<string, unknown>) =>
      createClient(server.ctx, server.url, { id, tenantId: 'demo', tokenEndpointAuthMethod: 'client_secret_basic', secret: `${id}-secret`, postLogoutRedirectUris: [`${server.url}/demo`], ...settings });
    await confidential('bcl-sid', { backchannelLogoutUri: `${receiver.url}/sid`, backchannelLogoutSessionRequired: true });
    await confidential('bcl-sub', { backchannelLogoutUri: `${receiver.url}/sub` });
    await confidential('bcl-silent', { backchannelLogoutUri: `${silent.url}/logout`, backchannelLogoutSessionRequired: true });
    for (const id of ['bcl-sid', 'bcl-sub', 'bcl-silent']) rps[id] = await relyingParty(server.url, id, `${id}-secret`);
    rps['partner-shop'] = await relyingParty(server.url, 'partner-shop', 'partner-secret');
    jwks = createRemoteJWKSet(new URL(rps['bcl-sid']!.config.serverMetadata().jwks_uri!));
  });
  afterAll(async () => {
    await server?.close();
    for (const r of [receiver, silent]) {
      r?.server.closeAllConnections();
      r?.server.close();
    }
  });

  /** Checks a logout token as the relying party must (section 2.6 of the specification) and answers its claims. */
  async function verifyLogoutToken(token: string, clientId: string): Promise<JWTPayload> {
    const { payload } = await jwtVerify(token, jwks, { issuer: `${server.url}/oidc`, audience: clientId, maxTokenAge: '2 minutes' });
    expect(payload.iat).toEqual(expect.any(Number));
    expect(payload.jti).toEqual(expect.any(String));
    expect(payload.events).toEqual({ [LOGOUT_EVENT]: {} });
    expect(payload).not.toHaveProperty('nonce');
    expect(payload.sub ?? payload.sid).toBeTruthy();
    return payload;
  }

  const deliveredTo = (path: string, after: number) => receiver.deliveries.slice(after).filter((d) => d.path === path);

  async function signInTo(clientId: string, username: string, password: string, browser: TestBrowser) {
    const { tokens } = await signIn(server.url, rps[clientId]!, username, password, browser);
    return tokens.claims()!;
  }

  /** The whole RP-initiated logout of `clientId`, confirmed on Passgate's Logout screen; answers how long the final confirmation took. */
  async function rpInitiatedLogout(browser: TestBrowser, clientId: string, idToken: string): Promise<number> {
    const endSession = oidc.buildEndSessionUrl(rps[clientId]!.config, { id_token_hint: idToken, post_logout_redirect_uri: `${server.url}/demo` });
    const { url } = await browser.follow(endSession.toString(), server.url);
    const challenge = new URL(url).searchParams.get('challenge')!;
    const decision = await browser.postJson(`${server.url}/api/v1/requests/logout/${challenge}`, { confirmed: true });
    const { redirectTo } = (await decision.json()) as { redirectTo: string };
    const html = await (await browser.fetch(redirectTo)).text();
    const action = /action="([^"]+)"/.exec(html)![1]!;
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1]!;
    const started = Date.now();
    const confirm = await browser.fetch(action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ xsrf, logout: 'yes' }) });
    expect(confirm.status).toBe(303);
    return Date.now() - started;
  }

  async function resetPassword(username: string, password: string) {
    await endCooldown(server.ctx, 'demo', 'recovery', username);
    expect(await postJson(server.url, '/api/v1/password/recover', { client_id: 'demo-app', username })).toMatchObject({ status: 200 });
    const code = await lastCode(server.ctx, username);
    const started = Date.now();
    expect(await postJson(server.url, '/api/v1/password/reset', { client_id: 'demo-app', username, password, code })).toEqual({ status: 200, body: { ok: true } });
    return Date.now() - started;
  }

  it('is advertised in discovery, with sessions', () => {
    const metadata = rps['bcl-sid']!.config.serverMetadata();
    expect(metadata.backchannel_logout_supported).toBe(true);
    expect(metadata.backchannel_logout_session_supported).toBe(true);
  });

  it("on RP-initiated logout, posts a signed logout token to each relying party of the session that registered a URI, and nothing to the others", async () => {
    const userId = await createAccount(server.ctx, { email: 'rp-logout@example.com' });
    const browser = new TestBrowser();
    const { tokens } = await signIn(server.url, rps['bcl-sid']!, 'rp-logout@example.com', 'Passw0rd!', browser);
    await signInTo('bcl-sub', 'rp-logout@example.com', 'Passw0rd!', browser);
    await signInTo('partner-shop', 'rp-logout@example.com', 'Passw0rd!', browser);
    const before = receiver.deliveries.length;

    await rpInitiatedLogout(browser, 'bcl-sid', tokens.id_token!);

    const [withSid] = await eventually(() => (deliveredTo('/sid', before).length ? deliveredTo('/sid', before) : undefined));
    const [subOnly] = await eventually(() => (deliveredTo('/sub', before).length ? deliveredTo('/sub', before) : undefined));
    expect(withSid!.contentType).toBe('application/x-www-form-urlencoded');
    const sidClaims = await verifyLogoutToken(withSid!.logoutToken, 'bcl-sid');
    // The sid is the one in the relying party's ID token: it knows which of its sessions to end.
    expect(sidClaims).toMatchObject({ sub: userId, sid: tokens.claims()!.sid });
    const subClaims = await verifyLogoutToken(subOnly!.logoutToken, 'bcl-sub');
    expect(subClaims.sub).toBe(userId);
    expect(subClaims).not.toHaveProperty('sid');
    // A token for one relying party is refused by another.
    await expect(jwtVerify(withSid!.logoutToken, jwks, { issuer: `${server.url}/oidc`, audience: 'bcl-sub' })).rejects.toThrow();
    // partner-shop registered no URI: only the two above were posted to.
    expect(receiver.deliveries.length - before).toBe(2);
  });

  it('on a password reset, tells the relying parties of every session of the account', async () => {
    const userId = await createAccount(server.ctx, { email: 'rp-reset@example.com' });
    const first = await signInTo('bcl-sid', 'rp-reset@example.com', 'Passw0rd!', new TestBrowser());
    const second = await signInTo('bcl-sid', 'rp-reset@example.com', 'Passw0rd!', new TestBrowser());
    const before = receiver.deliveries.length;

    await resetPassword('rp-reset@example.com', 'Another-pass7');

    const delivered = await eventually(() => (deliveredTo('/sid', before).length === 2 ? deliveredTo('/sid', before) : undefined));
    const claims = await Promise.all(delivered.map((d) => verifyLogoutToken(d.logoutToken, 'bcl-sid')));
    expect(claims.map((c) => c.sub)).toEqual([userId, userId]);
    expect(claims.map((c) => c.sid).sort()).toEqual([first.sid, second.sid].sort());
    expect(new Set(claims.map((c) => c.jti)).size).toBe(2);
  });

  it('on account deletion, tells the relying parties the account was signed in to', async () => {
    const userId = await createAccount(server.ctx, { email: 'rp-leaver@example.com' });
    const { token, browser } = await accountSignIn(server.url, 'rp-leaver@example.com');
    const rpClaims = await signInTo('bcl-sid', 'rp-leaver@example.com', 'Passw0rd!', browser);
    const before = receiver.deliveries.length;

    const answer = await call(server.url, 'DELETE', '/api/v1/me', { token, body: { password: 'Passw0rd!', confirmation: 'rp-leaver@example.com' } });
    expect(answer.status).toBe(204);

    const [delivery] = await eventually(() => (deliveredTo('/sid', before).length ? deliveredTo('/sid', before) : undefined));
    expect(await verifyLogoutToken(delivery!.logoutToken, 'bcl-sid')).toMatchObject({ sub: userId, sid: rpClaims.sid });
  });

  it('on an operator signing a user out (passgate user sign-out), tells the relying parties and ends the sessions', async () => {
    const userId = await createAccount(server.ctx, { email: 'rp-admin@example.com' });
    const browser = new TestBrowser();
    const rpClaims = await signInTo('bcl-sid', 'rp-admin@example.com', 'Passw0rd!', browser);
    const before = receiver.deliveries.length;

    const { code, out, err } = await runCli(server, ['user', 'sign-out', '--tenant', 'demo', '--username', 'rp-admin@example.com']);
    expect(code, err).toBe(0);
    expect(out).toContain(userId);

    // The command waits for its deliveries before it exits: the token is there already.
    const [delivery] = deliveredTo('/sid', before);
    expect(await verifyLogoutToken(delivery!.logoutToken, 'bcl-sid')).toMatchObject({ sub: userId, sid: rpClaims.sid });
    // The session is gone: the relying party's next request asks for the login screen again.
    const again = await authorizationRequest(rps['bcl-sid']!);
    expect(new URL((await browser.follow(again.url, server.url)).url).pathname).toBe('/login');
    expect((await server.ctx.audit.listForUser(userId)).map((e) => e.type)).toContain('sessions.ended');
  });

  it('does not let a relying party that never answers slow or fail the user, and only logs the client and the reason', async () => {
    await createAccount(server.ctx, { email: 'rp-silent@example.com' });
    const browser = new TestBrowser();
    await signInTo('bcl-silent', 'rp-silent@example.com', 'Passw0rd!', browser);
    await signInTo('bcl-sid', 'rp-silent@example.com', 'Passw0rd!', browser);
    const before = receiver.deliveries.length;
    const silentBefore = silent.deliveries.length;
    const logsBefore = server.logs.length;

    // Passgate's own paths do not wait for the relying parties at all.
    expect(await resetPassword('rp-silent@example.com', 'Another-pass7')).toBeLessThan(BACKCHANNEL_LOGOUT_TIMEOUT_MS);
    // The one that answers is told all the same.
    await eventually(() => (deliveredTo('/sid', before).length ? true : undefined));
    const [unanswered] = await eventually(() => (silent.deliveries.length > silentBefore ? silent.deliveries.slice(silentBefore) : undefined));
    await verifyLogoutToken(unanswered!.logoutToken, 'bcl-silent');

    const warning = await eventually(() => server.logs.slice(logsBefore).find((line) => line.includes('back-channel logout') && line.includes('bcl-silent')), BACKCHANNEL_LOGOUT_TIMEOUT_MS + 3_000);
    expect(JSON.parse(warning)).toMatchObject({ level: 40, clientId: 'bcl-silent', reason: 'timeout' });
    expect(server.logs.join('\n')).not.toContain(unanswered!.logoutToken);
    expect((await fetch(`${server.url}/health/live`)).status).toBe(200);
  });

  it('ends an RP-initiated logout within the timeout when a relying party never answers', async () => {
    await createAccount(server.ctx, { email: 'rp-silent-logout@example.com' });
    const browser = new TestBrowser();
    const { tokens } = await signIn(server.url, rps['bcl-silent']!, 'rp-silent-logout@example.com', 'Passw0rd!', browser);
    const silentBefore = silent.deliveries.length;

    // The provider waits for the deliveries of its own logout, but never past the timeout.
    expect(await rpInitiatedLogout(browser, 'bcl-silent', tokens.id_token!)).toBeLessThan(BACKCHANNEL_LOGOUT_TIMEOUT_MS + 1_500);
    expect(silent.deliveries.length).toBe(silentBefore + 1);
    expect((await fetch(`${server.url}/health/live`)).status).toBe(200);
  });
});
