import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../../test/browser.ts';
import { authorizationRequest, finishSignIn, relyingParty, startSignIn } from '../../../test/relying-party.ts';
import { userById } from '../../../test/account.ts';
import type { AppContext } from '../../context.ts';
import { endCooldown, lastCode } from '../../../test/visitor.ts';
import { begin, GOOGLE_APP, startSocialTestbed, type SocialTestbed } from '../social/social-test-setup.ts';

/**
 * Pre-account hijack: someone registers an address or number that is not theirs (the account stays
 * pending) and waits for the owner to activate it by another proof. Whatever the registrant set
 * (password, its history, the profile) must not survive; the owner keeps only what they proved.
 */
describe('nothing an unproven registrant set survives activation by someone else\'s proof', () => {
  let bed: SocialTestbed;
  const url = () => bed.server.url;

  async function json(response: Response) {
    return { status: response.status, body: (await response.json()) as any };
  }

  async function register(username: string, password: string, name: string) {
    const response = await new TestBrowser().postJson(`${url()}/api/v1/users/register`, { username, password, name, client_id: 'demo-app' });
    expect(response.status).toBe(200);
    const user = await bed.server.ctx.users.findByUsername('demo', username);
    expect(user).toMatchObject({ status: 'pending', name });
    expect(await bed.server.ctx.users.recentPasswordHashes(user!.id, 10)).toHaveLength(1);
    return user!.id;
  }

  /** A password sign-in attempt at demo-app, from a browser of its own. */
  async function passwordSignIn(username: string, password: string) {
    const browser = new TestBrowser();
    const challenge = await startSignIn(browser, url(), await authorizationRequest(await relyingParty(url(), 'demo-app', 'demo-secret')));
    return json(await browser.postJson(`${url()}/api/v1/users/login`, { challenge, username, password }));
  }

  async function expectOnlyProofKept(userId: string, method: string) {
    const row = await userById(bed.server.ctx, userId);
    expect(row).toMatchObject({ status: 'active', password_hash: null, password_changed_at: null, name: null, birthday: null, gender: null, registration_method: method });
    expect(await bed.server.ctx.users.recentPasswordHashes(userId, 10)).toEqual([]);
  }

  beforeAll(async () => {
    bed = await startSocialTestbed({ LOGIN_RATE_LIMIT_PER_IP: '1000' });
  });
  afterAll(() => bed?.close());

  it('passwordless: the owner proves the phone by SMS; the squatter\'s password no longer signs in', async () => {
    const phone = '0944000111';
    const userId = await register(phone, 'Squatter1!', 'Squatter');
    // Before: pending, so the squatter's password is refused as 'not activated'.
    expect((await passwordSignIn(phone, 'Squatter1!')).body).toMatchObject({ error: { code: 1011 } });

    const rp = await relyingParty(url(), 'demo-app', 'demo-secret');
    const auth = await authorizationRequest(rp, { scope: 'openid profile phone' });
    const owner = new TestBrowser();
    const challenge = await startSignIn(owner, url(), auth);
    expect((await owner.postJson(`${url()}/api/v1/passwordless/send`, { challenge, phone_number: phone })).status).toBe(200);
    const signedIn = await json(await owner.postJson(`${url()}/api/v1/passwordless/login`, { challenge, phone_number: phone, code: await lastCode(bed.server.ctx, phone) }));
    expect(signedIn.status).toBe(200);
    const tokens = await finishSignIn(owner, url(), rp, auth, signedIn.body.redirectTo);
    expect(tokens.claims()).toMatchObject({ sub: userId, phone_number: phone, phone_number_verified: true });
    expect(tokens.claims()?.name).toBeUndefined();

    await expectOnlyProofKept(userId, 'passwordless');
    expect(await passwordSignIn(phone, 'Squatter1!')).toMatchObject({ status: 401, body: { error: { code: 1017 } } });
  });

  it('Google with an e-mailed code: linking activates the account without the squatter\'s password or name', async () => {
    const email = 'owner-7@example.com';
    const userId = await register(email, 'Squatter1!', 'Squatter');
    bed.fake.google.set('g-owner-7', { appId: GOOGLE_APP, sub: 'g-sub-owner-7', email, name: 'Owner Seven' });

    const start = await begin(bed.server);
    const login = await json(await start.browser.postJson(`${url()}/api/v1/social/login`, { authorizer: 'google', app_id: GOOGLE_APP, challenge: start.challenge, access_token: 'g-owner-7' }));
    // A pending account is offered the code only: its password proves nothing yet.
    expect(login.body).toMatchObject({ linkRequired: true, methods: ['code'] });
    const linkBody = { challenge: start.challenge, link_token: login.body.linkToken };
    expect(await start.browser.postJson(`${url()}/api/v1/social/link`, { ...linkBody, password: 'Squatter1!' }).then(json)).toMatchObject({ status: 401, body: { error: { code: 1017 } } });
    expect((await start.browser.postJson(`${url()}/api/v1/social/link/send-code`, linkBody)).status).toBe(200);
    const linked = await json(await start.browser.postJson(`${url()}/api/v1/social/link`, { ...linkBody, code: await lastCode(bed.server.ctx, email) }));
    expect(linked.status).toBe(200);
    expect((await finishSignIn(start.browser, url(), start.rp, start.auth, linked.body.redirectTo)).claims()?.sub).toBe(userId);

    await expectOnlyProofKept(userId, 'google');
    expect(await userById(bed.server.ctx, userId)).toMatchObject({ email, email_verified: 1 });
    expect(await passwordSignIn(email, 'Squatter1!')).toMatchObject({ status: 401, body: { error: { code: 1017 } } });
  });

  /** A browser on the Register screen of a demo-app sign-in: it holds that sign-in request. */
  async function onRegisterScreen() {
    const rp = await relyingParty(url(), 'demo-app', 'demo-secret');
    const auth = await authorizationRequest(rp);
    const browser = new TestBrowser();
    const challenge = await startSignIn(browser, url(), auth);
    return { browser, challenge, rp, auth };
  }

  async function registerIn(browser: TestBrowser, username: string, password: string, name: string) {
    expect((await browser.postJson(`${url()}/api/v1/users/register`, { username, password, name, client_id: 'demo-app' })).status).toBe(200);
  }

  const ctxOf = (): AppContext => bed.server.ctx;

  it('registering a pending address again elsewhere takes nothing over: the owner\'s latest code, typed in their browser, activates the address without the stranger\'s password', async () => {
    const email = 'waiting-9@example.com';
    const owner = await onRegisterScreen();
    await registerIn(owner.browser, email, 'Owner-pw1!', 'Owner Nine');
    const userId = (await ctxOf().users.findByUsername('demo', email))!.id;

    // While the owner reads their mail, strangers register the address again: from a browser of
    // their own, and from a client that keeps no cookies. Each sends the owner a new code.
    for (const stranger of [(await onRegisterScreen()).browser, null]) {
      await endCooldown(ctxOf(), 'demo', 'activation', email);
      const body = { username: email, password: 'Stranger-pw1!', name: 'Stranger', client_id: 'demo-app' };
      const again = stranger ? await stranger.postJson(`${url()}/api/v1/users/register`, body) : await fetch(`${url()}/api/v1/users/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(again.status).toBe(200);
    }
    expect(await userById(ctxOf(), userId)).toMatchObject({ status: 'pending', name: 'Stranger' });

    const confirmed = await json(await owner.browser.postJson(`${url()}/api/v1/users/confirm`, { username: email, code: await lastCode(ctxOf(), email), challenge: owner.challenge, client_id: 'demo-app' }));
    expect(confirmed.status).toBe(200);
    // The owner is signed in to the relying party by the code they proved...
    expect((await finishSignIn(owner.browser, url(), owner.rp, owner.auth, confirmed.body.redirectTo)).claims()).toMatchObject({ sub: userId, email, email_verified: true });
    // ...and nothing the strangers typed survived.
    await expectOnlyProofKept(userId, 'password');
    expect(await passwordSignIn(email, 'Stranger-pw1!')).toMatchObject({ status: 401, body: { error: { code: 1017 } } });
    const activated = (await ctxOf().audit.listForUser(userId)).find((event) => event.type === 'user.activated');
    expect(typeof activated?.details === 'string' ? JSON.parse(activated.details) : activated?.details).toMatchObject({ channel: 'email', registrationDropped: true });

    // The owner chooses their password through recovery, as any owner who forgot it.
    await endCooldown(ctxOf(), 'demo', 'recovery', email);
    expect((await new TestBrowser().postJson(`${url()}/api/v1/password/recover`, { username: email, client_id: 'demo-app' })).status).toBe(200);
    const reset = await new TestBrowser().postJson(`${url()}/api/v1/password/reset`, { username: email, password: 'Owner-pw2!', code: await lastCode(ctxOf(), email), client_id: 'demo-app' });
    expect(reset.status).toBe(200);
    expect((await passwordSignIn(email, 'Owner-pw2!')).status).toBe(200);
  });

  it('a registration from a client that keeps no cookies keeps nothing when its code is typed in a browser, even one that holds no browser key yet', async () => {
    const email = 'fresh-11@example.com';
    // The squatter registers the address from a script: no cookies, so the registration is bound to nothing.
    const squat = await fetch(`${url()}/api/v1/users/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: email, password: 'Squatter1!', name: 'Squatter', client_id: 'demo-app' }),
    });
    expect(squat.status).toBe(200);
    const userId = (await ctxOf().users.findByUsername('demo', email))!.id;
    expect(await userById(ctxOf(), userId)).toMatchObject({ status: 'pending', name: 'Squatter', registrant_browser_hash: null });

    // The owner, on a browser that has never signed in here (no passgate_browser key), asks for an
    // activation code from the sign-in screen and types it there.
    const owner = await onRegisterScreen();
    expect(owner.browser.has('passgate_browser')).toBe(false);
    await endCooldown(ctxOf(), 'demo', 'activation', email);
    expect((await owner.browser.postJson(`${url()}/api/v1/users/activation/resend`, { username: email, client_id: 'demo-app' })).status).toBe(200);
    expect(owner.browser.has('passgate_browser')).toBe(false);
    const confirmed = await json(await owner.browser.postJson(`${url()}/api/v1/users/confirm`, { username: email, code: await lastCode(ctxOf(), email), challenge: owner.challenge, client_id: 'demo-app' }));
    expect(confirmed.status).toBe(200);
    expect((await finishSignIn(owner.browser, url(), owner.rp, owner.auth, confirmed.body.redirectTo)).claims()).toMatchObject({ sub: userId, email, email_verified: true });

    // The squatter's password and name did not come with the address: the squatter cannot sign in
    // (and so cannot turn 2-step on with an authenticator of their own before the owner notices).
    await expectOnlyProofKept(userId, 'password');
    expect(await passwordSignIn(email, 'Squatter1!')).toMatchObject({ status: 401, body: { error: { code: 1017 } } });
    const activated = (await ctxOf().audit.listForUser(userId)).find((event) => event.type === 'user.activated');
    expect(typeof activated?.details === 'string' ? JSON.parse(activated.details) : activated?.details).toMatchObject({ registrationDropped: true });
  });

  it('a code typed in the registering browser keeps the password, even in a later sign-in request of that browser', async () => {
    const email = 'later-10@example.com';
    const first = await onRegisterScreen();
    await registerIn(first.browser, email, 'Mine-pw10!', 'Later Ten');
    // The tab was closed; a new sign-in in the same browser asks for the code again.
    const rp = await relyingParty(url(), 'demo-app', 'demo-secret');
    const auth = await authorizationRequest(rp);
    const challenge = await startSignIn(first.browser, url(), auth);
    await endCooldown(ctxOf(), 'demo', 'activation', email);
    expect((await first.browser.postJson(`${url()}/api/v1/users/activation/resend`, { username: email, client_id: 'demo-app' })).status).toBe(200);
    const confirmed = await json(await first.browser.postJson(`${url()}/api/v1/users/confirm`, { username: email, code: await lastCode(ctxOf(), email), challenge, client_id: 'demo-app' }));
    expect(confirmed.status).toBe(200);
    expect(await ctxOf().users.findByUsername('demo', email)).toMatchObject({ status: 'active', name: 'Later Ten', registrant_browser_hash: null });
    expect((await passwordSignIn(email, 'Mine-pw10!')).status).toBe(200);
  });

  it('the account\'s own activation code keeps what the registrant set: they proved the address', async () => {
    const email = 'self-8@example.com';
    const userId = await register(email, 'Mine-pw1!', 'Self Eight');
    const confirmed = await new TestBrowser().postJson(`${url()}/api/v1/users/confirm`, { username: email, code: await lastCode(bed.server.ctx, email), client_id: 'demo-app' });
    expect(confirmed.status).toBe(200);
    expect(await userById(bed.server.ctx, userId)).toMatchObject({ status: 'active', name: 'Self Eight', registration_method: 'password' });
    expect((await passwordSignIn(email, 'Mine-pw1!')).status).toBe(200);
  });
});
