import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { authorizationRequest, relyingParty, startSignIn } from '../../../test/relying-party.ts';
import { createAccount, userById } from '../../../test/account.ts';
import { parseAnswerBody, type Answer } from '../../../test/visitor.ts';
import { FAILURE_MEMORY_MS } from './lockout.ts';


/**
 * A lock decided at the 10th failure: none of 10 wrong passwords sent at once can be refused by a
 * lock the others set before it is counted, so exactly 10 must be counted.
 */
const ENV = { LOGIN_RATE_LIMIT_PER_IP: '1000', LOGIN_LOCKOUT_AFTER_FAILURES: '10' };

/** Starts a sign-in at `server` in a browser of its own; `login` posts from that browser to `at` (this or another instance). */
async function signInAttempt(server: TestServer) {
  const browser = new TestBrowser();
  const challenge = await startSignIn(browser, server.url, await authorizationRequest(await relyingParty(server.url, 'demo-app', 'demo-secret')));
  const raw = (username: string, password: string, at: TestServer = server) => browser.postJson(`${at.url}/api/v1/users/login`, { challenge, username, password });
  const login = async (username: string, password: string, at: TestServer = server): Promise<Answer> => {
    const response = await raw(username, password, at);
    return { status: response.status, body: parseAnswerBody(await response.text()) };
  };
  return Object.assign(login, { raw });
}

const wrongPasswords = (count: number) => Array.from({ length: count }, (_, i) => `wrong-password-${i}`);
const blocked = { status: 403, body: { error: { code: 1302, message: expect.any(String), retryAfter: expect.any(Number) } } };
const wrong = { status: 401, body: { error: { code: 1017, message: expect.any(String) } } };

describe('account lockout under concurrency, and for usernames without an account', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: ENV });
  });
  afterAll(() => server?.close());

  it('counts 10 wrong passwords sent at once exactly, and the account is locked', async () => {
    const id = await createAccount(server.ctx, { email: 'rush@example.com' });
    const login = await signInAttempt(server);
    const answers = await Promise.all(wrongPasswords(10).map((password) => login('rush@example.com', password)));
    expect(answers).toEqual(Array(10).fill(wrong));
    const user = await userById(server.ctx, id);
    expect(user?.failed_login_count).toBe(10);
    expect(user?.locked_until).toBeGreaterThan(Date.now());
    expect(await login('rush@example.com', 'Passw0rd!')).toEqual(blocked);
    // The answer says how long: the first lock is a minute (also as Retry-After, for any client).
    const raw = await login.raw('rush@example.com', 'Passw0rd!');
    expect(raw.headers.get('retry-after')).toBe('60');
    expect(((await raw.json()) as { error: { retryAfter: number } }).error.retryAfter).toBe(60);
    // Wrong passwords during the lock are counted too (and answered as the lock); the right one is not.
    expect(await Promise.all(wrongPasswords(3).map((password) => login('rush@example.com', password)))).toEqual(Array(3).fill(blocked));
    expect((await userById(server.ctx, id))?.failed_login_count).toBe(13);
  });

  it('answers an unknown username and a passwordless account exactly as an account with wrong passwords, lockout included', async () => {
    const withPassword = await createAccount(server.ctx, { email: 'twin@example.com' });
    const passwordless = await createAccount(server.ctx, { email: 'nopass@example.com' });
    await server.ctx.users.update(passwordless, { password_hash: null, registration_method: 'passwordless' });
    const login = await signInAttempt(server);
    const attempt = async () => {
      const known = await login('twin@example.com', 'not-the-password');
      expect(await login('ghost@example.com', 'not-the-password')).toEqual(known);
      expect(await login('NoPass@Example.com', 'not-the-password')).toEqual(known);
      return known;
    };

    const answers: Answer[] = [];
    for (let i = 0; i < 12; i += 1) answers.push(await attempt());
    expect(answers).toEqual([...Array(10).fill(wrong), blocked, blocked]);

    // The first lock over, the next failure (the 13th: those during the lock counted) locks again,
    // and the one during that lock doubles it: 2^4 minutes after the 14th, for all three alike.
    const expire = Date.now() - 1;
    await server.ctx.db.updateTable('users').set({ locked_until: expire }).where('id', '=', withPassword).execute();
    await server.ctx.db.updateTable('login_failures').set({ locked_until: expire }).where('tenant_id', '=', 'demo').where('failures', '>=', 10).execute();
    expect(await attempt()).toEqual(wrong);
    expect(await attempt()).toEqual(blocked);
    const locks = [
      (await userById(server.ctx, withPassword))!.locked_until!,
      ...(await server.ctx.db.selectFrom('login_failures').select('locked_until').where('failures', '=', 14).execute()).map((row) => row.locked_until!),
    ];
    expect(locks).toHaveLength(3);
    expect((await userById(server.ctx, withPassword))!.failed_login_count).toBe(14);
    for (const lockedUntil of locks) expect(lockedUntil - Date.now()).toBeGreaterThan(16 * 60_000 - 10_000);
    for (const lockedUntil of locks) expect(lockedUntil - Date.now()).toBeLessThanOrEqual(16 * 60_000);

    // A successful sign-in of the account still resets its own count (after its lock).
    await server.ctx.db.updateTable('users').set({ locked_until: null }).where('id', '=', withPassword).execute();
    expect((await login('twin@example.com', 'Passw0rd!')).status).toBe(200);
    expect(await userById(server.ctx, withPassword)).toMatchObject({ failed_login_count: 0, locked_until: null });
  });

  it('leaves the account row alone on a sign-in with no failure behind it, and forgets one failure on the next sign-in', async () => {
    const id = await createAccount(server.ctx, { email: 'clean@example.com' });
    const before = await userById(server.ctx, id);
    expect((await (await signInAttempt(server))('clean@example.com', 'Passw0rd!')).status).toBe(200);
    // Nothing to forget: the row is not rewritten (its updated_at is the same).
    expect(await userById(server.ctx, id)).toEqual(before);

    const login = await signInAttempt(server);
    expect(await login('clean@example.com', 'not-the-password')).toEqual(wrong);
    expect((await userById(server.ctx, id))?.failed_login_count).toBe(1);
    expect((await login('clean@example.com', 'Passw0rd!')).status).toBe(200);
    expect(await userById(server.ctx, id)).toMatchObject({ failed_login_count: 0, locked_until: null });
  });

  it('keeps no username in clear, only a keyed hash', async () => {
    const login = await signInAttempt(server);
    // People type their password into the username field.
    const typed = 'Sup3r.Secret@example.com';
    expect(await login(typed, 'whatever')).toEqual(wrong);
    const rows = await server.ctx.db.selectFrom('login_failures').selectAll().execute();
    expect(rows.length).toBeGreaterThanOrEqual(3);
    const stored = JSON.stringify(rows).toLowerCase();
    for (const username of [typed, 'ghost@example.com', 'nopass@example.com']) {
      expect(stored).not.toContain(username.toLowerCase());
      expect(stored).not.toContain(username.split('@')[0]!.toLowerCase());
      // Not a plain digest either, which anyone could compute for a guessed username.
      for (const encoding of ['hex', 'base64url', 'base64'] as const) {
        expect(stored).not.toContain(createHash('sha256').update(username.toLowerCase()).digest(encoding).toLowerCase());
      }
    }
    // Nor in the rate-limit budgets, when they live in Redis (npm run test:postgres).
    if (server.ctx.redis) {
      const keys = (await server.ctx.redis.keys('*')).join('\n').toLowerCase();
      expect(keys).not.toContain(typed.toLowerCase());
      expect(keys).not.toContain('ghost@example.com');
    }
  });

  it('forgets a run of failures a day after the last one, for accounts and unknown usernames alike, and deletes forgotten rows', async () => {
    const id = await createAccount(server.ctx, { email: 'dormant@example.com' });
    const login = await signInAttempt(server);
    for (const password of wrongPasswords(9)) {
      expect(await login('dormant@example.com', password)).toEqual(wrong);
      expect(await login('phantom@example.com', password)).toEqual(wrong);
    }
    const longAgo = Date.now() - FAILURE_MEMORY_MS - 60_000;
    await server.ctx.db.updateTable('users').set({ last_failed_login_at: longAgo }).where('id', '=', id).execute();
    await server.ctx.db.updateTable('login_failures').set({ last_failure_at: longAgo }).where('failures', '=', 9).execute();

    // The 10th failure would lock either; forgotten, both count from 1 again.
    expect(await login('dormant@example.com', 'still-wrong')).toEqual(wrong);
    expect(await userById(server.ctx, id)).toMatchObject({ failed_login_count: 1, locked_until: null });
    // The account's failure above pruned the forgotten row: the table keeps only recent usernames.
    expect(await server.ctx.db.selectFrom('login_failures').select('failures').where('last_failure_at', '<', Date.now() - FAILURE_MEMORY_MS).execute()).toEqual([]);
    expect(await login('phantom@example.com', 'still-wrong')).toEqual(wrong);
    expect(await server.ctx.db.selectFrom('login_failures').select(['failures', 'locked_until']).where('failures', '=', 9).execute()).toEqual([]);
  });
});

