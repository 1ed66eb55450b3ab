import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { authorizationRequest, finishSignIn, relyingParty, startSignIn } from '../../../test/relying-party.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { accountSignIn, call, createAccount } from '../../../test/account.ts';
import { auditTypes, createClient, createTenant, endCooldown, lastCode, postJson } from '../../../test/visitor.ts';
import { createUserService } from '../users/users.service.ts';
import { REMEMBERED_BROWSER_COOKIE } from './remembered-browsers.ts';
import { createAdminRoleQueries } from '../admin/admin-roles.queries.ts';

const PASSWORD = 'Passw0rd!';
const DAY = 86_400_000;
const UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** A browser with a User-Agent, whose cookies a test can read and change like an attacker. */
class Browser extends TestBrowser {
  cookie(name: string): string | undefined {
    return this.cookieHeader().split('; ').find((pair) => pair.startsWith(`${name}=`))?.slice(name.length + 1);
  }

  /** Replaces the cookie jar's value (TestBrowser keeps cookies by name). */
  plant(name: string, value: string): void {
    (this as unknown as { cookies: Map<string, string> }).cookies.set(name, value);
  }

  override fetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('user-agent', UA);
    return super.fetch(url, { ...init, headers });
  }
}

/** "Remember this browser" for 2-step verification, over real HTTP (issue 16). */
describe('remembered browsers', () => {
  let server: TestServer;
  let n = 0;

  beforeAll(async () => {
    server = await startTestServer({ env: { LOGIN_RATE_LIMIT_PER_IP: '1000', CODE_SENDS_PER_IP_PER_HOUR: '1000' } });
    // A tenant that keeps the default: 'Remember this browser' off.
    await createTenant(server.ctx, { id: 'plain', passwordHistorySize: 0 });
    await createClient(server.ctx, server.url, { id: 'plain-app', tenantId: 'plain', permissions: ['users:email:login'] });
  });
  afterAll(() => server?.close());
  afterEach(() => vi.useRealTimers());

  const me = (token: string, method: string, path: string, body?: unknown) => call(server.url, method, `/api/v1/me/${path}`, { token, body });
  const rows = (userId: string) => server.ctx.db.selectFrom('remembered_browsers').selectAll().where('user_id', '=', userId).execute();

  /** A demo-tenant account with 2-step on by e-mail code, and its account-area token. */
  async function accountWithMfa() {
    n += 1;
    const email = `remember${n}@example.com`;
    const id = await createAccount(server.ctx, { email });
    const { token } = await accountSignIn(server.url, email);
    await turnOn(token, email);
    return { id, email, token };
  }

  async function turnOn(token: string, email: string) {
    await endCooldown(server.ctx, 'demo', 'mfa_setup', email);
    expect((await me(token, 'POST', 'mfa/associate', { password: PASSWORD, authenticator_type: 'email' })).status).toBe(200);
    expect((await me(token, 'POST', 'mfa/confirm', { password: PASSWORD, authenticator_type: 'email', code: await lastCode(server.ctx, email) })).status).toBe(200);
  }

  /** The password step of a sign-in at `clientId` in `browser`: mfaRequired with its token, or the finished redirect. */
  async function passwordStep(browser: Browser, username: string, password = PASSWORD, clientId = 'demo-app') {
    const rp = await relyingParty(server.url, clientId, 'demo-secret');
    const auth = await authorizationRequest(rp);
    const challenge = await startSignIn(browser, server.url, auth);
    const response = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username, password, client_id: clientId });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { mfaRequired?: boolean; mfaToken?: string; redirectTo?: string };
    return { rp, auth, challenge, body };
  }

  /** Passes the e-mail second step, ticking 'Remember this browser' when `remember`. */
  async function secondStep(browser: Browser, step: Awaited<ReturnType<typeof passwordStep>>, email: string, remember: boolean, clientId = 'demo-app', tenantId = 'demo') {
    await endCooldown(server.ctx, tenantId, 'mfa', email);
    const trigger = await browser.postJson(`${server.url}/api/v1/mfa/trigger-challenge`, { client_id: clientId, token_type: 'email', mfa_token: step.body.mfaToken });
    expect(trigger.status).toBe(200);
    const response = await browser.postJson(`${server.url}/api/v1/mfa/login`, {
      client_id: clientId,
      token_type: 'email',
      mfa_token: step.body.mfaToken,
      challenge: step.challenge,
      otp: await lastCode(server.ctx, email),
      remember_browser: remember,
    });
    expect(response.status).toBe(200);
    return { response, redirectTo: ((await response.json()) as { redirectTo: string }).redirectTo };
  }

  /** Signs in with the password and the second step, remembering the browser; answers it. */
  async function rememberedBrowser(email: string, password = PASSWORD): Promise<Browser> {
    const browser = new Browser();
    const step = await passwordStep(browser, email, password);
    expect(step.body.mfaRequired).toBe(true);
    expect(step.body).not.toHaveProperty('rememberBrowser');
    const { response } = await secondStep(browser, step, email, true);
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith(`${REMEMBERED_BROWSER_COOKIE}=`));
    expect(cookie).toBeDefined();
    return browser;
  }

  it('a ticked box sets an HttpOnly cookie for 30 days; the next sign-in skips the second step and the tokens come back', async () => {
    const account = await accountWithMfa();
    const browser = new Browser();
    const first = await passwordStep(browser, account.email);
    const { response } = await secondStep(browser, first, account.email, true);
    const line = response.headers.getSetCookie().find((l) => l.startsWith(`${REMEMBERED_BROWSER_COOKIE}=`))!;
    expect(line).toMatch(/; Max-Age=2592000; Path=\/api\/v1\/; HttpOnly; SameSite=Lax$/);
    const value = browser.cookie(REMEMBERED_BROWSER_COOKIE)!;
    const [id, secret] = value.split('.');
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // Stored: the digest only, bound to the user and the tenant, described for people.
    const [row, ...others] = await rows(account.id);
    expect(others).toEqual([]);
    expect(row).toMatchObject({ id, tenant_id: 'demo', user_agent: 'Chrome 131 · Windows 10' });
    expect(row!.expires_at - row!.created_at).toBe(30 * DAY);
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(JSON.stringify(await server.ctx.db.selectFrom('audit_events').selectAll().where('user_id', '=', account.id).execute())).not.toContain(secret);
    expect((await me(account.token, 'GET', 'remembered-browsers')).body).toEqual({ count: 1 });

    const again = await passwordStep(browser, account.email);
    expect(again.body.mfaRequired).toBeUndefined();
    expect(again.body.redirectTo).toBeDefined();
    const tokens = await finishSignIn(browser, server.url, again.rp, again.auth, again.body.redirectTo!);
    expect(tokens.claims()!.sub).toBe(account.id);
    expect(await auditTypes(server.ctx, account.id)).toContain('mfa.skipped_remembered');

    // Without the box ticked nothing is remembered.
    const other = new Browser();
    const plain = await passwordStep(other, account.email);
    const unticked = await secondStep(other, plain, account.email, false);
    expect(unticked.response.headers.getSetCookie().some((l) => l.startsWith(REMEMBERED_BROWSER_COOKIE))).toBe(false);
    expect(await rows(account.id)).toHaveLength(1);
  });

  it('a password reset, or a new password set by the command line, ends it: the next sign-in asks again', async () => {
    const account = await accountWithMfa();
    const browser = await rememberedBrowser(account.email);
    await endCooldown(server.ctx, 'demo', 'recovery', account.email);
    expect((await postJson(server.url, '/api/v1/password/recover', { client_id: 'demo-app', username: account.email })).status).toBe(200);
    const code = await lastCode(server.ctx, account.email);
    expect(await postJson(server.url, '/api/v1/password/reset', { client_id: 'demo-app', username: account.email, code, password: 'Another-pass7' })).toEqual({ status: 200, body: { ok: true } });
    expect(await rows(account.id)).toEqual([]);
    expect((await passwordStep(browser, account.email, 'Another-pass7')).body.mfaRequired).toBe(true);

    // Remembered again with the new password, then the operator sets another one.
    const again = await rememberedBrowser(account.email, 'Another-pass7');
    expect(await rows(account.id)).toHaveLength(1);
    await createUserService({ db: server.ctx.db }).setPassword('demo', account.email, 'Interim-pass9');
    expect(await rows(account.id)).toEqual([]);
    expect((await passwordStep(again, account.email, 'Interim-pass9')).body.mfaRequired).toBe(true);
  });

  it('changing the password on the Security page ends it: the next sign-in asks again', async () => {
    const account = await accountWithMfa();
    const browser = await rememberedBrowser(account.email);
    const changed = await me(account.token, 'POST', 'password', { current_password: PASSWORD, new_password: 'Changed-pass8' });
    expect(changed).toMatchObject({ status: 200, body: { ok: true } });
    expect(await rows(account.id)).toEqual([]);
    expect((await passwordStep(browser, account.email, 'Changed-pass8')).body.mfaRequired).toBe(true);
  });

  it('turning 2-step off, or on again, ends it', async () => {
    const account = await accountWithMfa();
    const browser = await rememberedBrowser(account.email);
    expect((await me(account.token, 'POST', 'mfa/disable', { password: PASSWORD })).status).toBe(200);
    expect(await rows(account.id)).toEqual([]);

    await turnOn(account.token, account.email);
    expect((await passwordStep(browser, account.email)).body.mfaRequired).toBe(true);

    // Remembered again, then 2-step set up anew (another method): ended too.
    const again = await rememberedBrowser(account.email);
    expect(await rows(account.id)).toHaveLength(1);
    await turnOn(account.token, account.email);
    expect(await rows(account.id)).toEqual([]);
    expect((await passwordStep(again, account.email)).body.mfaRequired).toBe(true);
  });

  it("'Forget all browsers' ends every one of them, audited; the endpoint takes only the account client's bearer token", async () => {
    const account = await accountWithMfa();
    const one = await rememberedBrowser(account.email);
    const two = await rememberedBrowser(account.email);
    expect((await me(account.token, 'GET', 'remembered-browsers')).body).toEqual({ count: 2 });

    // No token, or a relying party's token: refused, nothing forgotten.
    expect((await call(server.url, 'DELETE', '/api/v1/me/remembered-browsers')).status).toBe(401);
    const elsewhere = new Browser();
    const rpStep = await passwordStep(elsewhere, account.email);
    const { redirectTo } = await secondStep(elsewhere, rpStep, account.email, false);
    const rpTokens = await finishSignIn(elsewhere, server.url, rpStep.rp, rpStep.auth, redirectTo);
    expect((await call(server.url, 'DELETE', '/api/v1/me/remembered-browsers', { token: rpTokens.access_token })).status).toBe(401);
    expect(await rows(account.id)).toHaveLength(2);

    expect(await me(account.token, 'DELETE', 'remembered-browsers')).toMatchObject({ status: 200, body: { count: 0 } });
    expect(await rows(account.id)).toEqual([]);
    expect(await auditTypes(server.ctx, account.id)).toContain('mfa.remembered_browsers_forgotten');
    for (const browser of [one, two]) expect((await passwordStep(browser, account.email)).body.mfaRequired).toBe(true);
  });

  it("another account's cookie is ignored: that account's second step is still asked", async () => {
    const ann = await accountWithMfa();
    const bob = await accountWithMfa();
    const browser = await rememberedBrowser(ann.email);
    const step = await passwordStep(browser, bob.email);
    expect(step.body.mfaRequired).toBe(true);
    expect(await auditTypes(server.ctx, bob.id)).toContain('mfa.remembered_browser_refused');
    // Ann's is untouched and still works for Ann.
    expect(await rows(ann.id)).toHaveLength(1);
    expect((await passwordStep(browser, ann.email)).body.mfaRequired).toBeUndefined();

    // Ann's cookie copied into a browser where Bob signs in: the same.
    const copied = new Browser();
    copied.plant(REMEMBERED_BROWSER_COOKIE, browser.cookie(REMEMBERED_BROWSER_COOKIE)!);
    expect((await passwordStep(copied, bob.email)).body.mfaRequired).toBe(true);
  });

  it('a tampered secret, a made-up id or garbage is refused and changes nothing', async () => {
    const account = await accountWithMfa();
    const browser = await rememberedBrowser(account.email);
    const value = browser.cookie(REMEMBERED_BROWSER_COOKIE)!;
    const [id, secret] = value.split('.') as [string, string];
    const before = await rows(account.id);
    const flipped = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    for (const forged of [`${id}.${flipped}`, `${'x'.repeat(22)}.${secret}`, `${id}.${secret}.extra`, 'garbage', `${id}.`]) {
      const attacker = new Browser();
      attacker.plant(REMEMBERED_BROWSER_COOKIE, forged);
      expect((await passwordStep(attacker, account.email)).body.mfaRequired).toBe(true);
    }
    expect(await rows(account.id)).toEqual(before);
    // The genuine cookie still works.
    expect((await passwordStep(browser, account.email)).body.mfaRequired).toBeUndefined();
  });

  it('past its days (the clock moved on, the cookie kept by the browser) it is refused and the row deleted', async () => {
    const account = await accountWithMfa();
    const browser = await rememberedBrowser(account.email);
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(Date.now() + 29 * DAY);
    expect((await passwordStep(browser, account.email)).body.mfaRequired).toBeUndefined();
    vi.setSystemTime(Date.now() + 2 * DAY);
    expect((await passwordStep(browser, account.email)).body.mfaRequired).toBe(true);
    expect(await rows(account.id)).toEqual([]);
  });

  it('the tenant lowering its days shortens what was remembered; turning the setting off stops every skip', async () => {
    const account = await accountWithMfa();
    const browser = await rememberedBrowser(account.email);
    const tenants = (await import('../tenants/tenants.service.ts')).createTenantService({ db: server.ctx.db });
    try {
      await tenants.update('demo', { rememberBrowserDays: 0 });
      expect((await passwordStep(browser, account.email)).body.mfaRequired).toBe(true);
      await tenants.update('demo', { rememberBrowserDays: 30 });
      expect((await passwordStep(browser, account.email)).body.mfaRequired).toBeUndefined();
      vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
      vi.setSystemTime(Date.now() + 3 * DAY);
      await tenants.update('demo', { rememberBrowserDays: 2 });
      expect((await passwordStep(browser, account.email)).body.mfaRequired).toBe(true);
    } finally {
      vi.useRealTimers();
      await tenants.update('demo', { rememberBrowserDays: 30 });
    }
  });

  it('a tenant with the setting off (the default) offers nothing: the box is ignored and no cookie is set', async () => {
    expect(await server.ctx.tenants.findById('plain')).toMatchObject({ rememberBrowserDays: null });
    const rp = await relyingParty(server.url, 'plain-app');
    const auth = await authorizationRequest(rp);
    const browser = new Browser();
    const challenge = await startSignIn(browser, server.url, auth);
    const info = await browser.fetch(`${server.url}/api/v1/requests/login/${challenge}`);
    expect(((await info.json()) as { client: { tenant: { rememberBrowserDays: unknown } } }).client.tenant.rememberBrowserDays).toBeNull();

    const email = 'plain-remember@example.com';
    const users = createUserService({ db: server.ctx.db });
    const user = await users.createUser({ tenantId: 'plain', email, name: 'P', password: PASSWORD });
    await server.ctx.users.update(user.id, { enable_mfa: 1, authenticator_type: 'email' });
    const response = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username: email, password: PASSWORD, client_id: 'plain-app' });
    const body = (await response.json()) as { mfaRequired?: boolean; mfaToken?: string };
    expect(body.mfaRequired).toBe(true);
    const { response: done } = await secondStep(browser, { rp, auth, challenge, body }, email, true, 'plain-app', 'plain');
    expect(done.headers.getSetCookie().some((l) => l.startsWith(REMEMBERED_BROWSER_COOKIE))).toBe(false);
    expect(await rows(user.id)).toEqual([]);
  });

  it('the admin console always asks: a remembered browser does not skip its second step, and it neither offers nor sets the cookie', async () => {
    const account = await accountWithMfa();
    const browser = await rememberedBrowser(account.email);
    const rp = await relyingParty(server.url, 'admin-console');
    const auth = await authorizationRequest(rp, { redirect_uri: `${server.url}/admin/callback` });
    const challenge = await startSignIn(browser, server.url, auth);
    const info = (await (await browser.fetch(`${server.url}/api/v1/requests/login/${challenge}`)).json()) as { client: { tenant: { rememberBrowserDays: number | null } } };
    expect(info.client.tenant.rememberBrowserDays).toBeNull();

    const response = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username: account.email, password: PASSWORD, client_id: 'admin-console' });
    const body = (await response.json()) as { mfaRequired?: boolean; mfaToken?: string };
    expect(body.mfaRequired).toBe(true);
    const before = await rows(account.id);
    const { response: done } = await secondStep(browser, { rp, auth, challenge, body }, account.email, true, 'admin-console');
    expect(done.headers.getSetCookie().some((l) => l.startsWith(REMEMBERED_BROWSER_COOKIE))).toBe(false);
    expect(await rows(account.id)).toEqual(before);
    // The relying party's sign-ins in the same browser still skip it.
    expect((await passwordStep(browser, account.email)).body.mfaRequired).toBeUndefined();
  });

  it('an administrator is always asked: a browser remembered before the role was granted skips nothing, and the box then remembers nothing', async () => {
    const account = await accountWithMfa();
    const browser = await rememberedBrowser(account.email);
    await createAdminRoleQueries(server.ctx.db).grant(account.id, 'operator', null, 'test');

    const step = await passwordStep(browser, account.email);
    // Asked again, and told the box will not be offered.
    expect(step.body).toMatchObject({ mfaRequired: true, rememberBrowser: false });
    expect(await auditTypes(server.ctx, account.id)).toContain('mfa.remembered_browser_refused');
    const { response } = await secondStep(browser, step, account.email, true);
    expect(response.headers.getSetCookie().some((line) => line.startsWith(`${REMEMBERED_BROWSER_COOKIE}=`))).toBe(false);
    expect(await rows(account.id)).toHaveLength(1);
  });

  it('keeps at most 20 browsers per account, the newest', async () => {
    const account = await accountWithMfa();
    const { createRememberedBrowsers } = await import('./remembered-browsers.ts');
    const remembered = createRememberedBrowsers(server.ctx);
    const user = (await server.ctx.users.findById(account.id))!;
    const start = Date.now();
    for (let i = 0; i < 23; i += 1) await remembered.remember(user, 'demo-app', UA, start + i);
    const kept = await rows(account.id);
    expect(kept).toHaveLength(20);
    expect(Math.min(...kept.map((row) => row.created_at))).toBe(start + 3);
  });

  it('the demo tenant and the CLI flag: days 1..365, 0 turns it off', async () => {
    const tenants = (await import('../tenants/tenants.service.ts')).createTenantService({ db: server.ctx.db });
    await expect(tenants.create({ id: 'bounds', name: 'B', rememberBrowserDays: 366 })).rejects.toThrow(/rememberBrowserDays/);
    await expect(tenants.create({ id: 'bounds', name: 'B', rememberBrowserDays: -1 })).rejects.toThrow(/rememberBrowserDays/);
    expect((await tenants.create({ id: 'bounds', name: 'B', rememberBrowserDays: 365 })).rememberBrowserDays).toBe(365);
    expect((await tenants.update('bounds', { rememberBrowserDays: 0 })).tenant.rememberBrowserDays).toBeNull();
    expect((await server.ctx.tenants.findById('demo'))?.rememberBrowserDays).toBe(30);
  });
});
