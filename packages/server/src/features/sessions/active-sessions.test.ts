import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodeJwt } from 'jose';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { eventually } from '../../../test/eventually.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { authorizationRequest, oidc, relyingParty, signIn, type RelyingParty } from '../../../test/relying-party.ts';
import { accountSignIn, call, createAccount } from '../../../test/account.ts';
import { auditTypes, createClient } from '../../../test/visitor.ts';
import { writeTinyMmdb } from '../../../test/mmdb.ts';
import { ACTIVITY_WRITE_INTERVAL_MS } from './session-activity.queries.ts';

/**
 * 'Where you're signed in' over real HTTP: sign-ins from browsers that say who they are, listed to
 * the account area; signing one out ends its provider session, its grants' tokens and tells its
 * relying parties (back-channel logout), and nobody can sign out another person's session.
 */

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

interface Item {
  id: string;
  browser: string;
  os: string;
  ip: string | null;
  place?: string;
  signedInAt: string;
  lastActiveAt: string;
  applications: { clientId: string; name: string }[];
  current: boolean;
}

/** A relying party's back-channel logout endpoint that records every token posted to it. */
async function startLogoutReceiver(): Promise<{ url: string; tokens: string[]; server: Server }> {
  const tokens: string[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      tokens.push(new URLSearchParams(body).get('logout_token') ?? '');
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/logout`, tokens, server };
}

describe('active sessions', () => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startLogoutReceiver>>;
  let shop: RelyingParty;
  const dir = mkdtempSync(join(tmpdir(), 'passgate-sessions-'));

  beforeAll(async () => {
    receiver = await startLogoutReceiver();
    // Every request of these tests comes from 127.0.0.1, which this little database places in Hanoi.
    const geoip = join(dir, 'city.mmdb');
    writeTinyMmdb(geoip, '127.0.0.0', 8, { city: { names: { en: 'Hanoi' } }, country: { iso_code: 'VN', names: { en: 'Vietnam' } } });
    server = await startTestServer({ env: { GEOIP_DB: geoip, OUTGOING_ALLOW_PRIVATE_HOSTS: '127.0.0.1' } });
    await createClient(server.ctx, server.url, {
      id: 'sessions-shop',
      name: 'Sessions Shop',
      tenantId: 'demo',
      tokenEndpointAuthMethod: 'client_secret_basic',
      secret: 'sessions-shop-secret',
      backchannelLogoutUri: receiver.url,
      backchannelLogoutSessionRequired: true,
    });
    shop = await relyingParty(server.url, 'sessions-shop', 'sessions-shop-secret');
  });
  afterAll(async () => {
    await server?.close();
    receiver?.server.closeAllConnections();
    receiver?.server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const list = async (token: string, language = 'en') => {
    const answer = await call(server.url, 'GET', '/api/v1/me/sessions', { token, language });
    expect(answer.status).toBe(200);
    return (answer.body as { items: Item[] }).items;
  };

  /** A request of the relying party that must not show a login screen: answers the callback's parameters. */
  async function silently(browser: TestBrowser, rp: RelyingParty, scope = 'openid profile email phone') {
    const auth = await authorizationRequest(rp, { prompt: 'none', scope });
    const { url } = await browser.follow(auth.url, server.url);
    expect(url.startsWith(rp.redirectUri)).toBe(true);
    return new URL(url).searchParams;
  }

  it('lists each browser’s session with its browser, OS, address, place, applications and times, the current one marked', async () => {
    const userId = await createAccount(server.ctx, { email: 'two-browsers@example.com' });
    const before = Date.now();
    const laptop = await accountSignIn(server.url, 'two-browsers@example.com', 'Passw0rd!', new TestBrowser(CHROME_WINDOWS));
    const phone = await accountSignIn(server.url, 'two-browsers@example.com', 'Passw0rd!', new TestBrowser(FIREFOX_LINUX));
    await signIn(server.url, shop, 'two-browsers@example.com', 'Passw0rd!', phone.browser);

    const items = await list(laptop.token);
    expect(items).toHaveLength(2);
    const [first, second] = items as [Item, Item];
    expect(first).toMatchObject({ current: true, browser: 'Chrome 131', os: 'Windows 10', ip: '127.0.0.1', place: 'Hanoi, Vietnam', applications: [{ clientId: 'account', name: expect.any(String) }] });
    expect(second).toMatchObject({ current: false, browser: 'Firefox 133', os: 'Linux', ip: '127.0.0.1' });
    expect(second.applications.map((a) => a.name)).toContain('Sessions Shop');
    expect(second.applications.map((a) => a.clientId).sort()).toEqual(['account', 'sessions-shop']);
    for (const item of items) {
      expect(Date.parse(item.signedInAt)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
      expect(Date.parse(item.lastActiveAt)).toBeGreaterThanOrEqual(Date.parse(item.signedInAt));
    }
    // The other browser sees the same two, with itself marked; the place in the reader's language.
    const fromPhone = await list(phone.token, 'vi');
    expect(fromPhone.map((i) => [i.id, i.current])).toEqual([
      [second.id, true],
      [first.id, false],
    ]);
    expect(fromPhone[0]!.place).toBe('Hanoi, Việt Nam');

    // The ids are opaque: neither the session's uid nor its cookie value.
    const sessions = await server.ctx.db.selectFrom('oidc_payloads').select(['id', 'uid']).where('model', '=', 'Session').where('account_id', '=', userId).execute();
    const secrets = sessions.flatMap((s) => [s.id, s.uid]);
    for (const item of items) expect(secrets.some((secret) => secret && item.id.includes(secret))).toBe(false);
  });

  it('signing another session out ends it: its refresh token, access token and cookie stop working, its relying party is told', async () => {
    const userId = await createAccount(server.ctx, { email: 'sign-out-one@example.com' });
    const laptop = await accountSignIn(server.url, 'sign-out-one@example.com', 'Passw0rd!', new TestBrowser(CHROME_WINDOWS));
    const phoneBrowser = new TestBrowser(FIREFOX_LINUX);
    const phone = await accountSignIn(server.url, 'sign-out-one@example.com', 'Passw0rd!', phoneBrowser);
    const { tokens: shopTokens } = await signIn(server.url, shop, 'sign-out-one@example.com', 'Passw0rd!', phoneBrowser, { scope: 'openid profile offline_access' });
    expect(shopTokens.refresh_token).toEqual(expect.any(String));
    // Both work before: the refresh token refreshes, the cookie signs in silently.
    const refreshed = await oidc.refreshTokenGrant(shop.config, shopTokens.refresh_token!);
    expect((await silently(phoneBrowser, shop, 'openid profile')).get('code')).toBeTruthy();
    const other = (await list(laptop.token)).find((i) => !i.current)!;
    const tokensBefore = receiver.tokens.length;

    const answer = await call(server.url, 'DELETE', `/api/v1/me/sessions/${other.id}`, { token: laptop.token });
    expect(answer.status).toBe(204);

    await expect(oidc.refreshTokenGrant(shop.config, refreshed.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await silently(phoneBrowser, shop, 'openid profile')).get('error')).toBe('login_required');
    expect((await call(server.url, 'GET', '/api/v1/me', { token: phone.token })).status).toBe(401);
    await expect(oidc.fetchUserInfo(shop.config, refreshed.access_token, userId)).rejects.toThrow();
    // Deleted, not merely refused: gone from the store that held them (Redis, with REDIS_URL).
    expect(await server.ctx.provider.AccessToken.find(refreshed.access_token)).toBeUndefined();
    expect(await server.ctx.provider.AccessToken.find(phone.token)).toBeUndefined();
    // The relying party gets a logout token for the very session its ID token named.
    const logoutToken = await eventually(() => receiver.tokens[tokensBefore]);
    expect(decodeJwt(logoutToken)).toMatchObject({ sub: userId, aud: 'sessions-shop', sid: shopTokens.claims()!.sid });
    // This session lives on, alone in the list; the ending is audited with the user as the actor.
    const left = await list(laptop.token);
    expect(left.map((i) => i.current)).toEqual([true]);
    expect(await auditTypes(server.ctx, userId)).toContain('session.ended');
    const audit = await server.ctx.db.selectFrom('audit_events').select(['details', 'user_agent']).where('user_id', '=', userId).where('type', '=', 'session.ended').executeTakeFirstOrThrow();
    expect(JSON.parse(audit.details!)).toMatchObject({ by: 'user', session: other.id, clients: expect.arrayContaining(['account', 'sessions-shop']) });
    // Its activity row went with it.
    expect(await server.ctx.db.selectFrom('session_activity').select('session_uid').where('user_id', '=', userId).execute()).toHaveLength(1);
  });

  it('will not sign out the current session (1110), and leaves it working', async () => {
    await createAccount(server.ctx, { email: 'current-one@example.com' });
    const { token } = await accountSignIn(server.url, 'current-one@example.com');
    const [current] = await list(token);
    const answer = await call(server.url, 'DELETE', `/api/v1/me/sessions/${current!.id}`, { token });
    expect(answer).toMatchObject({ status: 400, body: { error: { code: 1110, field: 'id' } } });
    expect((await list(token)).map((i) => i.id)).toEqual([current!.id]);
  });

  it('answers 404 for another user’s session and changes nothing', async () => {
    const victimId = await createAccount(server.ctx, { email: 'victim@example.com' });
    await createAccount(server.ctx, { email: 'attacker@example.com' });
    const victimBrowser = new TestBrowser(SAFARI_IPHONE);
    const victim = await accountSignIn(server.url, 'victim@example.com', 'Passw0rd!', victimBrowser);
    const attacker = await accountSignIn(server.url, 'attacker@example.com');
    const [victimSession] = await list(victim.token);

    const answer = await call(server.url, 'DELETE', `/api/v1/me/sessions/${victimSession!.id}`, { token: attacker.token });
    expect(answer).toMatchObject({ status: 404, body: { error: { code: 1404 } } });
    // A made-up id is the same 404; one that is not an id at all is a bad field.
    expect((await call(server.url, 'DELETE', '/api/v1/me/sessions/nope', { token: attacker.token })).status).toBe(404);
    expect(await call(server.url, 'DELETE', `/api/v1/me/sessions/${'x'.repeat(80)}`, { token: attacker.token })).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'id' } } });
    // Signing out the attacker's others touches nobody else's.
    expect(await call(server.url, 'POST', '/api/v1/me/sessions/sign-out-others', { token: attacker.token })).toMatchObject({ status: 200, body: { signedOut: 0 } });

    expect((await list(victim.token)).map((i) => i.id)).toEqual([victimSession!.id]);
    expect((await silently(victimBrowser, await relyingParty(server.url, 'account'))).get('code')).toBeTruthy();
    expect(await auditTypes(server.ctx, victimId)).not.toContain('session.ended');
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${server.url}/api/docs`)).json()) as { paths: Record<string, Record<string, { security?: unknown }>> };
    expect(Object.keys(doc.paths['/api/v1/me/sessions'] ?? {})).toContain('get');
    expect(Object.keys(doc.paths['/api/v1/me/sessions/{id}'] ?? {})).toContain('delete');
    expect(doc.paths['/api/v1/me/sessions/sign-out-others']?.post?.security).toEqual([{ bearerAuth: [] }]);
  });

  it('needs the account area’s token', async () => {
    expect((await call(server.url, 'GET', '/api/v1/me/sessions')).status).toBe(401);
    expect((await call(server.url, 'POST', '/api/v1/me/sessions/sign-out-others')).status).toBe(401);
    expect((await call(server.url, 'DELETE', '/api/v1/me/sessions/abc')).status).toBe(401);
    // A relying party's token is not the account area's.
    await createAccount(server.ctx, { email: 'rp-token@example.com' });
    const { tokens } = await signIn(server.url, shop, 'rp-token@example.com', 'Passw0rd!');
    expect((await call(server.url, 'GET', '/api/v1/me/sessions', { token: tokens.access_token })).status).toBe(401);
  });

  it('signing out all others keeps this session and ends the rest', async () => {
    const userId = await createAccount(server.ctx, { email: 'many@example.com' });
    const here = await accountSignIn(server.url, 'many@example.com', 'Passw0rd!', new TestBrowser(CHROME_WINDOWS));
    const others = [await accountSignIn(server.url, 'many@example.com', 'Passw0rd!', new TestBrowser(FIREFOX_LINUX)), await accountSignIn(server.url, 'many@example.com', 'Passw0rd!', new TestBrowser(SAFARI_IPHONE))];
    expect(await list(here.token)).toHaveLength(3);

    expect(await call(server.url, 'POST', '/api/v1/me/sessions/sign-out-others', { token: here.token })).toMatchObject({ status: 200, body: { signedOut: 2 } });

    const left = await list(here.token);
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ current: true, browser: 'Chrome 131' });
    for (const other of others) expect((await call(server.url, 'GET', '/api/v1/me', { token: other.token })).status).toBe(401);
    expect((await auditTypes(server.ctx, userId)).filter((t) => t === 'session.ended')).toHaveLength(2);
  });

  it('moves last activity on refresh-token grants at most once a minute, and drops the rows of sessions that ended elsewhere', async () => {
    const userId = await createAccount(server.ctx, { email: 'activity@example.com' });
    const browser = new TestBrowser(CHROME_WINDOWS);
    const { token } = await accountSignIn(server.url, 'activity@example.com', 'Passw0rd!', browser);
    const { tokens } = await signIn(server.url, shop, 'activity@example.com', 'Passw0rd!', browser, { scope: 'openid offline_access' });
    const row = () => server.ctx.db.selectFrom('session_activity').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
    const signedIn = await row();

    // Written a moment ago: a refresh now writes nothing.
    const refreshed = await oidc.refreshTokenGrant(shop.config, tokens.refresh_token!);
    expect((await row()).last_active_at).toBe(signedIn.last_active_at);
    // Once the last write is over a minute old, the next refresh moves it (and only the time).
    // (The clock moves on too: the process also remembers its own recent writes.)
    const longAgo = signedIn.last_active_at - ACTIVITY_WRITE_INTERVAL_MS - 1_000;
    await server.ctx.db.updateTable('session_activity').set({ last_active_at: longAgo }).where('user_id', '=', userId).execute();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + ACTIVITY_WRITE_INTERVAL_MS + 1_000 });
    try {
      await oidc.refreshTokenGrant(shop.config, refreshed.refresh_token!);
    } finally {
      vi.useRealTimers();
    }
    const after = await row();
    expect(after.last_active_at).toBeGreaterThan(longAgo);
    expect(after).toMatchObject({ created_at: signedIn.created_at, ip: '127.0.0.1', user_agent: CHROME_WINDOWS });

    // A session that ended some other way (here: its provider row gone) leaves the list and the table.
    const other = await accountSignIn(server.url, 'activity@example.com', 'Passw0rd!', new TestBrowser(FIREFOX_LINUX));
    expect(await list(token)).toHaveLength(2);
    const otherUid = (await server.ctx.provider.AccessToken.find(other.token))!.sessionUid!;
    await server.ctx.db.deleteFrom('oidc_payloads').where('model', '=', 'Session').where('uid', '=', otherUid).execute();
    expect(await list(token)).toHaveLength(1);
    expect(await server.ctx.db.selectFrom('session_activity').select('session_uid').where('session_uid', '=', otherUid).execute()).toEqual([]);
  });

  it('deletes lapsed rows of anyone as new sessions begin', async () => {
    const userId = await createAccount(server.ctx, { email: 'lapsed@example.com' });
    await server.ctx.db
      .insertInto('session_activity')
      .values({ session_uid: 'lapsed-session', user_id: userId, tenant_id: 'demo', created_at: 1, last_active_at: 1, ip: null, user_agent: null, expires_at: Date.now() - 1 })
      .execute();
    await accountSignIn(server.url, 'lapsed@example.com');
    expect(await server.ctx.db.selectFrom('session_activity').select('session_uid').where('session_uid', '=', 'lapsed-session').execute()).toEqual([]);
  });
});
