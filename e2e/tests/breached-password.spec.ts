import { expect, test, type Page } from '@playwright/test';
import { newAccount, uniqueEmail } from '../pages/accounts.ts';
import { DEMO_APP, openLoginFromDemo } from '../pages/clients.ts';
import { ActivationPage } from '../pages/flow-pages.ts';
import { tr, type Locale } from '../pages/i18n.ts';
import { RegisterPage } from '../pages/register-page.ts';
import { saveScreenshot } from '../pages/screenshots.ts';

async function openRegister(page: Page): Promise<RegisterPage> {
  const { login } = await openLoginFromDemo(page, DEMO_APP);
  await login.createAccount.click();
  const register = new RegisterPage(page, 'vi', DEMO_APP.usernameLabel);
  await register.expectShown(DEMO_APP.name);
  return register;
}

const meter = (page: Page, locale: Locale) => page.getByRole('meter', { name: tr(locale, 'passwordStrength.label'), exact: true });

test('registering with a common breached password: the meter says weak, and the refusal is said in Vietnamese beside the password field', async ({ page }) => {
  const register = await openRegister(page);
  // The strength meter's code is not part of the first load: it comes when the field is used.
  const meterChunk = page.waitForResponse((response) => /\/assets\/zxcvbn-[^/]+\.js$/.test(response.url()));
  const account = newAccount(uniqueEmail('common'), 'Trần Thị Bình');
  await register.fill({ ...account, password: 'password123' });
  await meterChunk;
  await expect(meter(page, 'vi')).toHaveAttribute('aria-valuetext', tr('vi', 'passwordStrength.weak'));
  await expect(meter(page, 'vi')).toContainText(`${tr('vi', 'passwordStrength.label')}: ${tr('vi', 'passwordStrength.weak')}`);

  await register.policy.check();
  await register.submit.click();
  const message = tr('vi', 'errors.1104');
  await expect(register.password).toHaveAttribute('aria-invalid', 'true');
  await expect(register.password).toHaveAccessibleDescription(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  await expect(page.getByText(message, { exact: true }).first()).toBeVisible();
  await expect(page).toHaveURL(/\/register\?/);

  // A strong password is rated so, and registration goes on to activation.
  await register.password.fill('Harbour-lights-93-tacit-owl');
  await register.confirmPassword.fill('Harbour-lights-93-tacit-owl');
  await expect(meter(page, 'vi')).toHaveAttribute('aria-valuetext', tr('vi', 'passwordStrength.strong'));
  await register.submit.click();
  await new ActivationPage(page, 'vi', DEMO_APP.usernameLabel).expectShown(DEMO_APP.name, account.username);
});

test('the meter on the Register screen at 375 px, in Vietnamese and English', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  const register = await openRegister(page);
  await register.password.fill('Sunshine2024');
  await expect(meter(page, 'vi')).toBeVisible();
  await saveScreenshot(page, 'register-meter-375-vi');
  const english = await register.switchTo('en');
  await english.password.fill('Harbour-lights-93-tacit-owl');
  await expect(meter(page, 'en')).toHaveAttribute('aria-valuetext', 'Strong');
  await saveScreenshot(page, 'register-meter-375-en');
});
