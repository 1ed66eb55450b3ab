import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/test-server.ts';
import { TestBrowser } from '../test/browser.ts';
import { authorizationRequest, relyingParty, startSignIn } from '../test/relying-party.ts';

/** The address the trusted proxy saw: what the per-IP budgets must count by. */
const CLIENT = '203.0.113.7';
const randomAddress = () => `198.51.${randomInt(256)}.${randomInt(1, 255)}`;

/**
 * The per-IP budgets (sign-in, code sends) over real HTTP, with a client that writes a new
 * X-Forwarded-For on every request. The test connects from 127.0.0.1; where it plays a proxy, it
 * appends CLIENT as a proxy appends the address it saw, after whatever the client sent.
 */
describe.each([
  { label: '1', trustProxy: '1', forwardedFor: () => `${randomAddress()}, ${randomAddress()}, ${CLIENT}`, countedAs: CLIENT },
  { label: '127.0.0.1', trustProxy: '127.0.0.1', forwardedFor: () => `${randomAddress()}, ${randomAddress()}, ${CLIENT}`, countedAs: CLIENT },
  { label: 'unset', trustProxy: undefined, forwardedFor: () => randomAddress(), countedAs: '127.0.0.1' },
])('TRUST_PROXY $label: the client chooses no per-IP key', ({ trustProxy, forwardedFor, countedAs }) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ env: { LOGIN_RATE_LIMIT_PER_IP: '3', CODE_SENDS_PER_IP_PER_HOUR: '3', ...(trustProxy ? { TRUST_PROXY: trustProxy } : {}) } });
  });
  afterAll(() => server?.close());

  it(`spends the sign-in budget of ${countedAs}, whatever X-Forwarded-For says`, async () => {
    const browser = new TestBrowser();
    const challenge = await startSignIn(browser, server.url, await authorizationRequest(await relyingParty(server.url, 'demo-app', 'demo-secret')));
    const answers: { status: number; code: number }[] = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await browser.fetch(`${server.url}/api/v1/users/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor() },
        body: JSON.stringify({ challenge, username: 'demo@example.com', password: `wrong-${i}` }),
      });
      answers.push({ status: response.status, code: ((await response.json()) as { error: { code: number } }).error.code });
    }
    expect(answers).toEqual([
      { status: 401, code: 1017 },
      { status: 401, code: 1017 },
      { status: 401, code: 1017 },
      { status: 429, code: 1290 },
    ]);
    const failures = await server.ctx.db.selectFrom('audit_events').select('ip').where('type', '=', 'login.failure').execute();
    expect(failures.map((f) => f.ip)).toEqual([countedAs, countedAs, countedAs]);
  });

  it(`spends the code-send budget of ${countedAs}, whatever X-Forwarded-For says`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      // A new username each time, so only the per-IP budget can refuse.
      const response = await fetch(`${server.url}/api/v1/password/recover`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor() },
        body: JSON.stringify({ client_id: 'demo-app', username: `nobody-${i}@example.com` }),
      });
      statuses.push(response.status);
      if (response.status === 429) expect(((await response.json()) as { error: { code: number } }).error.code).toBe(1290);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

/**
 * An IPv6 client picks any address of its /64 (every subscriber and cloud machine gets one), and
 * an IPv4 address may reach us written as IPv6: neither may buy a new per-IP budget. The test
 * plays a trusted proxy that reports each request from another address of one network.
 */
describe('per-IP budgets count an IPv6 client by its /64 and an IPv4 client however it is written', () => {
  let server: TestServer;
  const hex = () => randomInt(1, 0xffff).toString(16);

  beforeAll(async () => {
    server = await startTestServer({ env: { LOGIN_RATE_LIMIT_PER_IP: '3', CODE_SENDS_PER_IP_PER_HOUR: '3', TRUST_PROXY: '1' } });
  });
  afterAll(() => server?.close());

  it.each([
    { network: '2001:db8:7:1::/64', address: () => `2001:db8:7:1:${hex()}:${hex()}:${hex()}:${hex()}` },
    { network: '203.0.113.9', address: () => (randomInt(2) ? '203.0.113.9' : '::ffff:203.0.113.9') },
  ])('refuses the fourth wrong password from $network, and counts no more failures', async ({ address }) => {
    const browser = new TestBrowser();
    const challenge = await startSignIn(browser, server.url, await authorizationRequest(await relyingParty(server.url, 'demo-app', 'demo-secret')));
    const failuresBefore = await server.ctx.db.selectFrom('audit_events').select('id').where('type', '=', 'login.failure').execute();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await browser.fetch(`${server.url}/api/v1/users/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address() },
        body: JSON.stringify({ challenge, username: `spray-${i}-${randomInt(1e9)}@example.com`, password: 'Passw0rd!' }),
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    const failuresAfter = await server.ctx.db.selectFrom('audit_events').select('id').where('type', '=', 'login.failure').execute();
    expect(failuresAfter.length - failuresBefore.length).toBe(3);
  });

  it('refuses the fourth code sent from one IPv6 network, and stores no fourth code', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await fetch(`${server.url}/api/v1/password/recover`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `2001:db8:9:2:${hex()}::${hex()}` },
        body: JSON.stringify({ client_id: 'demo-app', username: `pump-${i}@example.com` }),
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    const stored = await server.ctx.db.selectFrom('one_time_codes').select('destination').where('purpose', '=', 'recovery').where('destination', 'like', 'pump-%').execute();
    expect(stored.map((row) => row.destination).sort()).toEqual(['pump-0@example.com', 'pump-1@example.com', 'pump-2@example.com']);
  });
});
