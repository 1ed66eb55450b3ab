import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../test/browser.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

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
});
