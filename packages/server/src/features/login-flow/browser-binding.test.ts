import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../../test/browser.ts';
import { authorizationRequest, finishSignIn, relyingParty, startSignIn } from '../../../test/relying-party.ts';
import { createAccount, userById } from '../../../test/account.ts';
import { auditTypes, lastCode, messageCount } from '../../../test/visitor.ts';
import { accountWithDevice } from '../../../test/webauthn.ts';
import { begin, expectNotSignedIn, GOOGLE_APP, startSocialTestbed, type SocialTestbed } from '../social/social-test-setup.ts';

/**
 * Login CSRF / authorization-request hijack: an attacker starts a sign-in in their own browser and
 * gets someone else to finish it (the challenge is in the /login URL they send). Every call that
 * takes a challenge must come from the browser that started it; otherwise 1026 and nothing changes.
 */
describe('a sign-in request finishes only in the browser that started it', () => {
  let bed: SocialTestbed;
  const url = () => bed.server.url;
  const expired = { status: 400, body: { error: { code: 1026 } } };

  async function answer(response: Response) {
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  /** The attacker's own sign-in request at `clientId`: their browser holds it; the victim gets only the challenge. */
  async function attackerRequest(clientId = 'demo-app') {
    const { rp, auth, browser: owner, challenge } = await begin(bed.server, clientId);
    return { rp, auth, owner, challenge };
  }

  const noResult = (challenge: string) => expectNotSignedIn(bed.server, challenge);

  beforeAll(async () => {
    bed = await startSocialTestbed({ LOGIN_RATE_LIMIT_PER_IP: '1000' });
  });
  afterAll(() => bed?.close());

  it('password sign-in and reading the request: the victim\'s browser is refused, nothing counted; the owner still signs in', async () => {
    const userId = await createAccount(bed.server.ctx, { email: 'victim-1@example.com' });
    const { rp, auth, owner, challenge } = await attackerRequest();
    const victim = new TestBrowser();
    const before = await userById(bed.server.ctx, userId);
    const eventsBefore = await auditTypes(bed.server.ctx, userId);

    expect(await answer(await victim.fetch(`${url()}/api/v1/requests/login/${challenge}`))).toMatchObject(expired);
    const posted = await answer(await victim.postJson(`${url()}/api/v1/users/login`, { challenge, username: 'victim-1@example.com', password: 'Passw0rd!' }));
    expect(posted).toMatchObject({ status: 400, body: { error: { code: 1026, field: 'challenge' } } });
    // A wrong password from the wrong browser is not even counted.
    await victim.postJson(`${url()}/api/v1/users/login`, { challenge, username: 'victim-1@example.com', password: 'wrong-Passw0rd' });
    await noResult(challenge);
    expect(await userById(bed.server.ctx, userId)).toEqual(before);
    expect(await auditTypes(bed.server.ctx, userId)).toEqual(eventsBefore);

    // A forged interaction cookie (no valid signature) proves nothing either.
    const forged = await answer(
      await fetch(`${url()}/api/v1/users/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: `_interaction=${challenge}; _interaction.sig=forged` },
        body: JSON.stringify({ challenge, username: 'victim-1@example.com', password: 'Passw0rd!' }),
      }),
    );
    expect(forged).toMatchObject(expired);

    // The browser that started it signs in as usual (here, as the account itself).
    const own = await owner.postJson(`${url()}/api/v1/users/login`, { challenge, username: 'victim-1@example.com', password: 'Passw0rd!' });
    expect(own.status).toBe(200);
    const tokens = await finishSignIn(owner, url(), rp, auth, ((await own.json()) as { redirectTo: string }).redirectTo);
    expect(tokens.claims()?.sub).toBe(userId);
  });

  it('an older request of the same browser is replaced by its newest one (one interaction cookie per browser)', async () => {
    const owner = new TestBrowser();
    const rp = await relyingParty(url(), 'demo-app', 'demo-secret');
    const first = await startSignIn(owner, url(), await authorizationRequest(rp));
    const second = await startSignIn(owner, url(), await authorizationRequest(rp));
    expect(await answer(await owner.fetch(`${url()}/api/v1/requests/login/${first}`))).toMatchObject(expired);
    expect((await owner.fetch(`${url()}/api/v1/requests/login/${second}`)).status).toBe(200);
  });

  it('2-step: neither the code nor the sending of one works from another browser', async () => {
    const userId = await createAccount(bed.server.ctx, { email: 'victim-2@example.com' });
    await bed.server.ctx.db.updateTable('users').set({ enable_mfa: 1, authenticator_type: 'email' }).where('id', '=', userId).execute();
    const { rp, auth, owner, challenge } = await attackerRequest();
    const step = await answer(await owner.postJson(`${url()}/api/v1/users/login`, { challenge, username: 'victim-2@example.com', password: 'Passw0rd!' }));
    expect(step.body).toMatchObject({ mfaRequired: true, tokenType: 'email' });
    const { mfaToken } = step.body;

    const other = new TestBrowser();
    expect(await answer(await other.postJson(`${url()}/api/v1/mfa/trigger-challenge`, { token_type: 'email', mfa_token: mfaToken }))).toMatchObject(expired);
    expect(await messageCount(bed.server.ctx, 'victim-2@example.com')).toBe(0);
    expect((await owner.postJson(`${url()}/api/v1/mfa/trigger-challenge`, { token_type: 'email', mfa_token: mfaToken })).status).toBe(200);
    const code = await lastCode(bed.server.ctx, 'victim-2@example.com');
    expect(await answer(await other.postJson(`${url()}/api/v1/mfa/login`, { token_type: 'email', mfa_token: mfaToken, otp: code, challenge }))).toMatchObject(expired);
    await noResult(challenge);

    const done = await answer(await owner.postJson(`${url()}/api/v1/mfa/login`, { token_type: 'email', mfa_token: mfaToken, otp: code, challenge }));
    expect(done.status).toBe(200);
    expect((await finishSignIn(owner, url(), rp, auth, done.body.redirectTo)).claims()?.sub).toBe(userId);
  });

  it('passwordless: no code is sent and no sign-in finishes for a challenge the browser does not hold', async () => {
    const phone = '0933000111';
    await createAccount(bed.server.ctx, { phoneNumber: phone });
    const { owner, challenge } = await attackerRequest();
    const other = new TestBrowser();
    expect(await answer(await other.postJson(`${url()}/api/v1/passwordless/send`, { challenge, phone_number: phone }))).toMatchObject(expired);
    expect(await messageCount(bed.server.ctx, phone)).toBe(0);

    expect((await owner.postJson(`${url()}/api/v1/passwordless/send`, { challenge, phone_number: phone })).status).toBe(200);
    const code = await lastCode(bed.server.ctx, phone);
    expect(await answer(await other.postJson(`${url()}/api/v1/passwordless/login`, { challenge, phone_number: phone, code }))).toMatchObject(expired);
    await noResult(challenge);
    // The code was not spent by the refused call.
    expect((await owner.postJson(`${url()}/api/v1/passwordless/login`, { challenge, phone_number: phone, code })).status).toBe(200);
  });

  it('Google sign-in and linking: refused from another browser, no account created, nothing linked', async () => {
    bed.fake.google.set('g-victim-3', { appId: GOOGLE_APP, sub: 'g-sub-victim-3', email: 'victim-3@example.com', name: 'Victim' });
    const { challenge } = await attackerRequest('social-app');
    const other = new TestBrowser();
    const body = { authorizer: 'google', app_id: GOOGLE_APP, challenge, access_token: 'g-victim-3' };
    expect(await answer(await other.postJson(`${url()}/api/v1/social/login`, body))).toMatchObject(expired);
    expect(await bed.server.ctx.users.findByUsername('demo', 'victim-3@example.com')).toBeUndefined();
    await noResult(challenge);

    // Linking: the owner's browser gets a link token for an existing account; another browser cannot use it.
    const userId = await createAccount(bed.server.ctx, { email: 'victim-4@example.com' });
    bed.fake.google.set('g-victim-4', { appId: GOOGLE_APP, sub: 'g-sub-victim-4', email: 'victim-4@example.com' });
    const second = await attackerRequest('social-app');
    const link = await answer(await second.owner.postJson(`${url()}/api/v1/social/login`, { ...body, challenge: second.challenge, access_token: 'g-victim-4' }));
    expect(link.body).toMatchObject({ linkRequired: true });
    const linkBody = { challenge: second.challenge, link_token: link.body.linkToken };
    expect(await answer(await other.postJson(`${url()}/api/v1/social/link/send-code`, linkBody))).toMatchObject(expired);
    expect(await messageCount(bed.server.ctx, 'victim-4@example.com')).toBe(0);
    expect(await answer(await other.postJson(`${url()}/api/v1/social/link`, { ...linkBody, password: 'Passw0rd!' }))).toMatchObject(expired);
    expect(await bed.server.ctx.db.selectFrom('user_identities').select('id').where('user_id', '=', userId).execute()).toEqual([]);
    await noResult(second.challenge);
  });

  it('registration with a challenge: refused from another browser, no account made and no code sent', async () => {
    const { challenge } = await attackerRequest();
    const visitor = new TestBrowser();
    const body = { username: 'victim-7@example.com', password: 'Lantern-42', name: 'V', client_id: 'demo-app', challenge };
    expect(await answer(await visitor.postJson(`${url()}/api/v1/users/register`, body))).toMatchObject({ status: 400, body: { error: { code: 1026, field: 'challenge' } } });
    expect(await bed.server.ctx.users.findByUsername('demo', 'victim-7@example.com')).toBeUndefined();
    expect(await messageCount(bed.server.ctx, 'victim-7@example.com')).toBe(0);
    expect(visitor.has('passgate_browser')).toBe(false);
    await noResult(challenge);
  });

  it('activation with a challenge: refused from another browser before the code is spent', async () => {
    const { challenge } = await attackerRequest();
    const visitor = new TestBrowser();
    expect((await visitor.postJson(`${url()}/api/v1/users/register`, { username: 'victim-5@example.com', password: 'Lantern-42', name: 'V', client_id: 'demo-app' })).status).toBe(200);
    const code = await lastCode(bed.server.ctx, 'victim-5@example.com');
    expect(await answer(await visitor.postJson(`${url()}/api/v1/users/confirm`, { username: 'victim-5@example.com', code, challenge, client_id: 'demo-app' }))).toMatchObject(expired);
    expect(await bed.server.ctx.users.findByUsername('demo', 'victim-5@example.com')).toMatchObject({ status: 'pending' });
    await noResult(challenge);
  });

  it('device sign-in: only the first browser starts and collects it; the second device still approves', async () => {
    const { userId, authenticator } = await accountWithDevice(bed.server.ctx, url(), 'victim-6@example.com');
    const { rp, auth, owner, challenge } = await attackerRequest();
    const other = new TestBrowser();
    const startBody = { challenge_type: 'AUTHN_WEBAUTHN', oauth_challenge: challenge, username: 'victim-6@example.com' };
    expect(await answer(await other.postJson(`${url()}/api/v2/get-challenge`, startBody))).toMatchObject({ status: 400, body: { error: { code: 1026 } } });

    const started = await answer(await owner.postJson(`${url()}/api/v2/get-challenge`, startBody));
    expect(started.status).toBe(200);
    const { challengeRequest } = started.body;
    const pollBody = { challenge: challengeRequest.getRedirectUrlChallenge, redirect_url_key: challengeRequest.redirectUrlKey, oauth_challenge: challenge };

    // The second device (no cookie of the first) reads the sign-in request only with the pending
    // device request of that very sign-in (the QR link's authnChallenge), then approves.
    const secondDevice = new TestBrowser();
    const readRequest = async (authn?: string) =>
      answer(await secondDevice.fetch(`${url()}/api/v1/requests/login/${challenge}${authn ? `?authn_challenge=${authn}` : ''}`));
    expect(await readRequest()).toMatchObject(expired);
    expect(await readRequest('not-the-device-request')).toMatchObject(expired);
    expect(await readRequest(started.body.challenge)).toMatchObject({ status: 200, body: { challenge, skip: false, client: { clientId: 'demo-app' } } });
    expect((await secondDevice.fetch(`${url()}/api/v2/device-login/${started.body.challenge}?oauth_challenge=${challenge}`)).status).toBe(200);
    const approved = await answer(
      await secondDevice.postJson(`${url()}/api/v2/resolve-challenge`, {
        challenge_type: 'AUTHN_WEBAUTHN',
        challenge: started.body.challenge,
        oauth_challenge: challenge,
        publickey_credential: authenticator.assert(challengeRequest.publickeyCredentialRequestOptions, {}, userId),
      }),
    );
    expect(approved).toEqual({ status: 200, body: { approved: true } });
    // Approved, the device request no longer opens the sign-in request to anyone.
    expect(await readRequest(started.body.challenge)).toMatchObject(expired);

    // Even with the redirect URL key, only the first browser collects the result.
    expect(await answer(await secondDevice.postJson(`${url()}/api/v2/device-login/poll`, pollBody))).toMatchObject(expired);
    await noResult(challenge);
    const collected = await answer(await owner.postJson(`${url()}/api/v2/device-login/poll`, pollBody));
    expect(collected.body).toMatchObject({ code: 'approved' });
    expect((await finishSignIn(owner, url(), rp, auth, collected.body.redirectTo)).claims()?.sub).toBe(userId);
  });

  it('logout: only the browser whose session asked reads and decides the request', async () => {
    const rp = await relyingParty(url(), 'demo-app', 'demo-secret');
    const owner = new TestBrowser();
    const auth = await authorizationRequest(rp);
    const challenge = await startSignIn(owner, url(), auth);
    const login = await owner.postJson(`${url()}/api/v1/users/login`, { challenge, username: 'demo@example.com', password: 'Passw0rd!' });
    await finishSignIn(owner, url(), rp, auth, ((await login.json()) as { redirectTo: string }).redirectTo);

    const { url: logoutUrl } = await owner.follow(`${url()}/oidc/session/end?client_id=demo-app`, url());
    const logoutChallenge = new URL(logoutUrl).searchParams.get('challenge') as string;
    expect(logoutChallenge).toBeTruthy();

    const other = new TestBrowser();
    expect(await answer(await other.fetch(`${url()}/api/v1/requests/logout/${logoutChallenge}`))).toMatchObject(expired);
    expect(await answer(await other.postJson(`${url()}/api/v1/requests/logout/${logoutChallenge}`, { confirmed: true }))).toMatchObject(expired);
    expect((await other.fetch(`${url()}/api/v1/requests/logout/${logoutChallenge}/continue`)).status).toBe(400);

    expect((await owner.fetch(`${url()}/api/v1/requests/logout/${logoutChallenge}`)).status).toBe(200);
    const decided = await answer(await owner.postJson(`${url()}/api/v1/requests/logout/${logoutChallenge}`, { confirmed: true }));
    expect(decided.body.redirectTo).toBe(`${url()}/api/v1/requests/logout/${logoutChallenge}/continue`);
  });
});
