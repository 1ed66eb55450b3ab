import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { authorizationRequest, finishSignIn, relyingParty, startSignIn, type RelyingParty } from '../../../test/relying-party.ts';
import { run } from '../../cli/main.ts';

/**
 * A sign-in screen whose request has finished (Back after signing in) or expired still knows its
 * client, from the address, and can lead back to it: the provider puts `client_id` beside the
 * challenge, and GET /api/v1/clients/{clientId} answers the client's public face with `homeUri`.
 */
describe('the way back to a client from a finished or expired sign-in', () => {
  let server: TestServer;
  let demoApp: RelyingParty;

  beforeAll(async () => {
    server = await startTestServer();
    demoApp = await relyingParty(server.url, 'demo-app', 'demo-secret');
  });
  afterAll(() => server?.close());

  /** The operator's command line, on this server's database. */
  async function runCli(args: string[]) {
    const err: string[] = [];
    const env = { NODE_ENV: 'test', DATABASE_URL: server.ctx.config.databaseUrl, LOG_LEVEL: 'silent' };
    const code = await run(args, { out: () => undefined, err: (line) => err.push(line), env });
    return { code, stderr: err.join('\n') };
  }

  it('keeps client_id in the login address, and the finished challenge then answers 1026 while the client still answers', async () => {
    const browser = new TestBrowser();
    const auth = await authorizationRequest(demoApp);
    const { url } = await browser.follow(auth.url, server.url);
    const login = new URL(url);
    expect(login.searchParams.get('client_id')).toBe('demo-app');
    const challenge = await startSignIn(browser, server.url, auth);
    const response = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username: 'demo@example.com', password: 'Passw0rd!', client_id: 'demo-app' });
    expect(response.status).toBe(200);
    await finishSignIn(browser, server.url, demoApp, auth, ((await response.json()) as { redirectTo: string }).redirectTo);

    // Back: the same page asks for its request again.
    const again = await browser.fetch(`${server.url}/api/v1/requests/login/${challenge}`);
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: { code: number; field: string } }).error).toMatchObject({ code: 1026, field: 'challenge' });

    const client = await browser.fetch(`${server.url}/api/v1/clients/demo-app`);
    expect(client.status).toBe(200);
    const body = (await client.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ clientId: 'demo-app', clientName: 'Demo App', homeUri: `${server.url}/demo/login?client=demo-app`, theme: { primaryColor: '#1565C0' } });
    expect(Object.keys(body)).not.toEqual(expect.arrayContaining(['secretHash', 'redirectUris', 'facebookAppSecretEnc']));
  });

  it('leads to initiate_login_uri, else client_uri, else the origin of the first redirect URI, as the operator sets them', async () => {
    const homeOf = async () => ((await (await fetch(`${server.url}/api/v1/clients/partner-shop`)).json()) as { homeUri: string | null }).homeUri;
    expect(await homeOf()).toBe(`${server.url}/demo/login?client=partner-shop`);
    expect((await runCli(['client', 'update', '--id', 'partner-shop', '--initiate-login-uri', '', '--client-uri', 'https://shop.example/home'])).code).toBe(0);
    expect(await homeOf()).toBe('https://shop.example/home');
    expect((await runCli(['client', 'update', '--id', 'partner-shop', '--client-uri', ''])).code).toBe(0);
    expect(await homeOf()).toBe(`${server.url}/`);
  });

  it('refuses an address that is not http(s) as a home, and answers 1061 for an unknown client', async () => {
    const refused = await runCli(['client', 'update', '--id', 'partner-shop', '--client-uri', 'javascript:alert(1)']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/--client-uri: Invalid URL/);
    const unknown = await fetch(`${server.url}/api/v1/clients/nobody`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: number } }).error.code).toBe(1061);
  });
});
