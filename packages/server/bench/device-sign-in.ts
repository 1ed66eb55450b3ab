import { performance } from 'node:perf_hooks';
import type { TestServer } from '../test/test-server.ts';
import { TestBrowser } from '../test/browser.ts';
import { postJson } from '../test/visitor.ts';
import { authorizationRequest, finishSignIn, relyingParty, startSignIn } from '../test/relying-party.ts';
import { accountWithDevice } from '../test/webauthn.ts';

type Summary = (name: string, samples: number[]) => void;

/**
 * A whole OIDC sign-in with a device (software authenticator, ES256): the request (which also
 * draws the QR code), the assertion check, the poll that finishes the sign-in, and the code
 * exchange; and the two device calls alone.
 */
export async function benchDeviceSignIn(server: TestServer, rounds: number, summary: Summary): Promise<void> {
  const email = 'bench-device@example.com';
  const { authenticator } = await accountWithDevice(server.ctx, server.url, email);
  const rp = await relyingParty(server.url, 'demo-app', 'demo-secret');
  const whole: number[] = [];
  const start: number[] = [];
  const resolve: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    const browser = new TestBrowser();
    const began = performance.now();
    const auth = await authorizationRequest(rp);
    const oauthChallenge = await startSignIn(browser, server.url, auth);
    const t0 = performance.now();
    const request = await postJson(server.url, '/api/v2/get-challenge', { challenge_type: 'AUTHN_WEBAUTHN', client_id: 'demo-app', oauth_challenge: oauthChallenge, username: email });
    if (request.status !== 200) throw new Error(`device sign-in request answered ${request.status}: ${JSON.stringify(request.body)}`);
    start.push(performance.now() - t0);
    const { challenge, challengeRequest } = request.body;
    const assertion = authenticator.assert(challengeRequest.publickeyCredentialRequestOptions);
    const t1 = performance.now();
    const approved = await postJson(server.url, '/api/v2/resolve-challenge', { challenge_type: 'AUTHN_WEBAUTHN', challenge, oauth_challenge: oauthChallenge, publickey_credential: assertion });
    if (approved.status !== 200) throw new Error(`assertion answered ${approved.status}: ${JSON.stringify(approved.body)}`);
    resolve.push(performance.now() - t1);
    const done = await postJson(server.url, '/api/v2/device-login/poll', { challenge, redirect_url_key: challengeRequest.redirectUrlKey, oauth_challenge: oauthChallenge });
    if (done.status !== 200) throw new Error(`poll answered ${done.status}: ${JSON.stringify(done.body)}`);
    await finishSignIn(browser, server.url, rp, auth, done.body.redirectTo);
    whole.push(performance.now() - began);
  }
  summary('whole device sign-in (sequential)', whole);
  summary('POST get-challenge AUTHN (with QR)', start);
  summary('POST resolve-challenge (assertion)', resolve);
}
