import { expect, test, type Browser, type Page } from '@playwright/test';
import { AccountPage, ProfilePage, signInToAccountArea } from '../pages/account-pages.ts';
import { createActiveAccount, newAccount, uniqueEmail, type NewAccount } from '../pages/accounts.ts';
import { ACCOUNT, DEMO_APP, openLoginFromDemo } from '../pages/clients.ts';
import { DemoPage } from '../pages/demo-page.ts';
import { LoginPage } from '../pages/login-page.ts';
import { tr } from '../pages/i18n.ts';
import { codeIn, Outbox } from '../pages/outbox.ts';
import { saveWideAndNarrow } from '../pages/screenshots.ts';
import { VirtualAuthenticator } from '../pages/virtual-authenticator.ts';
import { DeviceCodePage, DeviceLoginPage, VerifyDevicePage } from '../pages/webauthn-pages.ts';
import { maskedEmail, openDevices, registerDevice, startRegistration } from '../pages/device-registration.ts';

// Each scenario registers its own account and its own virtual authenticator, so they run side by
// side and the demo user is never touched.
test.describe.configure({ mode: 'parallel' });

/**
 * Logs out of the account area and opens Demo App's 'Log in with your device' screen. The Login
 * screens on the way offer the authenticator's passkeys in their username field, and the virtual
 * authenticator would pick one at once (passkey-autofill.spec.ts): its credentials are put away
 * until the device screen is up.
 */
async function openDeviceLoginFromDemo(page: Page, authenticator?: VirtualAuthenticator): Promise<DeviceLoginPage> {
  const held = (await authenticator?.credentials()) ?? [];
  await authenticator?.clear();
  await new AccountPage(page, 'vi').signOut();
  await new LoginPage(page, 'vi', ACCOUNT.usernameLabel).expectShown(ACCOUNT.name);
  const { login } = await openLoginFromDemo(page, DEMO_APP);
  await login.deviceLogin.click();
  const deviceLogin = new DeviceLoginPage(page, 'vi');
  await deviceLogin.expectShown();
  for (const credential of held) await authenticator?.add(credential);
  return deviceLogin;
}

/**
 * A device registered for `account` in `page`'s browser, whose key then moves to a second device
 * (its own browser, no cookies of the first): the first no longer holds it, so its own attempt at
 * a device sign-in fails and it shows the QR code. The caller closes `secondContext`.
 */
async function keyOnSecondDevice(page: Page, browser: Browser, account: NewAccount, deviceName: string) {
  const first = await VirtualAuthenticator.attach(page);
  await createActiveAccount(page.request, account);
  await signInToAccountArea(page, account);
  await registerDevice(page, account, deviceName);
  const [credential] = await first.credentials();
  await first.clear();
  const secondContext = await browser.newContext();
  const second = await secondContext.newPage();
  const secondAuthenticator = await VirtualAuthenticator.attach(second);
  await secondAuthenticator.add(credential!);
  return { secondContext, second, secondAuthenticator };
}

