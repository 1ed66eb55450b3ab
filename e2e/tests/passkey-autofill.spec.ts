import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { AccountPage, ProfilePage, signInToAccountArea } from '../pages/account-pages.ts';
import { createActiveAccount, newAccount, uniqueEmail, type NewAccount } from '../pages/accounts.ts';
import { ACCOUNT, DEMO_APP, openLoginFromDemo } from '../pages/clients.ts';
import { DemoPage } from '../pages/demo-page.ts';
import { tr } from '../pages/i18n.ts';
import { LoginPage } from '../pages/login-page.ts';
import { codeIn, Outbox } from '../pages/outbox.ts';
import { saveWideAndNarrow } from '../pages/screenshots.ts';
import { VirtualAuthenticator } from '../pages/virtual-authenticator.ts';
import { DeviceCodePage, DevicesCard, RegisterDevicePage } from '../pages/webauthn-pages.ts';

// Each scenario registers its own account and its own virtual authenticator (a device with a
// screen lock: resident keys, user verification that succeeds), so they run side by side.
test.describe.configure({ mode: 'parallel' });

/** Registers a device through the account area (Personal information, 'My devices') and activates it with the e-mailed code. */
async function registerPasskey(page: Page, account: NewAccount, deviceName: string): Promise<void> {
  const outbox = new Outbox(page.request);
  await new AccountPage(page, 'vi').menuLink('profile').click();
  await new ProfilePage(page, 'vi').expectShown();
  const devices = new DevicesCard(page, 'vi');
  const seen = await outbox.messages(account.username);
  await devices.register.click();
  const register = new RegisterDevicePage(page, 'vi');
  await register.expectShown();
  await register.deviceName.fill(deviceName);
  await register.submit.click();
  const activation = new DeviceCodePage(page, 'vi', 'activation');
  await expect(activation.code).toBeVisible();
  await activation.code.fill(codeIn(await outbox.next(account.username, seen)));
  await activation.submit.click();
  await new ProfilePage(page, 'vi').expectShown();
  await expect(devices.state(deviceName, 'active')).toBeVisible();
}

/** Signs out of the account area, back to its Login screen. */
async function signOut(page: Page): Promise<void> {
  await new AccountPage(page, 'vi').signOut();
  await new LoginPage(page, 'vi', ACCOUNT.usernameLabel).expectShown(ACCOUNT.name);
}

/**
 * A passkey for this site that Passgate never registered (a key kept in a password manager after
 * its device was deleted, say): a resident credential put straight into the virtual authenticator.
 */
function strangePasskey() {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    credentialId: randomBytes(32).toString('base64'),
    isResidentCredential: true,
    rpId: 'localhost',
    privateKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    userHandle: Buffer.from('someone-else').toString('base64'),
    signCount: 0,
  };
}

test.describe('passkeys with autofill', () => {
  test('a device registered in the account area is a passkey: the Login screen of /demo signs in with it from the username field', async ({ page }) => {
    test.setTimeout(120_000);
    const authenticator = await VirtualAuthenticator.attach(page);
    const account = newAccount(uniqueEmail('passkey'), 'Phạm Thu Hà');
    await createActiveAccount(page.request, account);
    await signInToAccountArea(page, account);
    await registerPasskey(page, account, 'Điện thoại của Hà');
    // The registration asked for a discoverable credential: the authenticator keeps it as a passkey.
    const [credential] = await authenticator.credentials();
    expect(credential).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
    // Signed out, the account area's own Login screen would sign straight back in with the passkey
    // (the virtual authenticator picks it at once): it is put away until /demo asks.
    await authenticator.clear();
    await signOut(page);
    await authenticator.add(credential!);

    // No username, no password: the username field offers the passkey, and picking it signs in.
    const demo = new DemoPage(page);
    await demo.goto();
    // The virtual authenticator may answer before the screen is even looked at, so /login can be
    // left again within a poll's interval: wait for the navigation itself, armed before the click.
    const loginReached = page.waitForURL(/\/login\?(.*&)?challenge=/, { waitUntil: 'commit' });
    await demo.signInTo(DEMO_APP.label, '');
    await loginReached;
    const login = new LoginPage(page, 'vi', DEMO_APP.usernameLabel);
    // Chromium's virtual authenticator answers the conditional request by itself; a person would
    // pick the passkey from the field's suggestions, which open when it is focused.
    await login.username.click({ timeout: 5_000 }).catch(() => undefined);
    await demo.expectSignedIn('Demo App', DEMO_APP.id, { name: account.name, email: account.username });
    expect((await authenticator.credentials())[0]!.signCount).toBeGreaterThan(credential!.signCount);
  });

  test('the username field says it takes passkeys; a passkey Passgate does not know is refused in the banner (vi, en), and the password still signs in', async ({ page }) => {
    test.setTimeout(120_000);
    const account = newAccount(uniqueEmail('passkey-unknown'), 'Đỗ Quang Huy');
    await createActiveAccount(page.request, account);

    // A browser without passkeys for this site: the field waits for one, the screen looks as ever.
    const authenticator = await VirtualAuthenticator.attach(page);
    for (const locale of ['vi', 'en'] as const) {
      const { login } = await openLoginFromDemo(page, DEMO_APP, { choose: locale, locale });
      await expect(login.username).toHaveAttribute('autocomplete', 'username webauthn');
      await saveWideAndNarrow(page, 'passkey-login', locale);

      // Now the browser holds a passkey for this site that Passgate does not know; it is offered and picked.
      await authenticator.add(strangePasskey());
      await page.reload();
      await login.username.click();
      await expect(login.alert).toHaveText(tr(locale, 'errors.1029'));
      await authenticator.clear();
      await saveWideAndNarrow(page, 'passkey-unknown', locale);

      await login.signIn(account.username, account.password);
      await new DemoPage(page).expectSignedIn('Demo App', DEMO_APP.id, { name: account.name, email: account.username });
      await page.context().clearCookies();
    }
  });
});
