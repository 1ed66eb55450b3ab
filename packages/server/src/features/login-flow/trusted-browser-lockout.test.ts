import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { accountSignIn, call, createAccount, userById } from '../../../test/account.ts';
import { runCli } from '../../../test/cli.ts';
import { adminCall, adminSignIn, createAdmin } from '../../../test/admin.ts';
import { authorizationRequest, finishSignIn, relyingParty, signIn, startSignIn, type RelyingParty } from '../../../test/relying-party.ts';
import { parseAnswerBody, type Answer } from '../../../test/visitor.ts';
import { noticesIdle } from '../known-browsers/notice-delivery.ts';
import { BROWSER_KEY_COOKIE } from '../known-browsers/new-browser-notice.ts';
import { databaseEngine } from '../../db/database.ts';

/**
 * Whoever knows a username can keep its account locked with a wrong password now and then. A
 * browser the owner has signed in from before is not held by that lock: it has a lock of its own.
 */
const ENV = { LOGIN_RATE_LIMIT_PER_IP: '1000', LOGIN_LOCKOUT_AFTER_FAILURES: '5' };
const PASSWORD = 'Passw0rd!';
const blocked = { status: 403, body: { error: { code: 1302, message: expect.any(String), retryAfter: expect.any(Number) } } };
const wrong = { status: 401, body: { error: { code: 1017, message: expect.any(String) } } };

