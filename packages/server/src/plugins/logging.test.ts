import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../test/browser.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { relyingParty, signIn } from '../../test/relying-party.ts';

/** Request logs at debug level never carry a password, a challenge, a code or a token. */
describe('logs', () => {
  let server: TestServer;
  let url: string;

  beforeAll(async () => {
    server = await startTestServer({ captureLogs: true });
    url = server.url;
  });
  afterAll(() => server?.close());

  it('keeps passwords, challenges and authorization headers out of the log', async () => {
    const browser = new TestBrowser();
    await browser.postJson(`${url}/api/v1/users/login`, { challenge: 'Secret-Challenge-Value', username: 'demo@example.com', password: 'Very-Secret-Pa55!' });
    await fetch(`${url}/api/v1/me`, { headers: { authorization: 'Bearer Secret-Token-Value' } });
    await fetch(`${url}/api/v1/requests/login/Another-Secret-Challenge`);
    await fetch(`${url}/demo/callback?code=Secret-Code-Value&state=Secret-State-Value`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const log = server.logs.join('');
    expect(log).toContain('/api/v1/users/login');
    for (const secret of ['Very-Secret-Pa55!', 'Secret-Challenge-Value', 'Secret-Token-Value', 'Another-Secret-Challenge', 'Secret-Code-Value', 'Secret-State-Value']) {
      expect(log).not.toContain(secret);
    }
  });

  it('keeps the interaction id of a real sign-in out of the log, with the /oidc prefix kept so the line says what it was', async () => {
    const browser = new TestBrowser();
    const demoApp = await relyingParty(url, 'demo-app', 'demo-secret');
    const before = server.logs.length;
    await signIn(url, demoApp, 'demo@example.com', 'Passw0rd!', browser);
    await fetch(`${url}/api/v2/device-login/Device-Request-Secret?authn_challenge=Authn-Challenge-Secret`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const log = server.logs.slice(before).join('');
    const uids = [...log.matchAll(/[?&]challenge=([A-Za-z0-9_-]{10,})/g)].map((m) => m[1]);
    expect(uids, log.split('\n').filter((l) => /[?&]challenge=[A-Za-z0-9_-]{10,}/.test(l)).join('\n')).toEqual([]);
    expect(log).toContain('"url":"/oidc/auth/[redacted]"');
    for (const secret of ['Device-Request-Secret', 'Authn-Challenge-Secret']) expect(log).not.toContain(secret);
    // The interaction ids the browser held never appear in any form.
    for (const cookie of browser.cookieHeader().split('; ')) {
      const value = cookie.split('=')[1] ?? '';
      if (value.length >= 16) expect(log).not.toContain(value);
    }
  });
});

describe('a request whose client goes away before the answer', () => {
  it('still leaves one log line (499, with its id and the time waited) and a 499 in the request histogram', async () => {
    // A mail server that accepts and never greets: the registration waits for it (10 s).
    const { createServer } = await import('node:net');
    const silent = createServer((socket) => socket.on('error', () => undefined));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const smtpPort = (silent.address() as { port: number }).port;
    const server = await startTestServer({ captureLogs: true, env: { SMTP_URL: `smtp://127.0.0.1:${smtpPort}` } });
    try {
      const gone = fetch(`${server.url}/api/v1/users/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': 'ignored-from-a-direct-client' },
        body: JSON.stringify({ client_id: 'demo-app', username: 'gone@example.com', password: 'Lantern-42', name: 'Gone' }),
        signal: AbortSignal.timeout(300),
      });
      await expect(gone).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 200));

      const lines = server.logs.flatMap((chunk) => chunk.split('\n')).filter((line) => line.includes('/api/v1/users/register'));
      expect(lines).toHaveLength(1);
      const line = JSON.parse(lines[0]!) as { requestId: string; req: { method: string; url: string }; res: { statusCode: number }; responseTime: number };
      expect(line).toMatchObject({ req: { method: 'POST', url: '/api/v1/users/register' }, res: { statusCode: 499 } });
      expect(line.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(line.responseTime).toBeGreaterThanOrEqual(250);
      const histogram = await server.ctx.metrics.registry.getSingleMetricAsString('passgate_http_request_duration_seconds');
      expect(histogram).toContain('passgate_http_request_duration_seconds_count{route="/api/v1/users/register",method="POST",status_code="499"} 1');

      // An answered request is logged once, as before, and never as closed by its client.
      const before = server.logs.length;
      expect((await fetch(`${server.url}/api/v1/tenants/demo/password-policy`)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const answered = server.logs.slice(before).join('').split('\n').filter((l) => l.includes('password-policy'));
      expect(answered).toHaveLength(1);
      expect(answered[0]).toContain('"statusCode":200');
    } finally {
      await server.close();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 30_000);
});
