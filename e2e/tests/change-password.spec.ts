import { expect, test } from '@playwright/test';
import { seriousA11yViolations } from '../pages/accessibility.ts';
import { signInToAccountArea } from '../pages/account-pages.ts';
import { createActiveAccount, newAccount, uniqueEmail } from '../pages/accounts.ts';
import { ChangePasswordSection } from '../pages/change-password-pages.ts';
import { ACCOUNT, DEMO_APP, openLoginFromDemo } from '../pages/clients.ts';
import { tr } from '../pages/i18n.ts';
import { LoginPage } from '../pages/login-page.ts';
import { Outbox } from '../pages/outbox.ts';
import { saveWideAndNarrow } from '../pages/screenshots.ts';

test('changing the password on the Security page: the old one is refused afterwards, the new one signs in', async ({ page, request }) => {
  const account = newAccount(uniqueEmail('change-password'), 'Phạm Minh Châu');
  await createActiveAccount(request, account);
  await signInToAccountArea(page, account);
  await page.goto('/user/security');
  const security = new ChangePasswordSection(page, 'vi');
  await security.expectShown();

  // In English first, to look at it; then cancelled.
  const english = await security.switchTo('en');
  await english.open();
  await saveWideAndNarrow(page, 'change-password', 'en', { show: english.dialog });
  expect(await seriousA11yViolations(page)).toEqual([]);
  await english.cancel.click();
  await expect(english.dialog).toHaveCount(0);

  const vietnamese = await english.switchTo('vi');
  await vietnamese.open();
  // A wrong current password is said beside the field, which keeps what was typed.
  const newPassword = 'Harbour-lights-93-tacit-owl';
  await vietnamese.fill('Not-the-password-1', newPassword);
  await expect(vietnamese.strengthMeter).toHaveAttribute('aria-valuetext', tr('vi', 'passwordStrength.strong'));
  await saveWideAndNarrow(page, 'change-password', 'vi', { show: vietnamese.dialog });
  await vietnamese.submit.click();
  await expect(vietnamese.currentPassword).toHaveAttribute('aria-invalid', 'true');
  await expect(vietnamese.currentPassword).toHaveAccessibleDescription(tr('vi', 'account.passwordWrong'));
  await expect(vietnamese.currentPassword).toBeFocused();

  // The right one: the dialog closes and the page says so.
  await vietnamese.currentPassword.fill(account.password);
  await vietnamese.submit.click();
  await expect(vietnamese.dialog).toHaveCount(0);
  await expect(vietnamese.doneNotice).toBeVisible();
  await saveWideAndNarrow(page, 'change-password-done', 'vi');

  // The owner is told by e-mail, without the password.
  const outbox = new Outbox(request);
  await expect
    .poll(async () => (await outbox.messages(account.username)).find((m) => m.subject?.includes('Mật khẩu của bạn đã được thay đổi'))?.text ?? null)
    .toContain('Các phiên đăng nhập khác của bạn đã được đăng xuất.');
  expect(JSON.stringify(await outbox.messages(account.username))).not.toContain(newPassword);

  // Signed out: the old password is refused, the new one signs in.
  await vietnamese.signOut();
  await new LoginPage(page, 'vi', ACCOUNT.usernameLabel).expectShown(ACCOUNT.name);
  const { demo, login } = await openLoginFromDemo(page, DEMO_APP);
  await login.signIn(account.username, account.password);
  await expect(login.alert).toHaveText(tr('vi', 'errors.1017'));
  await login.signIn(account.username, newPassword);
  await demo.expectSignedIn('Demo App', DEMO_APP.id, { name: account.name, email: account.username });
});