test.describe('devices (WebAuthn)', () => {
  test('register a device, activate it with the e-mailed code, sign in through /demo with it, then delete it', async ({ page }) => {
    test.setTimeout(120_000);
    const authenticator = await VirtualAuthenticator.attach(page);
    const account = newAccount(uniqueEmail('webauthn'), 'Nguyễn Thị Hoa');
    await createActiveAccount(page.request, account);
    await signInToAccountArea(page, account);

    const deviceName = 'Máy tính xách tay';
    await registerDevice(page, account, deviceName, true);
    // The authenticator now holds one credential for this site, bound to the account.
    const [credential] = await authenticator.credentials();
    expect(credential?.rpId).toBe('localhost');

    const deviceLogin = await openDeviceLoginFromDemo(page, authenticator);
    await saveWideAndNarrow(page, 'webauthn-login', 'vi');
    await deviceLogin.logIn(account.username);
    await new DemoPage(page).expectSignedIn('Demo App', DEMO_APP.id, { name: account.name, email: account.username });
    expect((await authenticator.credentials())[0]!.signCount).toBeGreaterThan(credential!.signCount);

    // Back to the account area (the single sign-on session signs it in), then delete the device.
    const outbox = new Outbox(page.request);
    await page.goto('/user/dashboard');
    const devices = await openDevices(page);
    await expect(devices.state(deviceName, 'active')).toBeVisible();
    await devices.delete(deviceName).click();
    await expect(devices.deleteDialog).toContainText(tr('vi', 'account.devices.deleteQuestion', { name: deviceName }));
    await saveWideAndNarrow(page, 'webauthn-delete-dialog', 'vi', { show: devices.deleteDialog });
    const seen = await outbox.messages(account.username);
    await devices.confirmDelete.click();

    const deletion = new DeviceCodePage(page, 'vi', 'deletion');
    await deletion.expectShown(deviceName, maskedEmail(account.username));
    const message = await outbox.next(account.username, seen);
    await saveWideAndNarrow(page, 'webauthn-deletion', 'vi');
    await deletion.code.fill(codeIn(message));
    await deletion.submit.click();
    await new ProfilePage(page, 'vi').expectShown();
    await expect(devices.notice('deleted')).toBeVisible();
    await expect(devices.item(deviceName)).toHaveCount(0);
    await expect(devices.none).toBeVisible();
  });

  test('the same authenticator cannot be registered twice: "This device is already registered"', async ({ page }) => {
    await VirtualAuthenticator.attach(page);
    const account = newAccount(uniqueEmail('webauthn-twice'), 'Trần Văn Nam');
    await createActiveAccount(page.request, account);
    await signInToAccountArea(page, account);

    const devices = await openDevices(page);
    await startRegistration(devices, 'Điện thoại');
    // Stored inactive as soon as the browser answered; the activation page waits for its code.
    await new DeviceCodePage(page, 'vi', 'activation').expectShown('Điện thoại', maskedEmail(account.username));
    await openDevices(page);
    await expect(devices.state('Điện thoại', 'inactive')).toBeVisible();
    await expect(devices.activate('Điện thoại')).toBeVisible();

    const register = await startRegistration(devices, 'Điện thoại lần hai');
    await expect(register.alreadyRegistered).toBeVisible();
    await expect(page).toHaveURL(/\/user\/webauthn\/register$/);
    await saveWideAndNarrow(page, 'webauthn-register-already', 'vi');
  });

  test('another device approves by the QR code: the first lands on /demo signed in', async ({ page, browser }) => {
    test.setTimeout(150_000);
    const account = newAccount(uniqueEmail('webauthn-qr'), 'Lê Minh Khoa');
    const { secondContext, second } = await keyOnSecondDevice(page, browser, account, 'Điện thoại của Khoa');
    try {
      const deviceLogin = await openDeviceLoginFromDemo(page);
      await deviceLogin.logIn(account.username);
      await expect(deviceLogin.qrDialog).toBeVisible({ timeout: 30_000 });
      await expect(deviceLogin.qrCode).toHaveAttribute('src', /^data:image\/png;base64,/);
      await expect(deviceLogin.qrCode).toHaveJSProperty('width', 150);
      await expect(deviceLogin.waiting).toBeVisible();
      await expect(deviceLogin.noReload).toBeVisible();
      await expect(deviceLogin.countdown).toBeVisible();
      const link = (await deviceLogin.qrLink.getAttribute('href'))!;
      // On this site's own origin, with the sign-in's challenge and the device-login request.
      const url = new URL(link);
      expect(url.origin).toBe(new URL(page.url()).origin);
      expect(url.pathname).toBe('/login/webauthn/verify-device');
      expect(url.searchParams.get('challenge')).toBe(new URL(page.url()).searchParams.get('challenge'));
      expect(url.searchParams.get('authnChallenge')).toBeTruthy();
      await expect(deviceLogin.qrLink).toHaveText(link);
      await saveWideAndNarrow(page, 'webauthn-login-qr', 'vi', { show: deviceLogin.qrDialog });

      await second.goto(link);
      const verify = new VerifyDevicePage(second, 'vi');
      await expect(verify.confirmation(DEMO_APP.name)).toBeVisible();
      // The first browser (Chromium, on this machine's address) is named, not the second's own.
      await expect(verify.requester).toContainText('Chrome');
      await expect(verify.requester).toContainText('IP ');
      await expect(verify.warning).toBeVisible();
      await expect(verify.question).toBeVisible();
      await saveWideAndNarrow(second, 'webauthn-verify-device', 'vi');
      await verify.continue.click();
      await expect(verify.verified).toBeVisible();
      await expect(verify.redirectCountdown).toBeVisible();
      await saveWideAndNarrow(second, 'webauthn-verify-device-done', 'vi');

      // The first device's poll gets the redirect and finishes its sign-in.
      await new DemoPage(page).expectSignedIn('Demo App', DEMO_APP.id, { name: account.name, email: account.username });
      // The second device goes on to the account area after its 5 s.
      await expect(second).toHaveURL(/\/(user\/dashboard|login\?)/, { timeout: 15_000 });
    } finally {
      await secondContext.close();
    }
  });

  test('"No, it\'s not me" on the device sent the link: the first browser stops waiting and nobody is signed in', async ({ page, browser }) => {
    test.setTimeout(150_000);
    const account = newAccount(uniqueEmail('webauthn-deny'), 'Phạm Thu Trang');
    // The first browser plays the stranger who typed the victim's username: it holds no key, so it shows the QR code.
    const { secondContext, second, secondAuthenticator } = await keyOnSecondDevice(page, browser, account, 'Điện thoại của Trang');
    try {
      const deviceLogin = await openDeviceLoginFromDemo(page);
      await deviceLogin.logIn(account.username);
      await expect(deviceLogin.qrDialog).toBeVisible({ timeout: 30_000 });
      const link = (await deviceLogin.qrLink.getAttribute('href'))!;

      await second.goto(link);
      const verify = new VerifyDevicePage(second, 'vi');
      await expect(verify.confirmation(DEMO_APP.name)).toBeVisible();
      await expect(verify.warning).toBeVisible();
      await verify.deny.click();
      await expect(verify.denied).toBeVisible();
      await expect(verify.continue).toHaveCount(0);
      await expect(verify.toAccount).toBeVisible();
      await saveWideAndNarrow(second, 'webauthn-verify-device-refused', 'vi');
      const signCount = (await secondAuthenticator.credentials())[0]!.signCount;

      // The first browser stops waiting and says its device sign-in has ended, signed in nowhere; it
      // stays on the form of its sign-in request, which goes on (another try, or the password).
      await expect(deviceLogin.qrDialog).toBeHidden({ timeout: 15_000 });
      const ended = page.getByText(tr('vi', 'deviceLogin.ended'), { exact: true });
      await expect(ended).toBeVisible();
      await expect(page.getByRole('heading', { level: 1, name: tr('vi', 'deviceLogin.documentTitle') })).toBeVisible();
      await saveWideAndNarrow(page, 'webauthn-device-login-ended', 'vi');
      expect(new URL(page.url()).pathname).not.toMatch(/^\/demo/);
      // The refused link offers nothing to approve afterwards (the request or the whole sign-in is over).
      await second.goto(link);
      const again = new VerifyDevicePage(second, 'vi');
      const over = second.getByRole('heading', { level: 1, name: tr('vi', 'requestGone.heading') }).or(again.alert.filter({ hasText: tr('vi', 'messages.verifyDeviceFailed') }));
      await expect(over).toBeVisible();
      await expect(again.continue).toHaveCount(0);
      expect((await secondAuthenticator.credentials())[0]!.signCount).toBe(signCount);
      await expect(ended).toBeVisible();
      expect(new URL(page.url()).pathname).not.toMatch(/^\/demo/);
    } finally {
      await secondContext.close();
    }
  });

  test('a browser without WebAuthn: Login offers no device link, and registering says so and returns to the profile', async ({ page }) => {
    await page.addInitScript(() => {
      delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential;
    });
    const { login } = await openLoginFromDemo(page, DEMO_APP);
    await expect(login.passwordless).toBeVisible();
    await expect(login.deviceLogin).toHaveCount(0);

    const account = newAccount(uniqueEmail('webauthn-unsupported'), 'Lê Minh Tú');
    await createActiveAccount(page.request, account);
    await signInToAccountArea(page, account);
    const devices = await openDevices(page);
    await devices.register.click();
    await expect(page.getByText(tr('vi', 'messages.browserNotSupported'), { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/user\/profile$/, { timeout: 15_000 });
    await expect(devices.card).toBeVisible();
  });
});
