import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { createClient, endCooldown, lastCode, postJson, startFakeSiteVerify, userRow, type FakeSiteVerify } from '../../../test/visitor.ts';
import { createUserService } from '../users/users.service.ts';

/** reCAPTCHA on register, resend, recover and reset, checked against a local fake of siteverify. */
describe('reCAPTCHA on the visitor calls', () => {
  let siteVerify: FakeSiteVerify;
  let server: TestServer;
  const call = (path: string, body: Record<string, unknown>) => postJson(server.url, path, { client_id: 'captcha-app', ...body });

  beforeAll(async () => {
    siteVerify = await startFakeSiteVerify();
    server = await startTestServer({ env: { RECAPTCHA_VERIFY_URL: siteVerify.url, CODE_SENDS_PER_IP_PER_HOUR: '1000' } });
    await createClient(server.ctx, server.url, { id: 'captcha-app', tenantId: 'demo', recaptcha: { enabled: true, siteKey: 'site-key-1', secret: 'captcha-secret' } });
    await createUserService({ db: server.ctx.db }).createUser({ tenantId: 'demo', email: 'captcha@example.com', name: 'C', password: 'Original1!' });
  });
  afterAll(async () => {
    await server?.close();
    await siteVerify?.close();
  });

  it('refuses register without a token (1001) and with a rejected one (1002), writing nothing, and registers with a good one', async () => {
    const body = { username: 'robot@example.com', password: 'Lantern-42', name: 'R' };
    expect(await call('/api/v1/users/register', body)).toMatchObject({ status: 400, body: { error: { code: 1001, field: 'recaptcha_token' } } });
    expect(await call('/api/v1/users/register', { ...body, recaptcha_token: 'bad-token' })).toMatchObject({
      status: 400,
      body: { error: { code: 1002, field: 'recaptcha_token', message: 'reCAPTCHA verification failed' } },
    });
    expect(await userRow(server.ctx, 'demo', 'robot@example.com')).toBeUndefined();
    expect(siteVerify.requests.at(-1)).toEqual({ secret: 'captcha-secret', response: 'bad-token', remoteip: '127.0.0.1' });

    expect(await call('/api/v1/users/register', { ...body, recaptcha_token: 'good-token' })).toMatchObject({ status: 200 });
    expect(await userRow(server.ctx, 'demo', 'robot@example.com')).toMatchObject({ status: 'pending' });
  });

  it('refuses resend, recover and reset without a token and with a rejected one, and accepts a good one', async () => {
    await endCooldown(server.ctx, 'demo', 'activation', 'robot@example.com');
    const cases: [string, Record<string, unknown>][] = [
      ['/api/v1/users/activation/resend', { username: 'robot@example.com' }],
      ['/api/v1/password/recover', { username: 'captcha@example.com' }],
    ];
    for (const [path, body] of cases) {
      expect(await call(path, body)).toMatchObject({ status: 400, body: { error: { code: 1001, field: 'recaptcha_token' } } });
      expect(await call(path, { ...body, recaptcha_token: 'bad-token' })).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'recaptcha_token' } } });
      expect(await call(path, { ...body, recaptcha_token: 'good-token' })).toEqual({ status: 200, body: { resendAfter: 60 } });
    }

    const code = await lastCode(server.ctx, 'captcha@example.com');
    const reset = { username: 'captcha@example.com', password: 'Brand-new1', code };
    expect(await call('/api/v1/password/reset', reset)).toMatchObject({ status: 400, body: { error: { code: 1001, field: 'recaptcha_token' } } });
    expect(await call('/api/v1/password/reset', { ...reset, recaptcha_token: 'bad-token' })).toMatchObject({ status: 400, body: { error: { code: 1002 } } });
    // Refused before the code was looked at: it still works.
    expect(await call('/api/v1/password/reset', { ...reset, recaptcha_token: 'good-token' })).toEqual({ status: 200, body: { ok: true } });
  });

  it('answers 503 when the verification endpoint cannot be reached', async () => {
    await siteVerify.close();
    expect(await call('/api/v1/password/recover', { username: 'captcha@example.com', recaptcha_token: 'good-token' })).toMatchObject({
      status: 503,
      body: { error: { code: 1002, field: 'recaptcha_token' } },
    });
  });
});