const sharedStores = Boolean(process.env.DATABASE_URL?.startsWith('postgres') && process.env.REDIS_URL);

/**
 * Two instances on one PostgreSQL and one Redis, as behind a load balancer (npm run test:postgres),
 * with the default threshold (5): the guesses that arrive once the lock is set are counted too.
 */
describe.skipIf(!sharedStores)('lockout across two instances', () => {
  let first: TestServer;
  let second: TestServer;
  const SHARED_ENV = { LOGIN_RATE_LIMIT_PER_IP: '1000' };
  const wrongOrBlocked = (answer: Answer) => expect([wrong, blocked]).toContainEqual(answer);
  beforeAll(async () => {
    first = await startTestServer({ env: SHARED_ENV });
    second = await startTestServer({ env: SHARED_ENV, shareWith: first });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('counts 10 wrong passwords sent at once to both exactly, and both refuse the right one', async () => {
    const id = await createAccount(first.ctx, { email: 'pair@example.com' });
    const login = await signInAttempt(first);
    const answers = await Promise.all(wrongPasswords(10).map((password, i) => login('pair@example.com', password, i % 2 ? second : first)));
    answers.forEach(wrongOrBlocked);
    const user = await userById(second.ctx, id);
    expect(user?.failed_login_count).toBe(10);
    expect(user?.locked_until).toBeGreaterThan(Date.now());
    expect(await login('pair@example.com', 'Passw0rd!', first)).toEqual(blocked);
    expect(await login('pair@example.com', 'Passw0rd!', second)).toEqual(blocked);
  });

  it('counts an unknown username the same way across both', async () => {
    const login = await signInAttempt(first);
    const answers = await Promise.all(wrongPasswords(10).map((password, i) => login('nobody-here@example.com', password, i % 2 ? second : first)));
    answers.forEach(wrongOrBlocked);
    const [row, ...others] = await first.ctx.db.selectFrom('login_failures').selectAll().execute();
    expect(others).toEqual([]);
    expect(row?.failures).toBe(10);
    expect(row?.locked_until).toBeGreaterThan(Date.now());
    expect(await login('nobody-here@example.com', 'whatever', first)).toEqual(blocked);
    expect(await login('nobody-here@example.com', 'whatever', second)).toEqual(blocked);
  });
});
