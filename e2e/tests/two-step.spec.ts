import { expect, test, type Page } from '@playwright/test';
import { ProfilePage, signInToAccountArea } from '../pages/account-pages.ts';
import { BackupCodesDialog } from '../pages/backup-codes-pages.ts';
import { createActiveAccount, newAccount, uniqueEmail, uniquePhone, type NewAccount } from '../pages/accounts.ts';
import { ACCOUNT, DEMO_APP, openLoginFromDemo } from '../pages/clients.ts';
import { DemoPage } from '../pages/demo-page.ts';
import { tr, type Locale } from '../pages/i18n.ts';
import { LoginPage } from '../pages/login-page.ts';
import { codeIn, Outbox } from '../pages/outbox.ts';
import { saveWideAndNarrow } from '../pages/screenshots.ts';
import { Authenticator, Login2StepPage, MfaPage, PasswordlessPage, SecurityPage } from '../pages/security-pages.ts';

// Each scenario registers and activates its own account, so they run side by side and the demo
// user is never touched.
test.describe.configure({ mode: 'parallel' });

const OTP_LENGTH = '6';

/** Signs in to the account area: the e-mail user through signInToAccountArea, a phone user on the same Login screen. */
async function signInToAccount(page: Page, account: NewAccount): Promise<void> {
  if (account.username.includes('@')) {
    await signInToAccountArea(page, account);
    return;
  }
  await page.goto('/user/dashboard');
  const login = new LoginPage(page, 'vi', ACCOUNT.usernameLabel);
  await login.expectShown(ACCOUNT.name);
  await login.signIn(account.username, account.password);
  await expect(page).toHaveURL(/\/user\/dashboard$/);
}

/** From the dashboard's Security card to the Security page. */
async function openSecurity(page: Page): Promise<SecurityPage> {
  await page
    .getByRole('main')
    .getByRole('link', { name: new RegExp(`^${tr('vi', 'account.security.heading')}`) })
    .click();
  const security = new SecurityPage(page, 'vi');
  await security.expectShown();
  return security;
}

/** The 2-step row, the password re-check, and the page it leads to (the greeting when off, the methods when on). */
async function recheck(security: SecurityPage, state: 'on' | 'off', password: string, screenshots = false): Promise<MfaPage> {
  await security.mfaRow(state).click();
  await expect(security.checkDialog).toBeVisible();
  await expect(security.checkPassword).toBeFocused();
  await security.checkPassword.fill(password);
  if (screenshots) await saveWideAndNarrow(security.page, 'security-password-check', 'vi', { show: security.checkDialog });
  await security.checkNext.click();
  const mfa = new MfaPage(security.page, 'vi');
  if (state === 'off') {
    await expect(security.page).toHaveURL(/\/user\/security\/mfa\/greeting$/);
    await expect(mfa.heading).toHaveText(tr('vi', 'account.security.mfa.title'));
    await mfa.getStarted.click();
    await expect(security.page).toHaveURL(/\/user\/security\/authenticator$/);
  } else {
    await expect(security.page).toHaveURL(/\/user\/security\/mfa$/);
  }
  await mfa.expectShown();
  return mfa;
}

/** Turning 2-step on from off shows the ten backup codes once (backup-codes.spec.ts checks them): saved, the page goes on. */
async function acknowledgeBackupCodes(mfa: MfaPage): Promise<void> {
  const codes = new BackupCodesDialog(mfa.page, 'vi');
  await expect(codes.dialog.or(mfa.activated)).toBeVisible();
  if (await codes.dialog.isVisible()) {
    await expect(codes.list.getByRole('listitem')).toHaveCount(10);
    await codes.done.click();
  }
}

/** Sets up SMS or e-mail OTP in its dialog with the code from the outbox. */
async function setUpCodeMethod(mfa: MfaPage, outbox: Outbox, method: 'sms' | 'email', to: string): Promise<void> {
  const seen = await outbox.messages(to);
  await mfa.setUp(method).click();
  const dialog = mfa.dialog(method);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: tr('vi', method === 'sms' ? 'fields.phoneNumber' : 'fields.email'), exact: true })).toHaveValue(to);
  await expect(mfa.button(method, 'account.security.setup.confirm')).toBeDisabled();
  await mfa.button(method, 'account.security.setup.send').click();
  const message = await outbox.next(to, seen);
  expect(message.channel).toBe(method);
  await mfa.code(method).fill(codeIn(message));
  await mfa.button(method, 'account.security.setup.confirm').click();
  await expect(dialog).toHaveCount(0);
  await acknowledgeBackupCodes(mfa);
  await expect(mfa.activated).toBeVisible();
  await expect(mfa.activeChip(method)).toBeVisible();
}

