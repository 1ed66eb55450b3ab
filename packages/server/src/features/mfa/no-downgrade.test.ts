import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { finishSignIn } from '../../../test/relying-party.ts';
import { createAccount } from '../../../test/account.ts';
import { lastCode } from '../../../test/visitor.ts';
import { accountWithDevice } from '../../../test/webauthn.ts';
import { begin, expectNotSignedIn, GOOGLE_APP, startSocialTestbed, type SocialTestbed } from '../social/social-test-setup.ts';

/**
 * No 2-step downgrade: with 2-step verification on, every first factor (password, passwordless
 * code, Google, Facebook, linking) leads to the second step; only a device sign-in counts as both.
 */
describe('2-step verification after every first factor', () => {
  let bed: SocialTestbed;
  const url = () => bed.server.url;
  const secret = new Secret({ size: 20 });

  async function json(response: Response) {
    return { status: response.status, body: (await response.json()) as any };
  }

  async function withMfa(input: { email?: string; phoneNumber?: string }, type: 'email' | 'sms' | 'totp') {
    const userId = await createAccount(bed.server.ctx, input);
    await bed.server.ctx.db
      .updateTable('users')
      .set({ enable_mfa: 1, authenticator_type: type, totp_secret_enc: type === 'totp' ? bed.server.ctx.keys.encrypt(secret.base32) : null })
      .where('id', '=', userId)
      .execute();
    return userId;
  }

  const demoAppSignIn = () => begin(bed.server, 'demo-app');
  const noResult = (challenge: string) => expectNotSignedIn(bed.server, challenge);

  beforeAll(async () => {
    bed = await startSocialTestbed({ LOGIN_RATE_LIMIT_PER_IP: '1000' });
  });
  afterAll(() => bed?.close());

  it('passwordless: the SMS code is the first factor; the e-mail code finishes the sign-in', async () => {
    const phone = '0955000111';
    const userId = await withMfa({ phoneNumber: phone, email: 'pl-mfa@example.com' }, 'email');
    const { rp, auth, browser, challenge } = await demoAppSignIn();
    await browser.postJson(`${url()}/api/v1/passwordless/send`, { challenge, phone_number: phone });
    const first = await json(await browser.postJson(`${url()}/api/v1/passwordless/login`, { challenge, phone_number: phone, code: await lastCode(bed.server.ctx, phone) }));
    expect(first).toMatchObject({ status: 200, body: { mfaRequired: true, tokenType: 'email', mfaToken: expect.any(String) } });
    expect(first.body.redirectTo).toBeUndefined();
    await noResult(challenge);

    expect((await browser.postJson(`${url()}/api/v1/mfa/trigger-challenge`, { token_type: 'email', mfa_token: first.body.mfaToken })).status).toBe(200);
    const second = await json(
      await browser.postJson(`${url()}/api/v1/mfa/login`, { token_type: 'email', mfa_token: first.body.mfaToken, otp: await lastCode(bed.server.ctx, 'pl-mfa@example.com'), challenge }),
    );
    expect(second.status).toBe(200);
    const tokens = await finishSignIn(browser, url(), rp, auth, second.body.redirectTo);
    expect(tokens.claims()?.sub).toBe(userId);
    const events = await bed.server.ctx.audit.listForUser(userId);
    const success = events.find((e) => e.type === 'login.success');
    expect(JSON.parse(String(success?.details))).toMatchObject({ method: 'passwordless', secondFactor: 'email' });
  });

  it('passwordless with SMS 2-step: the same phone cannot be both factors (1102), nothing is signed in', async () => {
    const phone = '0955000222';
    await withMfa({ phoneNumber: phone }, 'sms');
    const { browser, challenge } = await demoAppSignIn();
    await browser.postJson(`${url()}/api/v1/passwordless/send`, { challenge, phone_number: phone });
    const refused = await json(await browser.postJson(`${url()}/api/v1/passwordless/login`, { challenge, phone_number: phone, code: await lastCode(bed.server.ctx, phone) }));
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 1102 } } });
    await noResult(challenge);
  });

  it('Google: an identity linked to an account with an authenticator app asks for its code; amr names both', async () => {
    const userId = await withMfa({ email: 'g-mfa@example.com' }, 'totp');
    await bed.server.ctx.db
      .insertInto('user_identities')
      .values({ id: 'ident-g-mfa', tenant_id: 'demo', provider: 'google', subject: 'g-sub-mfa', user_id: userId, email: 'g-mfa@example.com', created_at: Date.now() })
      .execute();
    bed.fake.google.set('g-mfa', { appId: GOOGLE_APP, sub: 'g-sub-mfa', email: 'g-mfa@example.com' });
    const start = await begin(bed.server);
    const first = await json(await start.browser.postJson(`${url()}/api/v1/social/login`, { authorizer: 'google', app_id: GOOGLE_APP, challenge: start.challenge, access_token: 'g-mfa' }));
    expect(first.body).toMatchObject({ mfaRequired: true, tokenType: 'totp' });
    await noResult(start.challenge);

    const otp = new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate();
    const second = await json(await start.browser.postJson(`${url()}/api/v1/mfa/login`, { token_type: 'totp', mfa_token: first.body.mfaToken, otp, challenge: start.challenge }));
    expect(second.status).toBe(200);
    const result = (await bed.server.ctx.provider.Interaction.find(start.challenge))?.result as { login?: { amr?: string[] } } | undefined;
    expect(result?.login?.amr).toEqual(['google', 'otp', 'mfa']);
    const tokens = await finishSignIn(start.browser, url(), start.rp, start.auth, second.body.redirectTo);
    // What the relying party gets: the ID token names both steps, and when they happened.
    expect(tokens.claims()).toMatchObject({ sub: userId, amr: ['google', 'otp', 'mfa'], auth_time: expect.any(Number) });
  });

  it('linking by password to an account with 2-step on leads to the second step, not into the account', async () => {
    await withMfa({ email: 'link-mfa@example.com' }, 'email');
    bed.fake.google.set('g-link-mfa', { appId: GOOGLE_APP, sub: 'g-sub-link-mfa', email: 'link-mfa@example.com' });
    const start = await begin(bed.server);
    const login = await json(await start.browser.postJson(`${url()}/api/v1/social/login`, { authorizer: 'google', app_id: GOOGLE_APP, challenge: start.challenge, access_token: 'g-link-mfa' }));
    expect(login.body).toMatchObject({ linkRequired: true });
    const linked = await json(await start.browser.postJson(`${url()}/api/v1/social/link`, { challenge: start.challenge, link_token: login.body.linkToken, password: 'Passw0rd!' }));
    expect(linked.body).toMatchObject({ mfaRequired: true, tokenType: 'email' });
    await noResult(start.challenge);
  });

  it('a device sign-in counts as both factors: no second step', async () => {
    const { userId, authenticator } = await accountWithDevice(bed.server.ctx, url(), 'device-mfa@example.com');
    await bed.server.ctx.db.updateTable('users').set({ enable_mfa: 1, authenticator_type: 'email' }).where('id', '=', userId).execute();
    const { rp, auth, browser, challenge } = await demoAppSignIn();
    const started = await json(await browser.postJson(`${url()}/api/v2/get-challenge`, { challenge_type: 'AUTHN_WEBAUTHN', oauth_challenge: challenge, username: 'device-mfa@example.com' }));
    const request = started.body.challengeRequest;
    await browser.postJson(`${url()}/api/v2/resolve-challenge`, {
      challenge_type: 'AUTHN_WEBAUTHN',
      challenge: started.body.challenge,
      oauth_challenge: challenge,
      publickey_credential: authenticator.assert(request.publickeyCredentialRequestOptions, {}, userId),
    });
    const polled = await json(await browser.postJson(`${url()}/api/v2/device-login/poll`, { challenge: request.getRedirectUrlChallenge, redirect_url_key: request.redirectUrlKey, oauth_challenge: challenge }));
    expect(polled.body).toMatchObject({ code: 'approved', redirectTo: expect.any(String) });
    expect((await finishSignIn(browser, url(), rp, auth, polled.body.redirectTo)).claims()?.sub).toBe(userId);
  });
});
