import { expect, test, type Page } from '@playwright/test';
import { newAccount, registerThroughApi, uniqueEmail, uniquePhone } from '../pages/accounts.ts';
import { DEMO_APP, openLoginFromDemo } from '../pages/clients.ts';
import { DemoPage } from '../pages/demo-page.ts';
import { ActivationPage, SendCodePage } from '../pages/flow-pages.ts';
import { tr, trPlain } from '../pages/i18n.ts';
import { codeIn, Outbox } from '../pages/outbox.ts';
import { DEMO_USER } from '../pages/login-page.ts';
import { RegisterPage } from '../pages/register-page.ts';
import { saveWideAndNarrow } from '../pages/screenshots.ts';

test.describe.configure({ mode: 'parallel' });

/** From /demo, Demo App's Login screen and its 'Create account' link: the Register screen, in Vietnamese. */
async function openRegisterFromDemo(page: Page): Promise<RegisterPage> {
  const { login } = await openLoginFromDemo(page, DEMO_APP);
  await login.createAccount.click();
  const register = new RegisterPage(page, 'vi', DEMO_APP.usernameLabel);
  await register.expectShown(DEMO_APP.name);
  return register;
}

/**
 * Every message box (role alert) the screen shows from now on, in the order shown. The activation
 * notice appears just as the browser leaves for the relying party, too briefly to wait for with a
 * locator (and the page cannot be queried while it navigates), so the page reports each one.
 */
async function recordAlerts(page: Page): Promise<string[]> {
  const shown: string[] = [];
  await page.exposeFunction('e2eAlertShown', (text: string) => shown.push(text));
  await page.evaluate(() => {
    const report = (element: Element) => (window as unknown as { e2eAlertShown: (text: string) => void }).e2eAlertShown(element.textContent ?? '');
    new MutationObserver((records) => {
      for (const node of records.flatMap((record) => Array.from(record.addedNodes))) {
        if (!(node instanceof Element)) continue;
        if (node.matches('[role="alert"]')) report(node);
        node.querySelectorAll('[role="alert"]').forEach(report);
      }
    }).observe(document.body, { childList: true, subtree: true });
  });
  return shown;
}

/** Enters the code; the screen says 'Your account is now active' and the browser goes on to the relying party. */
async function activate(page: Page, activation: ActivationPage, code: string): Promise<void> {
  const alerts = await recordAlerts(page);
  await activation.code.fill(code);
  await activation.submit.click();
  await expect(page).toHaveURL(/\/demo$/);
  expect(alerts).toEqual([tr('vi', 'messages.accountActivated')]);
}

