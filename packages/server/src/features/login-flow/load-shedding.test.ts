import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { authorizationRequest, relyingParty, startSignIn } from '../../../test/relying-party.ts';
import { createAccount, userById } from '../../../test/account.ts';
import { argon2InFlight, argon2Slot } from '../../lib/passwords.ts';

/** One argon2 job at a time and one waiting: the test holds the slot itself, so the queue is full on cue. */
const ENV = { ARGON2_CONCURRENCY: '1', ARGON2_MAX_QUEUE: '1', LOGIN_RATE_LIMIT_PER_IP: '1000' };

async function signInAttempt(server: TestServer) {
  const browser = new TestBrowser();
  const challenge = await startSignIn(browser, server.url, await authorizationRequest(await relyingParty(server.url, 'demo-app', 'demo-secret')));
  return async (username: string, password: string) => {
    const response = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username, password });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Record<string, any> };
  };
}

/**
 * Until the request sent before has reached its password check (the slot the test holds, and its
 * own): vi.waitFor's default second was too short for a registration on PostgreSQL on a slow machine.
 */
const untilBothInFlight = () => vi.waitFor(() => expect(argon2InFlight()).toBe(2), { timeout: 20_000, interval: 20 });

const loginFailures = async (server: TestServer, userId: string) =>
  server.ctx.db.selectFrom('audit_events').select('type').where('user_id', '=', userId).where('type', '=', 'login.failure').execute();

describe('load shedding of password checks', () => {
  let server: TestServer;
  let release: (() => void) | undefined;
  beforeAll(async () => {
    server = await startTestServer({ env: ENV });
  });
  afterEach(() => release?.());
  afterAll(() => server?.close());

  it('answers 503 with Retry-After and 1294 at once when the queue is full, and counts nothing', async () => {
    const id = await createAccount(server.ctx, { email: 'busy@example.com' });
    const queued = await signInAttempt(server);
    const shed = await signInAttempt(server);
    const ghost = await signInAttempt(server);

    release = await argon2Slot();
    const waiting = queued('busy@example.com', 'wrong-password');
    await untilBothInFlight();

    // The slot is still held: these are answered without any password being checked.
    expect(await shed('busy@example.com', 'Passw0rd!')).toEqual({
      status: 503,
      retryAfter: expect.stringMatching(/^\d+$/),
      body: { error: { code: 1294, message: expect.any(String), requestId: expect.any(String) } },
    });
    expect(await ghost('nobody@example.com', 'whatever')).toMatchObject({ status: 503, body: { error: { code: 1294 } } });
    expect((await userById(server.ctx, id))?.failed_login_count).toBe(0);
    expect(await loginFailures(server, id)).toEqual([]);

    release();
    release = undefined;
    expect(await waiting).toMatchObject({ status: 401, body: { error: { code: 1017 } } });
    expect((await userById(server.ctx, id))?.failed_login_count).toBe(1);
    expect(argon2InFlight()).toBe(0);

    // Nothing is left stuck: the shed attempts can simply be sent again.
    expect(await shed('busy@example.com', 'Passw0rd!')).toMatchObject({ status: 200, body: { redirectTo: expect.any(String) } });
    expect(await ghost('nobody@example.com', 'whatever')).toMatchObject({ status: 401, body: { error: { code: 1017 } } });
  });

  it('keeps the sign-in budgets during an overload: a flood is still refused as one (429)', async () => {
    await createAccount(server.ctx, { email: 'flooded@example.com' });
    const attempt = await signInAttempt(server);
    const filler = await signInAttempt(server);
    release = await argon2Slot();
    const waiting = filler('nobody-else@example.com', 'whatever');
    await untilBothInFlight();
    // The account's budget is LOGIN_LOCKOUT_AFTER_FAILURES x 4 = 20 attempts a quarter of an hour.
    const statuses: number[] = [];
    for (let i = 0; i < 22; i += 1) statuses.push((await attempt('flooded@example.com', 'Passw0rd!')).status);
    expect(statuses).toEqual([...Array(20).fill(503), 429, 429]);
    release();
    release = undefined;
    await waiting;
    expect((await attempt('flooded@example.com', 'Passw0rd!')).status).toBe(429);
  });

  it('sheds registrations too, before anything is stored', async () => {
    release = await argon2Slot();
    const first = fetch(`${server.url}/api/v1/users/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'first@example.com', password: 'Passw0rd!', name: 'First', client_id: 'demo-app' }),
    });
    await untilBothInFlight();
    const second = await fetch(`${server.url}/api/v1/users/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'second@example.com', password: 'Passw0rd!', name: 'Second', client_id: 'demo-app' }),
    });
    expect([second.status, second.headers.get('retry-after'), ((await second.json()) as { error: { code: number } }).error.code]).toEqual([503, expect.any(String), 1294]);
    expect(await server.ctx.db.selectFrom('users').select('id').where('email', '=', 'second@example.com').execute()).toEqual([]);
    release();
    release = undefined;
    expect((await first).status).toBeLessThan(300);
  });
});
