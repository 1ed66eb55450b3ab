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
