import { PassThrough } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { createAppContext, type AppContext } from '../../context.ts';
import { buildApp } from '../../app.ts';
import { seedDemo } from '../../seed/demo-seed.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { authorizationRequest, relyingParty, startSignIn } from '../../../test/relying-party.ts';
import { accountWithDevice } from '../../../test/webauthn.ts';
import { postJson } from '../../../test/visitor.ts';

/** A whole device sign-in at trace level: no challenge, key, code or assertion in the log. */
describe('device sign-in logs', () => {
  let dir: string;
  let ctx: AppContext;
  let app: FastifyInstance;
  let url: string;
  const lines: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'passgate-webauthn-logs-'));
    const { createServer } = await import('node:net');
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    url = `http://127.0.0.1:${port}`;
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'trace', DATABASE_URL: `sqlite:${join(dir, 'l.sqlite')}`, PORT: String(port), PUBLIC_URL: url });
    ctx = await createAppContext(config);
    await seedDemo(ctx);
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
    app = await buildApp(ctx, { logStream: stream });
    await app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    await ctx?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the sign-in challenge, the request id, the redirect URL key and the activation code out of the log', async () => {
    const { authenticator } = await accountWithDevice(ctx, url, 'logs@example.com');
    const code = (await ctx.messaging.outbox?.list({ to: 'logs@example.com', limit: 1 }))?.[0]?.code;
    const rp = await relyingParty(url, 'demo-app', 'demo-secret');
    const challenge = await startSignIn(new TestBrowser(), url, await authorizationRequest(rp));
    const started = await postJson(url, '/api/v2/get-challenge', { challenge_type: 'AUTHN_WEBAUTHN', oauth_challenge: challenge, username: 'logs@example.com' });
    const { challenge: request, challengeRequest } = started.body;
    await fetch(`${url}/api/v2/device-login/${request}?oauth_challenge=${challenge}`);
    const assertion = authenticator.assert(challengeRequest.publickeyCredentialRequestOptions, { origin: 'https://evil.example' });
    expect((await postJson(url, '/api/v2/resolve-challenge', { challenge_type: 'AUTHN_WEBAUTHN', challenge: request, oauth_challenge: challenge, publickey_credential: assertion })).status).toBe(400);
    await postJson(url, '/api/v2/device-login/poll', { challenge: request, redirect_url_key: challengeRequest.redirectUrlKey, oauth_challenge: challenge });
    await new Promise((resolve) => setTimeout(resolve, 50));

    const log = lines.join('');
    expect(log).toContain('/api/v2/device-login/[redacted]?oauth_challenge=%5Bredacted%5D');
    for (const secret of [challenge, request, challengeRequest.redirectUrlKey, challengeRequest.publickeyCredentialRequestOptions.challenge, assertion.response.signature, code]) {
      expect(secret).toBeTruthy();
      expect(log).not.toContain(secret);
    }
  });
});
