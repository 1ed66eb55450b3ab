import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { authorizationRequest, finishSignIn, relyingParty, startSignIn } from '../../../test/relying-party.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { accountSignIn, call, createAccount, userById } from '../../../test/account.ts';
import { auditTypes, endCooldown, lastCode, otherCode, postJson } from '../../../test/visitor.ts';

const PASSWORD = 'Passw0rd!';

/** The authenticator app: the code of the step after the current one (accepted, and never the setup's step). */
function totpCode(secret: string, offsetSteps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

describe('2-step verification', () => {
  let server: TestServer;
  let n = 0;

  beforeAll(async () => {
    // Many sign-ins from one address in a minute.
    server = await startTestServer({ env: { LOGIN_RATE_LIMIT_PER_IP: '1000' } });
  });
  afterAll(() => server?.close());

  /** A new account with a verified e-mail address and phone number, and its account-area token. */
  async function newAccount() {
    n += 1;
    const email = `mfa${n}@example.com`;
    const phone = `09120000${String(n).padStart(2, '0')}`;
    const id = await createAccount(server.ctx, { email, phoneNumber: phone });
    const { token } = await accountSignIn(server.url, email);
    return { id, email, phone, token };
  }

  const me = (token: string, path: string, body: unknown) => call(server.url, 'POST', `/api/v1/me/mfa/${path}`, { token, body });

  /** Sets 2-step up with `type` through associate + confirm; answers the TOTP secret for totp. */
  async function enable(account: { id: string; email: string; phone: string; token: string }, type: 'totp' | 'sms' | 'email'): Promise<string | undefined> {
    const before = await userById(server.ctx, account.id);
    const associate = await me(account.token, 'associate', { password: PASSWORD, authenticator_type: type });
    expect(associate.status).toBe(200);
    let code: string;
    let secret: string | undefined;
    if (type === 'totp') {
      expect(associate.body).toMatchObject({ success: true, secret: expect.stringMatching(/^[A-Z2-7]{32}$/) });
      expect(associate.body.qrcode).toMatch(/^data:image\/png;base64,/);
      expect(associate.body.otpauthUri).toContain('otpauth://totp/');
      expect(associate.body.otpauthUri).toContain('issuer=Passgate%20Demo');
      secret = associate.body.secret as string;
      // Pending, and stored encrypted: nothing changes before the code is confirmed.
      const pending = await userById(server.ctx, account.id);
      expect(pending!.enable_mfa).toBe(before!.enable_mfa);
      expect(pending!.authenticator_type).toBe(before!.authenticator_type);
      expect(pending!.totp_pending_enc).toBeTruthy();
      expect(pending!.totp_pending_enc).not.toContain(secret);
      code = totpCode(secret);
    } else {
      expect(associate.body).toEqual({ success: true, resendAfter: 60 });
      code = await lastCode(server.ctx, type === 'sms' ? account.phone : account.email);
    }
    expect((await me(account.token, 'confirm', { password: PASSWORD, authenticator_type: type, code: otherCode(code) })).body.error.code).toBe(1040);
    const confirm = await me(account.token, 'confirm', { password: PASSWORD, authenticator_type: type, code });
    expect(confirm.status).toBe(200);
    expect(confirm.body).toMatchObject({ enableMfa: true, authenticatorType: type });
    const row = await userById(server.ctx, account.id);
    if (type === 'totp') expect(row!.totp_secret_enc).toBeTruthy();
    else expect(row!.totp_secret_enc).toBeNull();
    return secret;
  }

  /** The password step of a sign-in at demo-app. */
  async function passwordStep(username: string, browser = new TestBrowser()) {
    const rp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    const auth = await authorizationRequest(rp);
    const challenge = await startSignIn(browser, server.url, auth);
    const response = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username, password: PASSWORD, client_id: 'demo-app' });
    return { rp, auth, challenge, browser, status: response.status, body: (await response.json()) as any };
  }

  const mfaLogin = async (browser: TestBrowser, body: Record<string, unknown>) => {
    const response = await browser.postJson(`${server.url}/api/v1/mfa/login`, { client_id: 'demo-app', ...body });
    return { status: response.status, body: (await response.json()) as any };
  };
  const trigger = async (browser: TestBrowser, body: Record<string, unknown>) => {
    const response = await browser.postJson(`${server.url}/api/v1/mfa/trigger-challenge`, { client_id: 'demo-app', ...body });
    return { status: response.status, body: (await response.json()) as any, retryAfter: response.headers.get('retry-after') };
  };

  it('totp: set up with the QR code secret, then sign-in asks for the code; each code works once', async () => {
    const account = await newAccount();
    const secret = (await enable(account, 'totp'))!;
    expect(await auditTypes(server.ctx, account.id)).toContain('mfa.enabled');

    const step = await passwordStep(account.email);
    expect(step.status).toBe(200);
    expect(step.body).toEqual({ mfaRequired: true, tokenType: 'totp', mfaToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    // Nothing to send for an authenticator app.
    expect((await trigger(step.browser, { token_type: 'totp', mfa_token: step.body.mfaToken })).body.error.code).toBe(1002);

    const code = totpCode(secret, 1);
    expect(await mfaLogin(step.browser, { token_type: 'totp', mfa_token: step.body.mfaToken, otp: otherCode(code), challenge: step.challenge })).toMatchObject({ status: 400, body: { error: { code: 1040 } } });
    const done = await mfaLogin(step.browser, { token_type: 'totp', mfa_token: step.body.mfaToken, otp: code, challenge: step.challenge });
    expect(done.status).toBe(200);
    const tokens = await finishSignIn(step.browser, server.url, step.rp, step.auth, done.body.redirectTo);
    expect(tokens.claims()!.sub).toBe(account.id);

    // The token is spent.
    expect((await mfaLogin(step.browser, { token_type: 'totp', mfa_token: step.body.mfaToken, otp: code, challenge: step.challenge })).body.error.code).toBe(1026);
    // The same code again, in a new sign-in: refused.
    const again = await passwordStep(account.email);
    expect((await mfaLogin(again.browser, { token_type: 'totp', mfa_token: again.body.mfaToken, otp: code, challenge: again.challenge })).body.error.code).toBe(1040);
    const types = await auditTypes(server.ctx, account.id);
    expect(types).toContain('mfa.success');
    expect(types).toContain('mfa.failure');
  });

  for (const type of ['sms', 'email'] as const) {
    it(`${type}: set up with a code, then sign-in sends a code on request and checks it`, async () => {
      const account = await newAccount();
      await enable(account, type);
      const destination = type === 'sms' ? account.phone : account.email;

      const step = await passwordStep(account.email);
      expect(step.body).toEqual({ mfaRequired: true, tokenType: type, mfaToken: expect.any(String) });
      expect(step.body.redirectTo).toBeUndefined();
      const sent = await trigger(step.browser, { token_type: type, mfa_token: step.body.mfaToken });
      expect(sent).toEqual({ status: 200, body: { resendAfter: 60 }, retryAfter: null });
      // Resend within 60 s refused, saying how long to wait (the screen counts down from it).
      const refused = await trigger(step.browser, { token_type: type, mfa_token: step.body.mfaToken });
      expect(refused).toMatchObject({ status: 429, body: { error: { code: 1291, retryAfter: expect.any(Number) } } });
      expect(refused.body.error.retryAfter).toBeGreaterThan(0);
      expect(refused.body.error.retryAfter).toBeLessThanOrEqual(60);
      expect(refused.retryAfter).toBe(String(refused.body.error.retryAfter));
      const code = await lastCode(server.ctx, destination);

      // The wrong type of token.
      expect((await mfaLogin(step.browser, { token_type: type === 'sms' ? 'email' : 'sms', mfa_token: step.body.mfaToken, otp: code, challenge: step.challenge })).body.error.code).toBe(1026);
      const done = await mfaLogin(step.browser, { token_type: type, mfa_token: step.body.mfaToken, otp: code, challenge: step.challenge });
      expect(done.status).toBe(200);
      const tokens = await finishSignIn(step.browser, server.url, step.rp, step.auth, done.body.redirectTo);
      expect(tokens.claims()!.sub).toBe(account.id);
      expect(await auditTypes(server.ctx, account.id)).toEqual(expect.arrayContaining(['mfa.enabled', 'mfa.challenge_sent', 'mfa.success']));
    });
  }

  it('a wrong code five times kills the code', async () => {
    const account = await newAccount();
    await enable(account, 'email');
    const step = await passwordStep(account.email);
    await trigger(step.browser, { token_type: 'email', mfa_token: step.body.mfaToken });
    const code = await lastCode(server.ctx, account.email);
    for (let i = 0; i < 5; i += 1) {
      expect((await mfaLogin(step.browser, { token_type: 'email', mfa_token: step.body.mfaToken, otp: otherCode(code), challenge: step.challenge })).body.error.code).toBe(1040);
    }
    expect(await mfaLogin(step.browser, { token_type: 'email', mfa_token: step.body.mfaToken, otp: code, challenge: step.challenge })).toMatchObject({ status: 400, body: { error: { code: 1026 } } });
  });

  it('counts wrong 2-step codes against the account across sign-ins: after 10 in 15 minutes even the right code is refused (429)', async () => {
    const account = await newAccount();
    const secret = (await enable(account, 'totp'))!;
    const wrong = otherCode(totpCode(secret, 1));
    // Two sign-ins with 5 wrong codes each (a token dies after 5; someone with the password starts another).
    for (let s = 0; s < 2; s += 1) {
      const step = await passwordStep(account.email);
      for (let i = 0; i < 5; i += 1) {
        expect((await mfaLogin(step.browser, { token_type: 'totp', mfa_token: step.body.mfaToken, otp: wrong, challenge: step.challenge })).body.error.code).toBe(1040);
      }
    }
    const third = await passwordStep(account.email);
    expect(await mfaLogin(third.browser, { token_type: 'totp', mfa_token: third.body.mfaToken, otp: totpCode(secret, 1), challenge: third.challenge })).toMatchObject({
      status: 429,
      body: { error: { code: 1290, message: expect.stringMatching(/try again in \d+ s/), retryAfter: expect.any(Number) } },
    });
    // Nothing was signed in, and the token's own tries were not spent by the refusal.
    const row = await server.ctx.db.selectFrom('mfa_tokens').select(['attempts', 'consumed_at']).where('interaction_uid', '=', third.challenge).executeTakeFirst();
    expect(row).toMatchObject({ attempts: 0, consumed_at: null });
    expect((await auditTypes(server.ctx, account.id)).filter((t) => t === 'mfa.success')).toEqual([]);
  });

  it('an MFA token expired, or used with another sign-in request, is refused', async () => {
    const account = await newAccount();
    await enable(account, 'email');
    const browser = new TestBrowser();
    const first = await passwordStep(account.email, browser);
    const second = await passwordStep(account.email, browser);
    await trigger(browser, { token_type: 'email', mfa_token: first.body.mfaToken });
    const code = await lastCode(server.ctx, account.email);
    // first's token with second's challenge.
    expect((await mfaLogin(browser, { token_type: 'email', mfa_token: first.body.mfaToken, otp: code, challenge: second.challenge })).body.error.code).toBe(1026);
    // second's token cannot use the code sent for first's.
    expect((await mfaLogin(browser, { token_type: 'email', mfa_token: second.body.mfaToken, otp: code, challenge: second.challenge })).body.error.code).toBe(1026);

    await server.ctx.db.updateTable('mfa_tokens').set({ expires_at: Date.now() - 1 }).where('user_id', '=', account.id).execute();
    expect((await mfaLogin(browser, { token_type: 'email', mfa_token: first.body.mfaToken, otp: code, challenge: first.challenge })).body.error.code).toBe(1026);
    await endCooldown(server.ctx, 'demo', 'mfa', account.email);
    expect((await trigger(browser, { token_type: 'email', mfa_token: first.body.mfaToken })).body.error.code).toBe(1026);
  });

  it("one account's MFA token never finishes with another account's code, and a refused try changes neither account", async () => {
    const victim = await newAccount();
    await enable(victim, 'email');
    const attacker = await newAccount();
    await enable(attacker, 'email');
    // The attacker has passed the victim's password step (the password was phished) and, in another
    // browser, their own, whose code they can read. The victim's code goes to the victim only.
    const victimStep = await passwordStep(victim.email);
    await trigger(victimStep.browser, { token_type: 'email', mfa_token: victimStep.body.mfaToken });
    const own = await passwordStep(attacker.email);
    await trigger(own.browser, { token_type: 'email', mfa_token: own.body.mfaToken });
    const attackersCode = await lastCode(server.ctx, attacker.email);
    const before = [await userById(server.ctx, victim.id), await userById(server.ctx, attacker.id)];

    // The attacker's code against the victim's token: a wrong code for the victim.
    expect(await mfaLogin(victimStep.browser, { token_type: 'email', mfa_token: victimStep.body.mfaToken, otp: attackersCode, challenge: victimStep.challenge })).toMatchObject({
      status: 400,
      body: { error: { code: 1040 } },
    });
    // The attacker's own token (and code) cannot finish the victim's sign-in request either.
    expect(await mfaLogin(victimStep.browser, { token_type: 'email', mfa_token: own.body.mfaToken, otp: attackersCode, challenge: victimStep.challenge })).toMatchObject({
      status: 400,
      body: { error: { code: 1026 } },
    });
    expect((await server.ctx.provider.Interaction.find(victimStep.challenge))?.result).toBeUndefined();
    expect([await userById(server.ctx, victim.id), await userById(server.ctx, attacker.id)]).toEqual(before);
    expect((await auditTypes(server.ctx, victim.id)).filter((t) => t === 'mfa.success')).toEqual([]);
    // The attacker's code was not spent by the refusals: it still finishes the attacker's own sign-in, as the attacker.
    const done = await mfaLogin(own.browser, { token_type: 'email', mfa_token: own.body.mfaToken, otp: attackersCode, challenge: own.challenge });
    expect(done.status).toBe(200);
    expect((await finishSignIn(own.browser, server.url, own.rp, own.auth, done.body.redirectTo)).claims()!.sub).toBe(attacker.id);
  });

  it('an MFA token won with the old password dies when the password is reset: that sign-in cannot be finished, even with the right code', async () => {
    const account = await newAccount();
    const secret = (await enable(account, 'totp'))!;
    // Someone who learnt the password has passed the password step and waits for the second factor.
    const step = await passwordStep(account.email);
    expect(step.body).toMatchObject({ mfaRequired: true, tokenType: 'totp' });

    // The owner resets the password.
    expect(await postJson(server.url, '/api/v1/password/recover', { client_id: 'demo-app', username: account.email })).toMatchObject({ status: 200 });
    const code = await lastCode(server.ctx, account.email);
    expect(await postJson(server.url, '/api/v1/password/reset', { client_id: 'demo-app', username: account.email, password: 'Owners-New-7', code })).toEqual({ status: 200, body: { ok: true } });

    const otp = totpCode(secret, 1);
    expect(await mfaLogin(step.browser, { token_type: 'totp', mfa_token: step.body.mfaToken, otp, challenge: step.challenge })).toMatchObject({ status: 400, body: { error: { code: 1026 } } });
    expect((await server.ctx.provider.Interaction.find(step.challenge))?.result).toBeUndefined();
    expect((await auditTypes(server.ctx, account.id)).filter((t) => t === 'mfa.success')).toEqual([]);

    // The reset left 2-step on: the new password leads to the second step again, where the same code (unspent) finishes.
    const browser = new TestBrowser();
    const rp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    const auth = await authorizationRequest(rp);
    const challenge = await startSignIn(browser, server.url, auth);
    const again = (await (await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username: account.email, password: 'Owners-New-7' })).json()) as any;
    expect(again).toMatchObject({ mfaRequired: true, tokenType: 'totp' });
    expect(again.redirectTo).toBeUndefined();
    const done = await mfaLogin(browser, { token_type: 'totp', mfa_token: again.mfaToken, otp, challenge });
    expect(done.status).toBe(200);
    expect((await finishSignIn(browser, server.url, rp, auth, done.body.redirectTo)).claims()!.sub).toBe(account.id);
  });

  it('config re-checks the password; disable needs the right one and sign-in no longer asks', async () => {
    const account = await newAccount();
    expect(await me(account.token, 'config', { password: PASSWORD })).toEqual({ status: 200, body: { enabledMfa: false, authenticatorType: null }, headers: expect.anything() });
    expect(await me(account.token, 'config', { password: 'Wr0ng!pass' })).toMatchObject({ status: 400, body: { error: { code: 1017 } } });
    await enable(account, 'sms');
    expect((await me(account.token, 'config', { password: PASSWORD })).body).toEqual({ enabledMfa: true, authenticatorType: 'sms' });

    expect(await me(account.token, 'disable', { password: 'Wr0ng!pass' })).toMatchObject({ status: 400, body: { error: { code: 1017 } } });
    expect((await userById(server.ctx, account.id))!.enable_mfa).toBe(1);
    const off = await me(account.token, 'disable', { password: PASSWORD });
    expect(off).toMatchObject({ status: 200, body: { enableMfa: false, authenticatorType: null } });
    expect(await auditTypes(server.ctx, account.id)).toContain('mfa.disabled');

    const step = await passwordStep(account.email);
    expect(step.body.mfaRequired).toBeUndefined();
    expect(step.body.redirectTo).toEqual(expect.any(String));
  });

  it('switching method is audited as a change; sms and email need a verified phone or address', async () => {
    n += 1;
    const email = `mfa${n}@example.com`;
    const id = await createAccount(server.ctx, { email });
    const { token } = await accountSignIn(server.url, email);
    expect(await me(token, 'associate', { password: PASSWORD, authenticator_type: 'sms' })).toMatchObject({ status: 400, body: { error: { code: 1002, message: 'Active your phone number first' } } });
    await server.ctx.db.updateTable('users').set({ email_verified: 0 }).where('id', '=', id).execute();
    expect(await me(token, 'associate', { password: PASSWORD, authenticator_type: 'email' })).toMatchObject({ status: 400, body: { error: { code: 1002, message: 'Active your email first' } } });
    await server.ctx.db.updateTable('users').set({ email_verified: 1 }).where('id', '=', id).execute();
    await enable({ id, email, phone: '', token }, 'email');
    await enable({ id, email, phone: '', token }, 'totp');
    expect(await auditTypes(server.ctx, id)).toEqual(expect.arrayContaining(['mfa.enabled', 'mfa.method_changed']));
  });

  it('an account without a password cannot use 2-step verification', async () => {
    const account = await newAccount();
    await server.ctx.db.updateTable('users').set({ password_hash: null, registration_method: 'passwordless' }).where('id', '=', account.id).execute();
    for (const path of ['config', 'associate', 'disable']) {
      expect(await me(account.token, path, { password: PASSWORD, authenticator_type: 'totp' })).toMatchObject({
        status: 403,
        body: { error: { code: 1301, message: 'Registration does not support 2-Step Verification' } },
      });
    }
  });
});
