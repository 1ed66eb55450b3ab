import { createHash, randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { checkScreen, chooseLanguage, expectNoSeriousA11yViolations, seriousA11yViolations, settle, WIDE } from '../pages/accessibility.ts';
import { AccountPage, ProfilePage, signInToAccountArea } from '../pages/account-pages.ts';
import { createActiveAccount, newAccount, uniqueEmail, uniquePhone } from '../pages/accounts.ts';
import { ChangePasswordSection } from '../pages/change-password-pages.ts';
import { ACCOUNT, DEMO_APP, PARTNER_SHOP } from '../pages/clients.ts';
import { DemoPage } from '../pages/demo-page.ts';
import { tr, type Locale } from '../pages/i18n.ts';
import { DEMO_USER, LoginPage } from '../pages/login-page.ts';
import { LogoutPage } from '../pages/logout-page.ts';
import { codeIn, Outbox } from '../pages/outbox.ts';
import { NARROW, saveScreenshot } from '../pages/screenshots.ts';
import { Login2StepPage, MfaPage, PasswordlessPage, SecurityPage, turnOnAuthenticatorApp } from '../pages/security-pages.ts';
import { SessionsSection } from '../pages/sessions-pages.ts';
import { VirtualAuthenticator } from '../pages/virtual-authenticator.ts';
import { DeviceCodePage, DeviceLoginPage, DevicesCard, RegisterDevicePage, VerifyDevicePage } from '../pages/webauthn-pages.ts';

/**
 * axe-core over every screen of SPEC.md, in Vietnamese and in English, each at 1280 px and at
 * 375 px: no serious or critical WCAG 2.1 A/AA violation, one `main`. One browser context per
 * language and part (the visitor screens, the account area) goes from screen to screen and checks
 * each at both widths, so no account is registered per screen.
 */
test.describe.configure({ mode: 'parallel' });

const LOCALES: readonly Locale[] = ['vi', 'en'];

/** Opens a screen of the flow with the route state the screen before it would hand over (react-router keeps it under `usr`). */
async function openWithState(page: Page, path: string, state: Record<string, unknown>): Promise<void> {
  await page.evaluate(
    ({ path, state }) => {
      window.history.pushState({ usr: state, key: `a11y${Date.now()}`, idx: ((window.history.state as { idx?: number } | null)?.idx ?? 0) + 1 }, '', path);
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    },
    { path, state },
  );
}

/** Demo App's sign-in from /demo: the Login screen, and its `?challenge=` for the other screens. */
async function startDemoSignIn(page: Page, client: typeof DEMO_APP | typeof PARTNER_SHOP, locale: Locale): Promise<{ login: LoginPage; query: string }> {
  const demo = new DemoPage(page);
  await demo.goto();
  await demo.signInTo(client.label);
  const login = new LoginPage(page, locale, client.usernameLabel);
  await expect(login.submit).toBeVisible();
  const challenge = new URL(page.url()).searchParams.get('challenge')!;
  return { login, query: `?challenge=${encodeURIComponent(challenge)}` };
}

/** An authorization request of Demo App that names the account (login_hint), as a relying party sends it. */
function authorizationUrlWithHint(baseURL: string, loginHint: string): string {
  const verifier = randomBytes(32).toString('base64url');
  const params = new URLSearchParams({
    client_id: DEMO_APP.id,
    response_type: 'code',
    scope: 'openid profile email',
    redirect_uri: `${baseURL}/demo/callback`,
    state: randomBytes(8).toString('hex'),
    nonce: randomBytes(8).toString('hex'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    login_hint: loginHint,
  });
  return `/oidc/auth?${params.toString()}`;
}

for (const locale of LOCALES) {
  test(`visitor screens in ${locale} at 1280 and 375 px have no serious accessibility violation`, async ({ page, baseURL }) => {
    // Some 25 screens, each pictured and checked at two widths: on a slow machine (the 26 November
    // one, with both languages' walks and the server sharing two cores) that took past 120 s.
    test.setTimeout(300_000);
    await chooseLanguage(page, locale);

    const { login, query } = await startDemoSignIn(page, DEMO_APP, locale);
    await checkScreen(page, 'login-demo-app', locale);
    await login.signIn(uniqueEmail('nobody'), 'Wrong-passw0rd');
    await expect(login.alert).toBeVisible();
    await checkScreen(page, 'login-refused', locale);

    await page.goto(`/register${query}`);
    await expect(page.getByRole('button', { name: tr(locale, 'register.submit'), exact: true })).toBeVisible();
    await checkScreen(page, 'register', locale);

    for (const path of ['/activation/resend', '/password/recover', '/login/passwordless', '/login/webauthn']) {
      await page.goto(`${path}${query}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await checkScreen(page, path.slice(1).replaceAll('/', '-'), locale);
    }

    const passwordless = new PasswordlessPage(page, locale);
    await page.goto(`/login/passwordless${query}`);
    await passwordless.phone.fill(uniquePhone());
    await passwordless.sendCode.click();
    await expect(passwordless.code).toBeVisible();
    await checkScreen(page, 'login-passwordless-code', locale);

    // The screens reached with the state of the step before (a code was sent, a password is about to expire).
    const challenge = new URLSearchParams(query).get('challenge')!;
    const stateScreens: [string, string, Record<string, unknown>][] = [
      ['activation', '/activation', { username: DEMO_USER.email }],
      ['password-update', '/password/update', { username: DEMO_USER.email }],
      ['login-mfa', '/login/mfa', { tokenType: 'totp', mfaToken: 'a11y-token', username: DEMO_USER.email, challenge }],
      [
        'password-coming-expire',
        '/password/coming-expire',
        { username: DEMO_USER.email, mfaRequired: false, redirectTo: '/demo', passwordWarning: { expiresAt: Math.floor(Date.now() / 1000) + 5 * 86_400, daysLeft: 5 } },
      ],
    ];
    for (const [name, path, state] of stateScreens) {
      await page.goto(`/login${query}`);
      await expect(login.submit).toBeVisible();
      await openWithState(page, `${path}${query}`, state);
      await expect(page).toHaveURL(new RegExp(`${path}\\?`));
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await checkScreen(page, name, locale);
    }

    await startDemoSignIn(page, PARTNER_SHOP, locale);
    await checkScreen(page, 'login-partner-shop', locale);

    // A relying party that names the account: pre-filled and disabled, and 'Not you?' gives the field back.
    await page.goto(authorizationUrlWithHint(baseURL!, DEMO_USER.email));
    await expect(login.username).toHaveValue(DEMO_USER.email);
    await expect(login.username).toBeDisabled();
    await checkScreen(page, 'login-hint', locale);
    await page.getByRole('button', { name: tr(locale, 'login.notYou'), exact: true }).click();
    await expect(login.username).toHaveValue('');
    await expect(login.username).toBeEditable();
    await expect(login.username).toBeFocused();

    // Log out from the relying party: the confirmation screen.
    const demo = new DemoPage(page);
    const signedIn = await startDemoSignIn(page, DEMO_APP, locale);
    await signedIn.login.signIn();
    await demo.expectSignedIn('Demo App', DEMO_APP.id, DEMO_USER);
    await demo.logOut.click();
    const logout = new LogoutPage(page, locale);
    await expect(logout.confirm).toBeVisible();
    await checkScreen(page, 'logout', locale);
    await logout.back.click();
    await expect(page).toHaveURL(/\/demo(\?|$)/);

    const plainScreens: [string, string][] = [
      ['error-404', '/no-such-screen'],
      ['error-400', '/login/webauthn/verify-device'],
      ['request-gone-mfa', '/login/mfa'],
      ['session-expired', '/alert/session-expired'],
      ['privacy', '/privacy'],
      ['account-deleted', '/account-deleted'],
      ['login-without-challenge', '/login'],
      ['verify-device-unknown', `/login/webauthn/verify-device${query}&authnChallenge=unknown`],
    ];
    for (const [name, path] of plainScreens) {
      await page.goto(path);
      await expect(page.getByRole('main')).toBeVisible();
      await expect(page.getByRole('progressbar')).toHaveCount(0);
      await checkScreen(page, name, locale);
    }
  });

  test(`account area in ${locale} at 1280 and 375 px has no serious accessibility violation`, async ({ page, browser, baseURL }) => {
    // As the visitor walk: 144 s of its 150 on the slow 26 November machine.
    test.setTimeout(300_000);
    await chooseLanguage(page, locale);
    const authenticator = await VirtualAuthenticator.attach(page);
    const account = newAccount(uniqueEmail(`a11y-${locale}`), 'Nguyễn Thị Minh Khai');
    await createActiveAccount(page.request, account);
    const outbox = new Outbox(page.request);

    await page.goto('/user/dashboard');
    const login = new LoginPage(page, locale, ACCOUNT.usernameLabel);
    await expect(login.submit).toBeVisible();
    await checkScreen(page, 'login-account', locale);
    await login.signIn(account.username, account.password);
    const area = new AccountPage(page, locale);
    await expect(page).toHaveURL(/\/user\/dashboard$/);
    await expect(area.heading).toHaveText(tr(locale, 'account.dashboard.heading'));
    await checkScreen(page, 'dashboard', locale);

    await area.userMenuButton.click();
    await expect(area.logOut).toBeVisible();
    await checkScreen(page, 'user-menu', locale);
    await page.keyboard.press('Escape');

    await page.setViewportSize(NARROW);
    await area.hamburger.click();
    await expect(area.navigation).toBeVisible();
    await settle(page);
    await saveScreenshot(page, `a11y-side-menu-375-${locale}`);
    await expectNoSeriousA11yViolations(page, `side menu (${locale}, 375 px)`, { soft: true });
    await area.menuLink('profile').click();
    await page.setViewportSize(WIDE);

    const profile = new ProfilePage(page, locale);
    await profile.expectShown();
    await checkScreen(page, 'profile', locale);
    await profile.contactButton('addPhoneNumber').click();
    await expect(profile.contactEditor('addPhoneNumber').form).toBeVisible();
    await checkScreen(page, 'profile-contact-editor', locale);
    await profile.deleteAccount.click();
    await expect(profile.deleteDialog).toBeVisible();
    await checkScreen(page, 'profile-delete-dialog', locale);
    await page.keyboard.press('Escape');
    await expect(profile.deleteDialog).toHaveCount(0);

    await page.goto('/user/security');
    const security = new SecurityPage(page, locale);
    await security.expectShown();
    await checkScreen(page, 'security', locale);
    await security.mfaRow('off').click();
    await expect(security.checkPassword).toBeVisible();
    await checkScreen(page, 'security-password-check', locale);
    await security.checkPassword.fill(account.password);
    await security.checkNext.click();
    await expect(page).toHaveURL(/\/user\/security\/mfa\/greeting$/);
    await checkScreen(page, 'mfa-greeting', locale);
    const mfa = new MfaPage(page, locale);
    await mfa.getStarted.click();
    await mfa.expectShown();
    await checkScreen(page, 'mfa-methods', locale);
    await mfa.setUp('totp').click();
    await expect(mfa.qrCode).toBeVisible();
    await checkScreen(page, 'mfa-totp-dialog', locale);
    await page.keyboard.press('Escape');

    // A device: register, activate with the e-mailed code, see it listed, start deleting it.
    await page.goto('/user/profile');
    const devices = new DevicesCard(page, locale);
    await devices.register.click();
    const register = new RegisterDevicePage(page, locale);
    await register.expectShown();
    await checkScreen(page, 'webauthn-register', locale);
    const deviceName = 'Máy tính xách tay';
    const seen = await outbox.messages(account.username);
    await register.deviceName.fill(deviceName);
    await register.submit.click();
    const activation = new DeviceCodePage(page, locale, 'activation');
    await expect(activation.code).toBeVisible();
    await checkScreen(page, 'webauthn-activation', locale);
    await activation.code.fill(codeIn(await outbox.next(account.username, seen)));
    await activation.submit.click();
    await expect(devices.state(deviceName, 'active')).toBeVisible();
    await checkScreen(page, 'profile-devices', locale);
    await devices.delete(deviceName).click();
    await expect(devices.deleteDialog).toBeVisible();
    await checkScreen(page, 'webauthn-delete-dialog', locale);
    await devices.confirmDelete.click();
    const deletion = new DeviceCodePage(page, locale, 'deletion');
    await expect(deletion.code).toBeVisible();
    await checkScreen(page, 'webauthn-deletion', locale);

    // Log in with the device from a browser that does not hold the key: the QR code, then the
    // confirmation on the second device.
    const [credential] = await authenticator.credentials();
    await authenticator.clear();
    await page.goto('/user/dashboard');
    await area.signOut();
    await expect(login.submit).toBeVisible();
    await startDemoSignIn(page, DEMO_APP, locale);
    await new LoginPage(page, locale, DEMO_APP.usernameLabel).deviceLogin.click();
    const deviceLogin = new DeviceLoginPage(page, locale);
    await deviceLogin.expectShown();
    await deviceLogin.logIn(account.username);
    await expect(deviceLogin.qrDialog).toBeVisible({ timeout: 30_000 });
    await checkScreen(page, 'login-webauthn-qr', locale);

    const secondContext = await browser.newContext({ baseURL });
    try {
      const second = await secondContext.newPage();
      await chooseLanguage(second, locale);
      await (await VirtualAuthenticator.attach(second)).add(credential!);
      await second.goto((await deviceLogin.qrLink.getAttribute('href'))!);
      await expect(new VerifyDevicePage(second, locale).confirmation(DEMO_APP.name)).toBeVisible();
      await checkScreen(second, 'verify-device', locale);
    } finally {
      await secondContext.close();
    }
  });
}

/** The browser of the second session of the Security page's scenario, named in its list as 'Chrome 130 · Linux'. */
const OTHER_BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

for (const locale of LOCALES) {
  test(`Security page dialogs and the 2-step screen's 'Don't ask again' box in ${locale} at 1280 and 375 px have no serious accessibility violation`, async ({ page, browser, baseURL }) => {
    test.setTimeout(180_000);
    await chooseLanguage(page, locale);
    const account = newAccount(uniqueEmail(`a11y-security-${locale}`), 'Lê Văn Tám');
    await createActiveAccount(page.request, account);
    // A second browser signed in: the session list has one to sign out.
    const otherContext = await browser.newContext({ baseURL, userAgent: OTHER_BROWSER });
    try {
      await signInToAccountArea(await otherContext.newPage(), account);
    } finally {
      await otherContext.close();
    }

    await page.goto('/user/security');
    await new LoginPage(page, locale, ACCOUNT.usernameLabel).signIn(account.username, account.password);
    const sessions = new SessionsSection(page, locale);
    await sessions.expectShown();
    await sessions.expectSessions(2);
    await sessions.signOutSession('Chrome 130 · Linux').click();
    await expect(sessions.confirmDialog).toContainText('Chrome 130 · Linux');
    await checkScreen(page, 'security-session-sign-out-dialog', locale);
    await sessions.confirm.click();
    await expect(sessions.signedOut('Chrome 130 · Linux')).toBeVisible();
    await sessions.expectSessions(1);

    // Change password: the dialog, then a wrong current password said beside its field.
    const password = new ChangePasswordSection(page, locale);
    await password.open();
    await checkScreen(page, 'security-change-password-dialog', locale);
    await password.fill('Not-the-password-1', 'Harbour-lights-93-tacit-owl');
    await password.submit.click();
    await expect(password.currentPassword).toHaveAttribute('aria-invalid', 'true');
    await checkScreen(page, 'security-change-password-refused', locale);
    await password.cancel.click();
    await expect(password.dialog).toHaveCount(0);

    // 2-step verification on, then a sign-in to Demo App: the 2-step screen offers to remember this
    // browser (the demo tenant's rememberBrowserDays is 30), unticked and ticked.
    const authenticator = await turnOnAuthenticatorApp(page, account, locale);
    await new SecurityPage(page, locale).signOut();
    await expect(page).toHaveURL(/\/login\?/);
    const { login } = await startDemoSignIn(page, DEMO_APP, locale);
    await login.signIn(account.username, account.password);
    const twoStep = new Login2StepPage(page, locale);
    await twoStep.expectShown(tr(locale, 'login2Step.totpInstructions', { count: '6' }));
    const remember = page.getByRole('checkbox', { name: tr(locale, 'login2Step.rememberBrowser_other', { count: '30' }), exact: true });
    await expect(remember).not.toBeChecked();
    await checkScreen(page, 'login-mfa-remember', locale);
    await remember.check();
    await expect(remember).toBeFocused();
    await checkScreen(page, 'login-mfa-remember-ticked', locale);
    await twoStep.verify(await authenticator.nextCode(page));
    await new DemoPage(page).expectSignedIn('Demo App', DEMO_APP.id, { name: account.name, email: account.username });

    // 'Forget all browsers': the confirmation, then the row and its notice.
    await page.goto('/user/security');
    await new SecurityPage(page, locale).expectShown();
    const row = page.getByRole('listitem').filter({ has: page.getByText(tr(locale, 'account.security.rememberedBrowsers.title'), { exact: true }) });
    await expect(row).toContainText(tr(locale, 'account.security.rememberedBrowsers.count_one', { count: '1' }));
    await row.getByRole('button', { name: tr(locale, 'account.security.rememberedBrowsers.forget'), exact: true }).click();
    const forget = page.getByRole('dialog', { name: tr(locale, 'account.security.rememberedBrowsers.confirmTitle'), exact: true });
    await expect(forget).toContainText(tr(locale, 'account.security.rememberedBrowsers.confirmText'));
    await checkScreen(page, 'security-forget-browsers-dialog', locale);
    await forget.getByRole('button', { name: tr(locale, 'account.security.rememberedBrowsers.confirm'), exact: true }).click();
    await expect(forget).toHaveCount(0);
    await expect(page.getByText(tr(locale, 'account.security.rememberedBrowsers.forgotten'), { exact: true })).toBeVisible();
    await checkScreen(page, 'security-browsers-forgotten', locale);
  });
}

test('the check itself finds what it is there to find: an unnamed button, a picture without text, a field without label', async ({ page }) => {
  await page.setContent('<!doctype html><html lang="en"><title>Broken</title><main><button></button><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><input type="text"></main></html>');
  const rules = (await seriousA11yViolations(page)).map((violation) => violation.rule).sort();
  expect(rules).toEqual(['button-name', 'image-alt', 'label']);
});

test('a second check of the same page sees it as it is then: axe-core, loaded once, misses nothing added or keeps nothing removed', async ({ page }) => {
  await page.setContent('<!doctype html><html lang="en"><title>Fine</title><main><h1>Fine</h1><button>Go</button></main></html>');
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.evaluate(() => document.querySelector('main')!.insertAdjacentHTML('beforeend', '<button id="unnamed"></button>'));
  expect((await seriousA11yViolations(page)).map((violation) => violation.rule)).toEqual(['button-name']);
  await page.evaluate(() => document.getElementById('unnamed')!.remove());
  expect(await seriousA11yViolations(page)).toEqual([]);
});
