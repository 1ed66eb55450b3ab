import { expect, test } from '@playwright/test';
import { DEMO_APP, openLoginFromDemo } from '../pages/clients.ts';
import { tr } from '../pages/i18n.ts';
import { DEMO_USER } from '../pages/login-page.ts';
import { saveScreenshot } from '../pages/screenshots.ts';

test('a wrong password says so in the current language and stays on the Login screen', async ({ page }) => {
  const { login } = await openLoginFromDemo(page, DEMO_APP);
  const loginUrl = page.url();

  await login.signIn(DEMO_USER.email, 'Not-the-password1');
  await expect(login.alert).toHaveText(tr('vi', 'errors.1017'));
  expect(tr('vi', 'errors.1017')).toBe('Tên đăng nhập hoặc mật khẩu không đúng');
  await expect(login.alert).toBeFocused();
  await expect(page).toHaveURL(loginUrl);
  await expect(login.submit).toBeEnabled();
  await saveScreenshot(page, 'login-demo-app-wrong-password-vi');

  // The message follows the language switcher, and a second attempt answers in English.
  const english = await login.switchTo('en');
  await expect(english.alert).toHaveText('Username or password is not correct');
  await english.password.fill('Still-not-it2');
  await english.submit.click();
  await expect(english.alert).toHaveText(tr('en', 'errors.1017'));
  await expect(page).toHaveURL(loginUrl);
  await expect(english.username).toHaveValue(DEMO_USER.email);
  await saveScreenshot(page, 'login-demo-app-wrong-password-en');
});