test.describe('registration and activation on Demo App', () => {
  test('by e-mail: Register waits for the policy box, the code comes by e-mail, and the new user lands on /demo signed in', async ({ page, request }) => {
    const account = newAccount(uniqueEmail('register'), 'Nguyễn Văn An');
    const register = await openRegisterFromDemo(page);
    await register.fill(account);

    // The Register button stays disabled until the policy box is ticked.
    await expect(register.policy).not.toBeChecked();
    await expect(register.submit).toBeDisabled();
    await register.policy.check();
    await expect(register.submit).toBeEnabled();
    await register.submit.click();

    const activation = new ActivationPage(page, 'vi', DEMO_APP.usernameLabel);
    await activation.expectShown(DEMO_APP.name, account.username);
    await saveWideAndNarrow(page, 'activation', 'vi');

    // The e-mail, in Vietnamese (the screen's language) and branded with the tenant's name.
    const mail = await new Outbox(request).next(account.username);
    expect(mail.channel).toBe('email');
    expect(mail.subject).toBe('[Passgate Demo] Mã kích hoạt tài khoản của bạn');
    expect(mail.text).toContain(`Xin chào ${account.name},`);
    expect(mail.text).toContain('Cảm ơn bạn đã đăng ký tài khoản Passgate Demo');

    await activate(page, activation, codeIn(mail));
    expect(tr('en', 'messages.accountActivated')).toBe('Your account is now active');

    // Activation finishes the sign-in Demo App started: back on /demo with the new user's claims.
    const demo = new DemoPage(page);
    await demo.expectSignedIn('Demo App', DEMO_APP.id, { name: account.name, email: account.username });
    await expect(demo.claim('email_verified')).toHaveText('true');
  });

  test('by phone: the code comes by SMS, and the new user lands on /demo with the phone number', async ({ page, request }) => {
    const account = newAccount(uniquePhone(), 'Trần Thị Bình');
    const register = await openRegisterFromDemo(page);
    await register.fill(account);
    await register.policy.check();
    await register.submit.click();

    const activation = new ActivationPage(page, 'vi', DEMO_APP.usernameLabel);
    await activation.expectShown(DEMO_APP.name, account.username);

    const sms = await new Outbox(request).next(account.username);
    expect(sms.channel).toBe('sms');
    expect(sms.subject).toBeNull();
    expect(sms.text).toMatch(/^Passgate Demo: Mã kích hoạt tài khoản của bạn là \d{6}/);

    await activate(page, activation, codeIn(sms));
    const demo = new DemoPage(page);
    await expect(page).toHaveURL(/\/demo$/);
    await expect(demo.resultHeading).toHaveText(`Signed in to Demo App as ${account.name}`);
    await expect(demo.claim('aud')).toHaveText(DEMO_APP.id);
    await expect(demo.claim('name')).toHaveText(account.name);
    await expect(demo.claim('phone_number')).toHaveText(account.username);
    await expect(demo.claim('phone_number_verified')).toHaveText('true');
    await expect(demo.claim('phone_number', 'userinfo')).toHaveText(account.username);
  });

  test("a relying party's 'Create account' (prompt=create) opens Register at once, in its language, and activation lands on /demo signed in", async ({ page, request }) => {
    const account = newAccount(uniqueEmail('prompt-create'), 'Lê Minh Châu');
    const demo = new DemoPage(page);
    await demo.goto();
    await demo.openRegistration.check();
    await demo.signInTo('Demo App', 'en');

    const register = new RegisterPage(page, 'en', DEMO_APP.usernameLabel);
    await register.expectShown(DEMO_APP.name);
    await register.fill(account);
    await register.policy.check();
    await register.submit.click();

    const activation = new ActivationPage(page, 'en', DEMO_APP.usernameLabel);
    await activation.expectShown(DEMO_APP.name, account.username);
    await activation.code.fill(codeIn(await new Outbox(request).next(account.username)));
    await activation.submit.click();
    await demo.expectSignedIn('Demo App', DEMO_APP.id, { name: account.name, email: account.username });
  });

  test('the Register screen speaks Vietnamese for Demo App, and English with ?locale=en or the switcher', async ({ page }) => {
    const register = await openRegisterFromDemo(page);
    // Vietnamese: title, labels and the policy checkbox.
    await expect(register.heading).toHaveText('Tạo tài khoản');
    await expect(register.policy).toHaveAccessibleName('Tôi đồng ý với Điều khoản và Chính sách quyền riêng tư');
    await expect(register.submit).toHaveText('Đăng ký');
    await expect(page.getByText(tr('vi', 'register.haveAccount'), { exact: true })).toBeVisible();
    // The password field is described by the tenant's requirements (the default: at least 6 characters).
    await expect(register.password).toHaveAccessibleDescription(/Ít nhất 6 ký tự/);
    await saveWideAndNarrow(page, 'register', 'vi');

    // The policy words open the embedded policy document; reading it does not tick the box.
    await register.policyLink.click();
    await expect(register.policyDialog).toBeVisible();
    await expect(register.policyDialog.getByRole('heading', { level: 2 })).toHaveText(tr('vi', 'register.policyDialogTitle'));
    await register.policyDialog.getByRole('button', { name: tr('vi', 'common.ok'), exact: true }).click();
    await expect(register.policyDialog).toBeHidden();
    await expect(register.policy).not.toBeChecked();

    // ?locale=en in the address: the same screen in English.
    const url = new URL(page.url());
    url.searchParams.set('locale', 'en');
    await page.goto(url.toString());
    const english = register.in('en');
    await english.expectShown(DEMO_APP.name);
    await expect(english.heading).toHaveText('Create account');
    await expect(english.username).toBeVisible();
    await expect(english.username).toHaveAccessibleName('Email or phone number');
    await expect(english.policy).toHaveAccessibleName(trPlain('en', 'register.agreePolicy'));
    expect(trPlain('en', 'register.agreePolicy')).toBe('I agree to the Terms and Privacy Policy');
    await expect(english.submit).toBeDisabled();
    await saveWideAndNarrow(page, 'register', 'en');

    // The switcher: back to Vietnamese at once, then English again.
    const vietnamese = await english.switchTo('vi');
    await vietnamese.expectShown(DEMO_APP.name);
    const again = await vietnamese.switchTo('en');
    await again.expectShown(DEMO_APP.name);
    await expect(again.confirmPassword).toBeVisible();
  });

  test('signing in to an account that was never activated says so (1011) and offers the activation code again', async ({ page, request }) => {
    const account = newAccount(uniqueEmail('pending'), 'Lê Văn Cường');
    await registerThroughApi(request, account);

    const { login } = await openLoginFromDemo(page, DEMO_APP);
    await login.signIn(account.username, account.password);
    await expect(login.alert).toHaveText(tr('vi', 'errors.1011'));
    expect(tr('vi', 'errors.1011')).toBe('Tài khoản của bạn đã được đăng ký nhưng chưa kích hoạt');
    await expect(page).toHaveURL(/\/login\?/);

    const resendLink = page.getByRole('link', { name: tr('vi', 'login.resendActivation'), exact: true });
    await resendLink.click();
    const resend = new SendCodePage(page, 'activationResend', 'vi', DEMO_APP.usernameLabel);
    await resend.expectShown(DEMO_APP.name);
    await expect(resend.username).toHaveValue(account.username);
    // (Not sent: the registration's code went out less than 60 seconds ago.)
    await saveWideAndNarrow(page, 'activation-resend', 'vi');

    await resend.backToLogin.click();
    await expect(page).toHaveURL(/\/login\?(.*&)?challenge=/);
  });
});

test('an e-mail already registered is said once, beside the username field, in Vietnamese and English', async ({ page }) => {
  const register = await openRegisterFromDemo(page);
  await register.fill(newAccount(DEMO_USER.email, 'Người Thứ Hai'));
  await register.policy.check();
  await register.submit.click();
  for (const locale of ['vi', 'en'] as const) {
    const screen = locale === 'vi' ? register : await register.switchTo('en');
    const message = tr(locale, 'errors.1020');
    await expect(screen.username).toHaveAttribute('aria-invalid', 'true');
    await expect(screen.username).toHaveAccessibleDescription(message);
    await expect(page.getByText(message, { exact: true })).toHaveCount(1);
    await expect(screen.alert).toHaveCount(0);
    if (locale === 'vi') await expect(screen.username).toBeFocused();
    await saveWideAndNarrow(page, 'register-email-taken', locale);
  }
  await expect(page).toHaveURL(/\/register\?/);
});
