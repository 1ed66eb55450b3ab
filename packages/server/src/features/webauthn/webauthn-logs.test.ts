import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { authorizationRequest, relyingParty, startSignIn } from '../../../test/relying-party.ts';
import { accountWithDevice } from '../../../test/webauthn.ts';
import { postJson } from '../../../test/visitor.ts';

/** A whole device sign-in at trace level: no challenge, key, code or assertion in the log. */
describe('device sign-in logs', () => {
  let server: TestServer;
  let url: string;

  beforeAll(async () => {
    server = await startTestServer({ captureLogs: true });
    url = server.url;
  });
  afterAll(() => server?.close());

  it('keeps the sign-in challenge, the request id, the redirect URL key and the activation code out of the log', async () => {
    const { authenticator } = await accountWithDevice(server.ctx, url, 'logs@example.com');
    const code = (await server.ctx.messaging.outbox?.list({ to: 'logs@example.com', limit: 1 }))?.[0]?.code;
    const rp = await relyingParty(url, 'demo-app', 'demo-secret');
    const challenge = await startSignIn(new TestBrowser(), url, await authorizationRequest(rp));
    const started = await postJson(url, '/api/v2/get-challenge', { challenge_type: 'AUTHN_WEBAUTHN', oauth_challenge: challenge, username: 'logs@example.com' });
    const { challenge: request, challengeRequest } = started.body;
    await fetch(`${url}/api/v2/device-login/${request}?oauth_challenge=${challenge}`);
    const assertion = authenticator.assert(challengeRequest.publickeyCredentialRequestOptions, { origin: 'https://evil.example' });
    expect((await postJson(url, '/api/v2/resolve-challenge', { challenge_type: 'AUTHN_WEBAUTHN', challenge: request, oauth_challenge: challenge, publickey_credential: assertion })).status).toBe(400);
    await postJson(url, '/api/v2/device-login/poll', { challenge: request, redirect_url_key: challengeRequest.redirectUrlKey, oauth_challenge: challenge });
    await new Promise((resolve) => setTimeout(resolve, 50));

    const log = server.logs.join('');
    expect(log).toContain('/api/v2/device-login/[redacted]?oauth_challenge=%5Bredacted%5D');
    for (const secret of [challenge, request, challengeRequest.redirectUrlKey, challengeRequest.publickeyCredentialRequestOptions.challenge, assertion.response.signature, code]) {
      expect(secret).toBeTruthy();
      expect(log).not.toContain(secret);
    }
  });
});
