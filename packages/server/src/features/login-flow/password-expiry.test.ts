import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { authorizationRequest, finishSignIn, relyingParty, startSignIn } from '../../../test/relying-party.ts';
import { createAccount } from '../../../test/account.ts';
import { lastCode } from '../../../test/visitor.ts';

const DAY = 86_400_000;

/**
 * The password-expiry screens ('Your password expires soon', then Continue login) work on what the
 * password step answered: the expiry warning must never stand in for the second step, and an
 * expired password must open nothing, not even the second step.
 */
describe('password expiry at sign-in', () => {
  let server: TestServer;
  let n = 0;

  beforeAll(async () => {
    server = await startTestServer({ env: { LOGIN_RATE_LIMIT_PER_IP: '1000' } });
    await server.ctx.tenants.update('demo', { password_max_age_days: 90, password_warning_days: 7 });
  });
  afterAll(() => server?.close());

  /** An account of the demo tenant whose password was set `daysAgo` days ago, with 2-step by e-mail when asked. */
  async function account(daysAgo: number, twoStep: boolean) {
    n += 1;
    const email = `expiry-${n}@example.com`;
    const id = await createAccount(server.ctx, { email });
    await server.ctx.db
      .updateTable('users')
      .set({ password_changed_at: Date.now() - daysAgo * DAY, ...(twoStep ? { enable_mfa: 1, authenticator_type: 'email' } : {}) })
      .where('id', '=', id)
      .execute();
    return { id, email };
  }

  async function passwordStep(username: string) {
    const browser = new TestBrowser();
    const rp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    const auth = await authorizationRequest(rp);
    const challenge = await startSignIn(browser, server.url, auth);
    const response = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username, password: 'Passw0rd!' });
    return { browser, rp, auth, challenge, status: response.status, body: (await response.json()) as any };
  }

  const result = async (challenge: string) => (await server.ctx.provider.Interaction.find(challenge))?.result;
  const mfaTokens = (userId: string) => server.ctx.db.selectFrom('mfa_tokens').select('id').where('user_id', '=', userId).execute();

  it('a password about to expire with 2-step on answers the warning and the second step, never a way past it', async () => {
    const { id, email } = await account(85, true);
    const step = await passwordStep(email);
    expect(step.status).toBe(200);
    expect(step.body).toMatchObject({ mfaRequired: true, tokenType: 'email', mfaToken: expect.any(String), passwordWarning: { daysLeft: 5, expiresAt: expect.any(Number) } });
    expect(step.body.redirectTo).toBeUndefined();
    // Continue login has nothing to resume: the sign-in is not finished.
    expect(await result(step.challenge)).toBeUndefined();

    // Only the second step finishes it.
    expect((await step.browser.postJson(`${server.url}/api/v1/mfa/trigger-challenge`, { token_type: 'email', mfa_token: step.body.mfaToken })).status).toBe(200);
    const done = await step.browser.postJson(`${server.url}/api/v1/mfa/login`, { token_type: 'email', mfa_token: step.body.mfaToken, otp: await lastCode(server.ctx, email), challenge: step.challenge });
    expect(done.status).toBe(200);
    const tokens = await finishSignIn(step.browser, server.url, step.rp, step.auth, ((await done.json()) as any).redirectTo);
    expect(tokens.claims()).toMatchObject({ sub: id, amr: expect.arrayContaining(['pwd', 'email', 'mfa']) });
  });

  it('a password about to expire without 2-step signs in with the warning', async () => {
    const { id, email } = await account(88, false);
    const step = await passwordStep(email);
    expect(step.body).toMatchObject({ redirectTo: `${server.url}/oidc/auth/${step.challenge}`, passwordWarning: { daysLeft: 2 } });
    expect(step.body.mfaRequired).toBeUndefined();
    expect((await finishSignIn(step.browser, server.url, step.rp, step.auth, step.body.redirectTo)).claims()?.sub).toBe(id);
  });

  it('an expired password (1103) opens nothing: no second step, no MFA token, no finished sign-in', async () => {
    for (const twoStep of [true, false]) {
      const { id, email } = await account(91, twoStep);
      const step = await passwordStep(email);
      expect(step).toMatchObject({ status: 403, body: { error: { code: 1103 } } });
      expect(step.body.mfaToken).toBeUndefined();
      expect(step.body.redirectTo).toBeUndefined();
      expect(await mfaTokens(id)).toEqual([]);
      expect(await result(step.challenge)).toBeUndefined();
    }
  });
});
