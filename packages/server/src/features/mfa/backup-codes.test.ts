import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeBackupCode } from '@passgate/contract';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { authorizationRequest, finishSignIn, relyingParty, startSignIn } from '../../../test/relying-party.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { accountSignIn, call, createAccount } from '../../../test/account.ts';
import { auditTypes, endCooldown, lastCode } from '../../../test/visitor.ts';

const PASSWORD = 'Passw0rd!';
const CODE_FORMAT = /^[2-9a-hjkmnp-z]{5}-[2-9a-hjkmnp-z]{5}$/;

/** A backup code of the right shape that the account was never given. */
const NEVER_ISSUED = '22222-22222';

describe('2-step verification backup codes', () => {
  let server: TestServer;
  let n = 0;

  beforeAll(async () => {
    server = await startTestServer({ env: { LOGIN_RATE_LIMIT_PER_IP: '1000' } });
  });
  afterAll(() => server?.close());

  const me = (token: string, method: 'GET' | 'POST', path: string, body?: unknown) => call(server.url, method, `/api/v1/me/mfa/${path}`, { token, body });

  /** A new account with 2-step on by e-mail code; answers the backup codes the confirmation showed. */
  async function accountWithMfa() {
    n += 1;
    const email = `backup${n}@example.com`;
    const phone = `09130000${String(n).padStart(2, '0')}`;
    const id = await createAccount(server.ctx, { email, phoneNumber: phone });
    const { token } = await accountSignIn(server.url, email);
    expect((await me(token, 'POST', 'associate', { password: PASSWORD, authenticator_type: 'email' })).status).toBe(200);
    const confirm = await me(token, 'POST', 'confirm', { password: PASSWORD, authenticator_type: 'email', code: await lastCode(server.ctx, email) });
    expect(confirm.status).toBe(200);
    expect(confirm.body).toMatchObject({ enableMfa: true, authenticatorType: 'email' });
    const codes = confirm.body.backupCodes as string[];
    return { id, email, phone, token, codes };
  }

  const storedRows = (userId: string) => server.ctx.db.selectFrom('backup_codes').selectAll().where('user_id', '=', userId).orderBy('id').execute();

  /** The password step of a sign-in at demo-app; answers its MFA token. */
  async function passwordStep(username: string) {
    const browser = new TestBrowser();
    const rp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    const auth = await authorizationRequest(rp);
    const challenge = await startSignIn(browser, server.url, auth);
    const response = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username, password: PASSWORD, client_id: 'demo-app' });
    const body = (await response.json()) as { mfaRequired?: boolean; mfaToken: string };
    expect(body.mfaRequired).toBe(true);
    return { rp, auth, challenge, browser, mfaToken: body.mfaToken };
  }

  async function secondStep(step: Awaited<ReturnType<typeof passwordStep>>, proof: { backup_code?: string; otp?: string }) {
    const response = await step.browser.postJson(`${server.url}/api/v1/mfa/login`, { client_id: 'demo-app', token_type: 'email', mfa_token: step.mfaToken, challenge: step.challenge, ...proof });
    return { status: response.status, body: (await response.json()) as any };
  }

  it('turning 2-step on shows ten codes once; only keyed hashes are stored and nothing else repeats them', async () => {
    const account = await accountWithMfa();
    expect(account.codes).toHaveLength(10);
    for (const code of account.codes) expect(code).toMatch(CODE_FORMAT);
    expect(new Set(account.codes).size).toBe(10);
    expect((await me(account.token, 'GET', 'backup-codes')).body).toEqual({ remaining: 10, total: 10 });

    const rows = await storedRows(account.id);
    expect(rows).toHaveLength(10);
    const stored = JSON.stringify(rows);
    const audit = JSON.stringify(await server.ctx.db.selectFrom('audit_events').selectAll().where('user_id', '=', account.id).execute());
    for (const code of account.codes) {
      for (const form of [code, normalizeBackupCode(code), code.toUpperCase()]) {
        expect(stored).not.toContain(form);
        expect(audit).not.toContain(form);
      }
    }
    expect(await auditTypes(server.ctx, account.id)).toContain('mfa.backup_codes_generated');

    // The re-check and a method change neither show them again nor replace them.
    const config = await me(account.token, 'POST', 'config', { password: PASSWORD });
    expect(JSON.stringify(config.body)).not.toContain(account.codes[0]);
    expect((await me(account.token, 'POST', 'associate', { password: PASSWORD, authenticator_type: 'sms' })).status).toBe(200);
    const change = await me(account.token, 'POST', 'confirm', { password: PASSWORD, authenticator_type: 'sms', code: await lastCode(server.ctx, account.phone) });
    expect(change.body).toMatchObject({ enableMfa: true, authenticatorType: 'sms' });
    expect(change.body.backupCodes).toBeUndefined();
    expect(await storedRows(account.id)).toEqual(rows);
  });

  it('a backup code signs in once; used again it is refused like a wrong code and changes nothing', async () => {
    const account = await accountWithMfa();
    const code = account.codes[3]!;

    const first = await passwordStep(account.email);
    // Typed back by hand: upper case, a space instead of the hyphen.
    const done = await secondStep(first, { backup_code: ` ${code.toUpperCase().replace('-', ' ')} ` });
    expect(done.status).toBe(200);
    const result = (await server.ctx.provider.Interaction.find(first.challenge))?.result as { login?: { amr?: string[] } } | undefined;
    expect(result?.login?.amr).toEqual(['pwd', 'otp', 'mfa']);
    const tokens = await finishSignIn(first.browser, server.url, first.rp, first.auth, done.body.redirectTo);
    expect(tokens.claims()!.sub).toBe(account.id);
    expect((await me(account.token, 'GET', 'backup-codes')).body).toEqual({ remaining: 9, total: 10 });
    expect(await auditTypes(server.ctx, account.id)).toEqual(expect.arrayContaining(['mfa.backup_code_used', 'mfa.success', 'login.success']));

    const before = await storedRows(account.id);
    const again = await passwordStep(account.email);
    const refused = await secondStep(again, { backup_code: code });
    expect(refused).toMatchObject({ status: 400, body: { error: { code: 1040, field: 'backup_code' } } });
    // The same answer as a code that was never issued.
    expect((await secondStep(again, { backup_code: NEVER_ISSUED })).body.error).toMatchObject({ code: 1040, field: 'backup_code', message: refused.body.error.message });
    expect(await storedRows(account.id)).toEqual(before);
    // The sign-in itself is still open: another unused code finishes it.
    expect((await secondStep(again, { backup_code: account.codes[4] })).status).toBe(200);
  });

  it('wrong backup codes spend the MFA token\'s five tries like wrong 2-step codes', async () => {
    const account = await accountWithMfa();
    const step = await passwordStep(account.email);
    for (let i = 0; i < 5; i += 1) expect((await secondStep(step, { backup_code: NEVER_ISSUED })).body.error.code).toBe(1040);
    expect(await secondStep(step, { backup_code: account.codes[0] })).toMatchObject({ status: 400, body: { error: { code: 1026 } } });
    expect((await me(account.token, 'GET', 'backup-codes')).body.remaining).toBe(10);
    expect((await auditTypes(server.ctx, account.id)).filter((type) => type === 'mfa.failure')).toHaveLength(5);
  });

  it('two sign-ins presenting the same code at once: exactly one gets through', async () => {
    const account = await accountWithMfa();
    const [a, b] = await Promise.all([passwordStep(account.email), passwordStep(account.email)]);
    const answers = await Promise.all([secondStep(a, { backup_code: account.codes[0] }), secondStep(b, { backup_code: account.codes[0] })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    expect(answers.find((answer) => answer.status === 400)!.body.error.code).toBe(1040);
    expect((await me(account.token, 'GET', 'backup-codes')).body.remaining).toBe(9);
  });

  it('generating new codes re-checks the password and makes every earlier code stop working', async () => {
    const account = await accountWithMfa();
    expect(await me(account.token, 'POST', 'backup-codes', { password: 'Wr0ng!pass' })).toMatchObject({ status: 400, body: { error: { code: 1017, field: 'password' } } });
    expect((await storedRows(account.id)).map((row) => row.code_hash)).toHaveLength(10);

    const fresh = await me(account.token, 'POST', 'backup-codes', { password: PASSWORD });
    expect(fresh.status).toBe(200);
    expect(fresh.body).toEqual({ backupCodes: expect.any(Array), remaining: 10, total: 10 });
    const codes = fresh.body.backupCodes as string[];
    expect(codes).toHaveLength(10);
    expect(codes.filter((code) => account.codes.includes(code))).toEqual([]);
    expect((await auditTypes(server.ctx, account.id)).filter((type) => type === 'mfa.backup_codes_generated')).toHaveLength(2);

    const old = await passwordStep(account.email);
    expect((await secondStep(old, { backup_code: account.codes[0] })).body.error.code).toBe(1040);
    expect((await secondStep(old, { backup_code: codes[0] })).status).toBe(200);
  });

  it('turning 2-step off deletes the codes; with it off none can be generated', async () => {
    const account = await accountWithMfa();
    expect((await me(account.token, 'POST', 'disable', { password: PASSWORD })).status).toBe(200);
    expect(await storedRows(account.id)).toEqual([]);
    expect((await me(account.token, 'GET', 'backup-codes')).body).toEqual({ remaining: 0, total: 10 });
    expect(await me(account.token, 'POST', 'backup-codes', { password: PASSWORD })).toMatchObject({ status: 400, body: { error: { code: 1000 } } });

    // Turned on again: a new set, none of the old ones.
    await endCooldown(server.ctx, 'demo', 'mfa_setup', account.email);
    const associate = await me(account.token, 'POST', 'associate', { password: PASSWORD, authenticator_type: 'email' });
    expect(associate.status).toBe(200);
    const confirm = await me(account.token, 'POST', 'confirm', { password: PASSWORD, authenticator_type: 'email', code: await lastCode(server.ctx, account.email) });
    expect(confirm.body.backupCodes).toHaveLength(10);
    expect((confirm.body.backupCodes as string[]).filter((code) => account.codes.includes(code))).toEqual([]);
  });

  it('the second step takes otp or backup_code, one of them, well formed', async () => {
    const account = await accountWithMfa();
    const step = await passwordStep(account.email);
    expect(await secondStep(step, {})).toMatchObject({ status: 400, body: { error: { code: 1001, field: 'otp' } } });
    expect(await secondStep(step, { otp: '123456', backup_code: account.codes[0] })).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'backup_code' } } });
    expect(await secondStep(step, { backup_code: 'abc' })).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'backup_code' } } });
    // None of those spent a try or a code.
    expect((await secondStep(step, { backup_code: account.codes[0] })).status).toBe(200);
  });
});