describe('a browser the account trusts, while others lock the account', () => {
  let server: TestServer;
  let demoApp: RelyingParty;
  beforeAll(async () => {
    server = await startTestServer({ env: ENV });
    demoApp = await relyingParty(server.url, 'demo-app', 'demo-secret');
  });
  afterAll(() => server?.close());

  /** A sign-in started in `browser` (prompt=login: the provider's session does not skip the screen). */
  async function attempt(browser: TestBrowser) {
    const auth = await authorizationRequest(demoApp, { prompt: 'login' });
    const challenge = await startSignIn(browser, server.url, auth);
    const login = async (username: string, password: string): Promise<Answer & { redirectTo?: string }> => {
      const response = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username, password, client_id: 'demo-app' });
      const body = parseAnswerBody(await response.text()) as { redirectTo?: string };
      return { status: response.status, body, ...(body.redirectTo ? { redirectTo: body.redirectTo } : {}) };
    };
    return { challenge, login, finish: (redirectTo: string) => finishSignIn(browser, server.url, demoApp, auth, redirectTo) };
  }

  /** The owner's browser after one sign-in: it holds its key, and the account knows it. */
  async function ownersBrowser(email: string): Promise<TestBrowser> {
    const { browser } = await signIn(server.url, demoApp, email, PASSWORD);
    await noticesIdle(server.ctx);
    expect(browser.has(BROWSER_KEY_COOKIE)).toBe(true);
    return browser;
  }

  it('gives the browser its key for the whole site, so the sign-in API sees it', async () => {
    await createAccount(server.ctx, { email: 'path@example.com' });
    const browser = new TestBrowser();
    const auth = await authorizationRequest(demoApp);
    const challenge = await startSignIn(browser, server.url, auth);
    const response = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username: 'path@example.com', password: PASSWORD, client_id: 'demo-app' });
    const { redirectTo } = (await response.json()) as { redirectTo: string };
    // The resume request that completes the sign-in sets the key.
    let setCookie: string[] = [];
    for (let url = redirectTo; url.startsWith(server.url); ) {
      const step = await browser.fetch(url);
      setCookie = setCookie.concat(step.headers.getSetCookie());
      const location = step.headers.get('location');
      if (!location) break;
      url = new URL(location, url).toString();
    }
    const key = setCookie.find((line) => line.startsWith(`${BROWSER_KEY_COOKIE}=`));
    expect(key).toMatch(/; path=\/;/);
    expect(key).toMatch(/httponly/i);
  });

  it("signs the owner in from a known browser while a stranger's wrong passwords lock the account, and keeps the lock for the stranger", async () => {
    const id = await createAccount(server.ctx, { email: 'owner@example.com' });
    const owner = await ownersBrowser('owner@example.com');

    // The stranger sends more wrong passwords than the account's lock and budget allow.
    const stranger = await attempt(new TestBrowser());
    const answers: Answer[] = [];
    for (let i = 0; i < 22; i += 1) answers.push(await stranger.login('owner@example.com', `guess-${i}`));
    expect(answers.slice(0, 4)).toEqual(Array(4).fill(wrong));
    expect(answers.slice(5).every((answer) => answer.status === 403 || answer.status === 429)).toBe(true);
    const lockedUntil = (await userById(server.ctx, id))?.locked_until;
    expect(lockedUntil).toBeGreaterThan(Date.now());

    // The owner, from the browser the account knows, with the right password: signed in.
    const ownersTry = await attempt(owner);
    const answer = await ownersTry.login('owner@example.com', PASSWORD);
    expect(answer.status).toBe(200);
    const tokens = await ownersTry.finish(answer.redirectTo!);
    expect(tokens.claims()?.sub).toBe(id);

    // The lock stands for every other browser, the right password included, and is not shortened.
    const user = await userById(server.ctx, id);
    expect(user?.locked_until).toBe(lockedUntil);
    expect(user?.failed_login_count).toBeGreaterThanOrEqual(5);
    // (429 once the account's budget of tries is spent, 1302 before.)
    const again = await attempt(new TestBrowser());
    const refused = await again.login('owner@example.com', PASSWORD);
    expect(refused.status === 429 ? refused.status : refused).toEqual(refused.status === 429 ? 429 : blocked);
  });

  it("does not trust another account's browser key: a stranger's own known browser is locked out like any other", async () => {
    await createAccount(server.ctx, { email: 'victim@example.com' });
    await createAccount(server.ctx, { email: 'stranger@example.com' });
    const strangersBrowser = await ownersBrowser('stranger@example.com');
    const stranger = await attempt(strangersBrowser);
    for (let i = 0; i < 5; i += 1) expect(await stranger.login('victim@example.com', `guess-${i}`)).toEqual(wrong);
    expect(await stranger.login('victim@example.com', PASSWORD)).toEqual(blocked);
  });

  it('locks a known browser after its own wrong passwords, as the account would be, without locking the account', async () => {
    const id = await createAccount(server.ctx, { email: 'typo@example.com' });
    const owner = await ownersBrowser('typo@example.com');
    const ownersTry = await attempt(owner);
    for (let i = 0; i < 5; i += 1) expect(await ownersTry.login('typo@example.com', `typo-${i}`)).toEqual(wrong);
    // Locked: the right password too, with how long to wait.
    expect(await ownersTry.login('typo@example.com', PASSWORD)).toEqual(blocked);
    // The account itself was not touched: another browser signs in with the right password.
    expect((await userById(server.ctx, id))?.locked_until ?? null).toBeNull();
    const other = await attempt(new TestBrowser());
    expect((await other.login('typo@example.com', PASSWORD)).status).toBe(200);
  });

  /** Sends wrong passwords from `browser` until its own lock refuses the right one too. */
  async function lockOut(browser: TestBrowser, email: string) {
    const tries = await attempt(browser);
    for (let i = 0; i < 5; i += 1) expect(await tries.login(email, `typo-${i}`)).toEqual(wrong);
    expect(await tries.login(email, PASSWORD)).toEqual(blocked);
  }

  const failureRows = () => server.ctx.db.selectFrom('login_failures').select(['tenant_id', 'username_hash', 'failures', 'locked_until']).orderBy('username_hash').execute();

  it("lifts the locks of the account's trusted browsers when an admin unlocks it, and no other account's", async () => {
    const id = await createAccount(server.ctx, { email: 'unlocked@example.com' });
    await createAccount(server.ctx, { email: 'bystander@example.com' });
    const owner = await ownersBrowser('unlocked@example.com');
    const bystander = await ownersBrowser('bystander@example.com');
    await lockOut(owner, 'unlocked@example.com');
    await lockOut(bystander, 'bystander@example.com');
    const admin = await createAdmin(server.ctx, 'unlocker@example.com', [{ role: 'tenant-admin', tenantId: 'demo' }]);
    const token = await adminSignIn(server.url, admin);

    const before = await failureRows();
    expect(await adminCall(server.url, 'POST', `/tenants/demo/users/${id}/unlock`, { token })).toMatchObject({ status: 200, body: { locked: false, failedLoginCount: 0 } });
    // Exactly one run of failures is gone, its count with its lock: the unlocked account's browser's.
    const after = await failureRows();
    expect(after).toHaveLength(before.length - 1);
    expect(before).toEqual(expect.arrayContaining(after));

    // The owner's browser, at once, with the right password: signed in.
    const ownersTry = await attempt(owner);
    const answer = await ownersTry.login('unlocked@example.com', PASSWORD);
    expect(answer.status).toBe(200);
    expect((await ownersTry.finish(answer.redirectTo!)).claims()?.sub).toBe(id);

    // The other account's browser is still held by its own lock, the right password included.
    expect(await (await attempt(bystander)).login('bystander@example.com', PASSWORD)).toEqual(blocked);
  });

  it("lifts the trusted browsers' locks with any new password: changed in the account area, or set by an operator", async () => {
    await createAccount(server.ctx, { email: 'changer@example.com' });
    await createAccount(server.ctx, { email: 'operated@example.com' });
    const changer = await ownersBrowser('changer@example.com');
    const operated = await ownersBrowser('operated@example.com');
    await lockOut(changer, 'changer@example.com');
    await lockOut(operated, 'operated@example.com');

    // The owner, signed in elsewhere (the account itself is not locked), changes the password.
    const { token } = await accountSignIn(server.url, 'changer@example.com');
    expect(await call(server.url, 'POST', '/api/v1/me/password', { token, body: { current_password: PASSWORD, new_password: 'N3w-Secret-Tree' } })).toMatchObject({ status: 200 });
    expect((await (await attempt(changer)).login('changer@example.com', 'N3w-Secret-Tree')).status).toBe(200);
    // Not the other account's browser, which is still locked.
    expect(await (await attempt(operated)).login('operated@example.com', PASSWORD)).toEqual(blocked);

    // An operator sets a password from the command line.
    expect((await runCli(server, ['user', 'set-password', '--tenant', 'demo', '--username', 'operated@example.com', '--password', 'Fresh-Start-42'])).code).toBe(0);
    expect((await (await attempt(operated)).login('operated@example.com', 'Fresh-Start-42')).status).toBe(200);
  });

  it('answers 503 with Retry-After, at once and counting nothing, when the database fails while it reads whether the browser is known', async () => {
    const id = await createAccount(server.ctx, { email: 'outage@example.com' });
    const owner = await ownersBrowser('outage@example.com');
    // A run of failures on the account already, from elsewhere: it must neither grow nor be reset.
    const stranger = await attempt(new TestBrowser());
    for (let i = 0; i < 2; i += 1) expect(await stranger.login('outage@example.com', `guess-${i}`)).toEqual(wrong);
    const before = await userById(server.ctx, id);
    expect(before?.failed_login_count).toBe(2);
    const rowsBefore = await failureRows();
    const auditBefore = await server.ctx.db.selectFrom('audit_events').select('type').where('user_id', '=', id).execute();

    // The database as its driver fails mid-outage, for the read of known_browsers alone: the
    // request's earlier reads (the account, the client) succeed, so only that read can be the cause.
    const lost =
      databaseEngine(server.ctx.config.databaseUrl) === 'sqlite'
        ? Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_READ' })
        : Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    let knownBrowserReads = 0;
    const failKnownBrowsers: KyselyPlugin = {
      transformQuery({ node }) {
        if (node.kind === 'SelectQueryNode' && JSON.stringify(node.from).includes('"known_browsers"')) {
          knownBrowserReads += 1;
          throw lost;
        }
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    const primary = server.ctx.db;
    (server.ctx as { db: unknown }).db = primary.withPlugin(failKnownBrowsers);
    let response: Response;
    const started = Date.now();
    try {
      const ownersTry = await attempt(owner);
      response = await owner.fetch(`${server.url}/api/v1/users/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ challenge: ownersTry.challenge, username: 'outage@example.com', password: 'a-wrong-one', client_id: 'demo-app' }),
        signal: AbortSignal.timeout(10_000),
      });
    } finally {
      (server.ctx as { db: unknown }).db = primary;
    }
    expect(knownBrowserReads).toBe(1);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect({ status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() }).toEqual({
      status: 503,
      retryAfter: expect.stringMatching(/^[1-9]\d*$/),
      body: { error: { code: 1294, message: expect.any(String), requestId: expect.any(String) } },
    });

    // Nothing was counted, on the account or on any browser, and no failure was recorded.
    const after = await userById(server.ctx, id);
    expect({ count: after?.failed_login_count, at: after?.last_failed_login_at, lockedUntil: after?.locked_until }).toEqual({
      count: before?.failed_login_count,
      at: before?.last_failed_login_at,
      lockedUntil: before?.locked_until,
    });
    expect(await failureRows()).toEqual(rowsBefore);
    expect(await server.ctx.db.selectFrom('audit_events').select('type').where('user_id', '=', id).execute()).toEqual(auditBefore);

    // Once the database answers again, the owner's browser signs in as before.
    const again = await attempt(owner);
    expect((await again.login('outage@example.com', PASSWORD)).status).toBe(200);
  });
});