/** Signs out of the account area and starts a sign-in on /demo with the password. */
async function signOutThenSignInFromDemo(page: Page, account: NewAccount): Promise<void> {
  await new MfaPage(page, 'vi').signOut();
  await new LoginPage(page, 'vi', ACCOUNT.usernameLabel).expectShown(ACCOUNT.name);
  const { login } = await openLoginFromDemo(page, DEMO_APP);
  await login.signIn(account.username, account.password);
}

async function expectPhoneSignedIn(page: Page, phone: string, name?: string): Promise<void> {
  const demo = new DemoPage(page);
  await expect(page).toHaveURL(/\/demo$/);
  await expect(demo.resultHeading).toHaveText(/^Signed in to Demo App as /);
  await expect(demo.claim('aud')).toHaveText(DEMO_APP.id);
  await expect(demo.claim('phone_number')).toHaveText(phone);
  await expect(demo.claim('phone_number_verified')).toHaveText('true');
  if (name) await expect(demo.claim('name')).toHaveText(name);
}

test.describe('2-step verification', () => {
  test('authenticator app: set up with the secret of the QR code, then sign in through /demo with the password and a TOTP code', async ({ page, request }) => {
    test.setTimeout(120_000);
    const account = newAccount(uniqueEmail('mfa-totp'), 'Nguyễn Văn An');
    await createActiveAccount(request, account);
    await signInToAccount(page, account);
    const security = await openSecurity(page);
    await expect(security.page.getByText(tr('vi', 'account.security.issues.mfaOff.title'), { exact: true })).toBeVisible();
    await security.expectRegistrationMethod('password');
    await saveWideAndNarrow(page, 'security', 'vi');

    const mfa = await recheck(security, 'off', account.password, true);
    await expect(mfa.turnOff).toHaveCount(0);
    await saveWideAndNarrow(page, 'security-mfa', 'vi');
    // The e-mail was verified at activation; there is no phone number yet.
    await expect(mfa.setUp('email')).toBeEnabled();
    await expect(mfa.setUp('sms')).toBeDisabled();
    await expect(mfa.card('sms').getByText(tr('vi', 'account.security.mfa.phoneFirst'), { exact: true })).toBeVisible();

    await mfa.setUp('totp').click();
    await expect(mfa.qrCode).toBeVisible();
    await expect(mfa.qrCode).toHaveAttribute('src', /^data:image\//);
    await expect(mfa.secret).toHaveText(/^[A-Z2-7]{16,}=*$/);
    const authenticator = new Authenticator((await mfa.secret.textContent())!);
    await saveWideAndNarrow(page, 'security-authenticator-dialog', 'vi', { show: mfa.dialog('totp') });
    await mfa.button('totp', 'common.next').click();
    await mfa.code('totp').fill(await authenticator.nextCode(page));
    await mfa.button('totp', 'account.security.setup.confirm').click();
    await expect(mfa.dialog('totp')).toHaveCount(0);
    await acknowledgeBackupCodes(mfa);
    await expect(mfa.activated).toHaveText(tr('vi', 'account.security.setup.activated'));
    await expect(mfa.activeChip('totp')).toBeVisible();
    await expect(mfa.turnOff).toBeVisible();

    await signOutThenSignInFromDemo(page, account);
    const second = new Login2StepPage(page, 'vi');
    await second.expectShown(tr('vi', 'login2Step.totpInstructions', { count: OTP_LENGTH }));
    await saveWideAndNarrow(page, 'login-mfa-totp', 'vi');
    await second.verify(await authenticator.nextCode(page));
    await new DemoPage(page).expectSignedIn('Demo App', DEMO_APP.id, { name: account.name, email: account.username });
  });

  test('e-mail OTP: set up with the code from the outbox, then sign in through /demo with the password and an e-mailed code', async ({ page, request }) => {
    const account = newAccount(uniqueEmail('mfa-email'), 'Trần Thị Bình');
    await createActiveAccount(request, account);
    const outbox = new Outbox(request);
    await signInToAccount(page, account);
    const mfa = await recheck(await openSecurity(page), 'off', account.password);
    await setUpCodeMethod(mfa, outbox, 'email', account.username);

    const seen = await outbox.messages(account.username);
    await signOutThenSignInFromDemo(page, account);
    const second = new Login2StepPage(page, 'vi');
    await second.expectShown(tr('vi', 'login2Step.emailInstructions', { count: OTP_LENGTH, username: account.username }));
    const message = await outbox.next(account.username, seen);
    expect(message.channel).toBe('email');
    await saveWideAndNarrow(page, 'login-mfa-email', 'vi');
    await second.verify(codeIn(message));
    await new DemoPage(page).expectSignedIn('Demo App', DEMO_APP.id, { name: account.name, email: account.username });
  });

  test('SMS OTP: a user registered by phone sets it up with the SMS code, then signs in through /demo with the password and an SMS code', async ({ page, request }) => {
    const account = newAccount(uniquePhone(), 'Lê Văn Cường');
    await createActiveAccount(request, account);
    const outbox = new Outbox(request);
    await signInToAccount(page, account);
    const mfa = await recheck(await openSecurity(page), 'off', account.password);
    await expect(mfa.setUp('email')).toBeDisabled();
    await expect(mfa.card('email').getByText(tr('vi', 'account.security.mfa.emailFirst'), { exact: true })).toBeVisible();
    await setUpCodeMethod(mfa, outbox, 'sms', account.username);

    const seen = await outbox.messages(account.username);
    await signOutThenSignInFromDemo(page, account);
    const second = new Login2StepPage(page, 'vi');
    await second.expectShown(tr('vi', 'login2Step.smsInstructions', { count: OTP_LENGTH, username: account.username }));
    const message = await outbox.next(account.username, seen);
    expect(message.channel).toBe('sms');
    await second.verify(codeIn(message));
    await expectPhoneSignedIn(page, account.username, account.name);
  });

  test('turning 2-step verification off takes the password again, and the next sign-in asks for no code', async ({ page, request }) => {
    const account = newAccount(uniqueEmail('mfa-off'), 'Phạm Minh Châu');
    await createActiveAccount(request, account);
    await signInToAccount(page, account);
    const security = await openSecurity(page);
    await setUpCodeMethod(await recheck(security, 'off', account.password), new Outbox(request), 'email', account.username);
    await security.menuLink('dashboard').click();
    await openSecurity(page);
    await expect(security.mfaRow('on')).toBeVisible();

    const mfa = await recheck(security, 'on', account.password);
    await expect(mfa.activeChip('email')).toBeVisible();
    await mfa.turnOff.click();
    await expect(mfa.turnOffDialog).toContainText(tr('vi', 'account.security.mfa.offConfirmText'));
    await mfa.confirmTurnOff.click();
    await security.expectShown();
    await expect(security.turnedOffNotice).toHaveText(tr('vi', 'account.security.mfa.turnedOff'));
    await expect(security.mfaRow('off')).toBeVisible();
    await expect(security.page.getByText(tr('vi', 'account.security.issues.mfaOff.title'), { exact: true })).toBeVisible();
    // The recent events are read again: turning it off is listed, without a reload.
    await expect(security.page.getByRole('listitem').getByText(tr('vi', 'account.security.events.types.mfa_disabled'), { exact: true })).toBeVisible();
    await saveWideAndNarrow(page, 'security-after-mfa-off', 'vi');
    const english = await security.switchTo('en');
    await expect(english.page.getByRole('listitem').getByText(tr('en', 'account.security.events.types.mfa_disabled'), { exact: true })).toBeVisible();
    await saveWideAndNarrow(page, 'security-after-mfa-off', 'en');
    await english.switchTo('vi');

    await signOutThenSignInFromDemo(page, account);
    await new DemoPage(page).expectSignedIn('Demo App', DEMO_APP.id, { name: account.name, email: account.username });
  });
});

test.describe('passwordless sign-in by phone', () => {
  /** From the Demo App's Login screen (in `locale`) to /login/passwordless, then the SMS code from the outbox. */
  async function signInByPhone(page: Page, outbox: Outbox, phone: string, options: { screenshots?: boolean; locale?: Locale } = {}): Promise<void> {
    const { screenshots = false, locale = 'vi' } = options;
    const { login } = await openLoginFromDemo(page, DEMO_APP, locale === DEMO_APP.defaultLocale ? {} : { choose: locale, locale });
    await login.passwordless.click();
    const passwordless = new PasswordlessPage(page, locale);
    await passwordless.expectShown();
    if (screenshots) await saveWideAndNarrow(page, 'login-passwordless', locale);
    const seen = await outbox.messages(phone);
    await passwordless.phone.fill(phone);
    await passwordless.sendCode.click();
    await expect(page.getByText(tr(locale, 'passwordless.codeSent', { count: OTP_LENGTH, phone }), { exact: true })).toBeVisible();
    const message = await outbox.next(phone, seen);
    expect(message.channel).toBe('sms');
    if (screenshots) await saveWideAndNarrow(page, 'login-passwordless-code', locale);
    await passwordless.code.fill(codeIn(message));
    await passwordless.submit.click();
  }

  test('an existing phone user signs in with the SMS code', async ({ page, request }) => {
    const account = newAccount(uniquePhone(), 'Hoàng Thị Dung');
    await createActiveAccount(request, account);
    await signInByPhone(page, new Outbox(request), account.username, { screenshots: true });
    await expectPhoneSignedIn(page, account.username, account.name);
  });

  test('a new phone gets an account at its first sign-in, and that account is told 2-step verification is not supported', async ({ page, request }) => {
    const phone = uniquePhone();
    const outbox = new Outbox(request);
    await signInByPhone(page, outbox, phone);
    await expectPhoneSignedIn(page, phone);

    // The account area (its own client): the single sign-on session from the phone code, then Security.
    await page.goto('/user/dashboard');
    await expect(page).toHaveURL(/\/user\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr('vi', 'account.dashboard.heading'));

    const security = await openSecurity(page);
    await expect(security.mfaUnsupported).toBeVisible();
    await expect(security.mfaRow('off')).toHaveCount(0);
    await security.expectRegistrationMethod('passwordless');
    await saveWideAndNarrow(page, 'security-passwordless-account', 'vi');
  });

  test('a phone user with e-mail 2-step verification: after the passwordless SMS code, the 2-step screen asks for the e-mailed code, then /demo gets the user', async ({ page, request }) => {
    // (With SMS as its 2-step method, the passwordless SMS code would be the same factor twice: the
    // server refuses that sign-in, so the account gets an e-mail address and e-mail 2-step.)
    const account = newAccount(uniquePhone(), 'Vũ Thị Lan');
    const email = uniqueEmail('passwordless-mfa');
    await createActiveAccount(request, account);
    const outbox = new Outbox(request);
    await signInToAccount(page, account);

    const profile = new ProfilePage(page, 'vi');
    await profile.menuLink('profile').click();
    await profile.expectShown();
    await profile.contactButton('addEmail').click();
    const editor = profile.contactEditor('addEmail');
    await editor.newEmail.fill(email);
    await editor.next.click();
    await expect(editor.target).toHaveValue(email);
    await editor.code.fill(codeIn(await outbox.next(email)));
    await editor.save.click();
    await expect(profile.updated(profile.contactSection)).toHaveText(tr('vi', 'account.profile.updated'));
    await profile.menuLink('dashboard').click();
    await setUpCodeMethod(await recheck(await openSecurity(page), 'off', account.password), outbox, 'email', email);
    await new MfaPage(page, 'vi').signOut();
    await new LoginPage(page, 'vi', ACCOUNT.usernameLabel).expectShown(ACCOUNT.name);

    // The passwordless code is the first factor only: the 2-step screen follows, and the code goes by e-mail.
    const seen = await outbox.messages(email);
    await signInByPhone(page, outbox, account.username, { locale: 'en' });
    const second = new Login2StepPage(page, 'en');
    await second.expectShown(tr('en', 'login2Step.emailInstructionsYours', { count: OTP_LENGTH }));
    await expect(page).toHaveTitle(`${tr('en', 'login2Step.documentTitle')} · ${DEMO_APP.name}`);
    const message = await outbox.next(email, seen);
    expect(message.channel).toBe('email');
    await saveWideAndNarrow(page, 'login-mfa-passwordless', 'en');
    await second.verify(codeIn(message));
    await expectPhoneSignedIn(page, account.username, account.name);
  });
});
