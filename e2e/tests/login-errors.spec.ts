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

test('double-clicking Log in after a field error does not leave the page', async ({ page }) => {
  const { login } = await openLoginFromDemo(page, DEMO_APP);
  const loginUrl = page.url();
  const logins: string[] = [];
  page.on('request', (sent) => {
    if (sent.method() === 'POST' && new URL(sent.url()).pathname === '/api/v1/users/login') logins.push(sent.url());
  });

  // Both fields empty: their messages appear, and nothing is sent.
  await login.submit.click();
  await expect(login.username).toHaveAttribute('aria-invalid', 'true');
  await expect(login.password).toHaveAttribute('aria-invalid', 'true');
  const before = await login.submit.boundingBox();
  await login.username.fill(DEMO_USER.email);
  await login.password.fill('Not-the-password1');
  // The messages' lines are kept: the button is where it was, so the second click lands on it too.
  await expect(login.username).toHaveAttribute('aria-invalid', 'true');
  await login.submit.dblclick();

  await expect(login.alert).toHaveText(tr('vi', 'errors.1017'));
  await expect(login.username).toHaveAttribute('aria-invalid', 'false');
  expect(logins).toHaveLength(1);
  await expect(page).toHaveURL(loginUrl);
  await expect(login.username).toHaveValue(DEMO_USER.email);
  // With the banner above the form only: the fields' clearing itself moved nothing.
  const alertBox = await login.alert.boundingBox();
  const after = await login.submit.boundingBox();
  expect(Math.abs(after!.y - before!.y - (alertBox!.height + 16))).toBeLessThan(2);
  await saveScreenshot(page, 'login-demo-app-double-click-vi');
});

for (const viewport of [
  { name: 'wide', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 812 },
]) {
  test(`double-clicking Log in after a wrong password signs in and opens no other sign-in page (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const { demo, login } = await openLoginFromDemo(page, DEMO_APP);
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
    });

    await login.signIn(DEMO_USER.email, 'Not-the-password1');
    await expect(login.alert).toHaveText(tr('vi', 'errors.1017'));
    await saveScreenshot(page, `login-demo-app-wrong-password-before-double-click-${viewport.name}-vi`);
    const before = await login.submit.boundingBox();
    await login.password.fill(DEMO_USER.password);
    // Two clicks at the same point, as a hand makes them: the banner stays while the second comes.
    const x = before!.x + before!.width / 2;
    const y = before!.y + before!.height / 2;
    await page.mouse.dblclick(x, y);

    await demo.expectSignedIn('Demo App', DEMO_APP.id, DEMO_USER);
    expect(visited.filter((path) => path.startsWith('/login/') || path === '/register')).toEqual([]);
  });
}
