import { expect, test } from '@playwright/test';
import { signInToAccountArea } from '../pages/account-pages.ts';
import { ADMIN_CONSOLE, newAdmin } from '../pages/admin-pages.ts';
import { registerDevice } from '../pages/device-registration.ts';
import { tr } from '../pages/i18n.ts';
import { LoginPage } from '../pages/login-page.ts';
import { saveWideAndNarrow } from '../pages/screenshots.ts';
import { openTwoStepMethods, SecurityPage } from '../pages/security-pages.ts';
import { VirtualAuthenticator } from '../pages/virtual-authenticator.ts';

/**
 * An operator whose only second factor is a device (WebAuthn). The password alone signs such an
 * account in (nothing more is asked of it), so it must open neither the admin console nor a way
 * to give the account an authenticator app of the attacker's; the device opens the console.
 */
test('an operator whose second factor is a device: the password alone opens neither the console nor a new authenticator app; the device opens the console', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const operator = await newAdmin(page.request, { operator: true }, 'Lê Thị Khóa');
  const authenticator = await VirtualAuthenticator.attach(page);
  await signInToAccountArea(page, operator);
  await registerDevice(page, operator, 'Khóa bảo mật');
  expect(await authenticator.credentials()).toHaveLength(1);

  // Someone who knows the password, in a browser of their own: the console asks for the device...
  const attackerContext = await browser.newContext();
  const attacker = await attackerContext.newPage();
  await attacker.goto('/admin');
  const attackerLogin = new LoginPage(attacker, 'vi', 'emailOrPhoneNumber');
  await attackerLogin.expectShown(ADMIN_CONSOLE.name);
  await attackerLogin.signIn(operator.username, operator.password);
  await expect(attacker.getByRole('heading', { level: 1, name: tr('vi', 'admin.twoStep.signInAgain.heading') })).toBeVisible();
  await expect(attacker.getByRole('navigation', { name: tr('vi', 'admin.navigation') })).toHaveCount(0);

  // ...and the account area, which the password does open, will not add their authenticator app.
  await attacker.goto('/user/security');
  const security = new SecurityPage(attacker, 'vi');
  await security.expectShown();
  const mfa = await openTwoStepMethods(security, operator);
  await mfa.setUp('totp').click();
  const refusal = mfa.dialog('totp').getByRole('alert');
  await expect(refusal).toContainText(tr('vi', 'errors.1307'));
  await expect(refusal.getByRole('button', { name: tr('vi', 'account.signInAgain') })).toBeVisible();
  await expect(mfa.secret).toHaveCount(0);
  await saveWideAndNarrow(attacker, 'admin-factor-change-sign-in-again', 'vi', { show: mfa.dialog('totp') });
  await attackerContext.close();

  // The owner, whose browser holds the device: the console's sign-in screen (their account-area
  // session used the password only) takes the passkey from the username field, and the console opens.
  await page.goto('/admin');
  const login = new LoginPage(page, 'vi', 'emailOrPhoneNumber');
  // Chromium's virtual authenticator answers the field's passkey request by itself; a person would
  // pick the passkey from the field's suggestions, which open when it is focused.
  await login.username.click({ timeout: 5_000 }).catch(() => undefined);
  await expect(page.getByRole('heading', { level: 1, name: tr('vi', 'admin.menu.dashboard') })).toBeVisible();
});
