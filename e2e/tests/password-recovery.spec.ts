import { expect, test, type Page } from '@playwright/test';
import { createActiveAccount, newAccount, uniqueEmail, type NewAccount } from '../pages/accounts.ts';
import { DEMO_APP, PARTNER_SHOP, openLoginFromDemo } from '../pages/clients.ts';
import { DemoPage } from '../pages/demo-page.ts';
import { ErrorPage } from '../pages/error-page.ts';
import { PasswordUpdatePage, SendCodePage } from '../pages/flow-pages.ts';
import { tr } from '../pages/i18n.ts';
import { LoginPage } from '../pages/login-page.ts';
import { codeIn, Outbox, type OutboxMessage } from '../pages/outbox.ts';
import { saveWideAndNarrow } from '../pages/screenshots.ts';

test.describe.configure({ mode: 'parallel' });

/**
 * From Demo App's Login screen, 'Forgot password?' and the account: the recovery code is sent and
 * the Set-a-new-password screen is up. Answers the screen and the recovery e-mail.
 */
async function recoverFromLogin(page: Page, outbox: Outbox, account: NewAccount, screenshot?: string): Promise<{ login: LoginPage; update: PasswordUpdatePage; mail: OutboxMessage }> {
  const { login } = await openLoginFromDemo(page, DEMO_APP);
  await login.forgotPassword.click();
  const recover = new SendCodePage(page, 'passwordRecover', 'vi', DEMO_APP.usernameLabel);
  await recover.expectShown(DEMO_APP.name);
  await expect(recover.username).toHaveValue('');
  if (screenshot) await saveWideAndNarrow(page, screenshot, 'vi');

  const earlier = await outbox.messages(account.username);
  await recover.username.fill(account.username);
  await recover.submit.click();
  const update = new PasswordUpdatePage(page, 'vi', DEMO_APP.usernameLabel);
  await update.expectShown(DEMO_APP.name, account.username);

  const mail = await outbox.next(account.username, earlier);
  expect(mail.channel).toBe('email');
  expect(mail.subject).toBe('[Passgate Demo] Mã khôi phục mật khẩu');
  expect(mail.text).toContain(`Xin chào ${account.name},`);
  return { login, update, mail };
}

test.describe('password recovery on Demo App', () => {
  test('forgot password: a code by e-mail, a new password, then the new password signs in and the old one is refused', async ({ page, request }) => {
    const outbox = new Outbox(request);
    const account = newAccount(uniqueEmail('recover'), 'Phạm Thu Hà');
    await createActiveAccount(request, account);

    const { update, mail } = await recoverFromLogin(page, outbox, account, 'password-recover');
    await saveWideAndNarrow(page, 'password-update', 'vi');
    const newPassword = `${account.password}-new`;
    await update.update(codeIn(mail), newPassword);

    // Back on Login: 'Update Password successfully', the username filled in.
    const login = new LoginPage(page, 'vi', DEMO_APP.usernameLabel);
    await login.expectShown(DEMO_APP.name, DEMO_APP.title);
    await expect(page.getByRole('alert')).toHaveText(tr('vi', 'messages.passwordUpdated'));
    expect(tr('en', 'messages.passwordUpdated')).toBe('Update Password successfully');
    await expect(login.username).toHaveValue(account.username);
    await expect(login.password).toBeFocused();

    // The old password no longer works…
    await login.password.fill(account.password);
    await login.submit.click();
    await expect(login.alert.filter({ hasText: tr('vi', 'errors.1017') })).toBeVisible();
    await expect(page).toHaveURL(/\/login\?/);

    // …the new one does: /demo gets the account's claims.
    await login.password.fill(newPassword);
    await login.submit.click();
    await new DemoPage(page).expectSignedIn('Demo App', DEMO_APP.id, { name: account.name, email: account.username });
  });

  test('a password the account has used recently is refused on the Set-a-new-password screen (1031)', async ({ page, request }) => {
    const outbox = new Outbox(request);
    const account = newAccount(uniqueEmail('reuse'), 'Đỗ Minh Khoa');
    await createActiveAccount(request, account);

    const { update, mail } = await recoverFromLogin(page, outbox, account);
    // The current password is one of the last three (the demo tenant's password history).
    await update.update(codeIn(mail), account.password);
    expect(tr('vi', 'errors.1031')).toBe('Mật khẩu này đã từng được sử dụng, vui lòng chọn mật khẩu khác');
    // Said once, beside the new password, which takes the focus; no banner repeats it.
    await expect(page.getByText(tr('vi', 'errors.1031'), { exact: true })).toHaveCount(1);
    await expect(update.newPassword).toHaveAttribute('aria-invalid', 'true');
    await expect(update.newPassword).toHaveAccessibleDescription(new RegExp(tr('vi', 'errors.1031')));
    await expect(update.newPassword).toBeFocused();
    await expect(update.alert).toHaveCount(0);
    await expect(page).toHaveURL(/\/password\/update\?/);
    await saveWideAndNarrow(page, 'password-update-reused', 'vi');

    // The refused password did not cost the code: another new password is taken with it.
    await update.newPassword.fill(`${account.password}-2`);
    await update.confirmNewPassword.fill(`${account.password}-2`);
    await update.submit.click();
    await expect(page.getByRole('alert')).toHaveText(tr('vi', 'messages.passwordUpdated'));
  });
});

test.describe('a client without password:reset', () => {
  test('Partner Shop shows no reset link, and its recovery and registration screens are Error 403', async ({ page, request }) => {
    const { login } = await openLoginFromDemo(page, PARTNER_SHOP);
    await expect(login.forgotPassword).toHaveCount(0);
    const challenge = new URL(page.url()).searchParams.get('challenge');
    expect(challenge).toBeTruthy();

    await page.goto(`/password/recover?challenge=${challenge}`);
    const error = new ErrorPage(page, 'en');
    // In Partner Shop's theme, and Back leads to this sign-in's Login screen, not the account area's.
    await error.expectStatus(403, PARTNER_SHOP.title);
    await expect(error.heading).toHaveText('Forbidden');
    await saveWideAndNarrow(page, 'error-403', 'en');
    await expect(error.back).toHaveAttribute('href', `/login?challenge=${challenge}`);

    await page.goto(`/register?challenge=${challenge}`);
    await error.expectStatus(403, PARTNER_SHOP.title);
    await error.back.click();
    await expect(page).toHaveURL(`/login?challenge=${challenge}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr('en', 'login.heading'));
    await expect(page).toHaveTitle(`${tr('en', 'login.documentTitle')} · ${PARTNER_SHOP.title}`);

    // The API refuses the same call for this client: 1301, the client lacks the capability.
    const response = await request.post('/api/v1/password/recover', { data: { client_id: PARTNER_SHOP.id, username: 'someone@example.com' } });
    expect(response.status()).toBe(403);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(1301);
  });
});
