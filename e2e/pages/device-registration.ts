import { expect, type Page } from '@playwright/test';
import { AccountPage, ProfilePage } from './account-pages.ts';
import type { NewAccount } from './accounts.ts';
import { codeIn, Outbox } from './outbox.ts';
import { saveWideAndNarrow } from './screenshots.ts';
import { DeviceCodePage, DevicesCard, RegisterDevicePage } from './webauthn-pages.ts';

/** Registering a device in the account area, as a person does (webauthn.spec.ts, admin-device-sign-in.spec.ts). */

/** An e-mail address as the server masks it when it says where a code went: d***@example.com. */
export const maskedEmail = (email: string) => `${email[0]}***${email.slice(email.indexOf('@'))}`;

/** Personal information, from the side menu, with its 'My devices' card. */
export async function openDevices(page: Page): Promise<DevicesCard> {
  await new AccountPage(page, 'vi').menuLink('profile').click();
  await new ProfilePage(page, 'vi').expectShown();
  const devices = new DevicesCard(page, 'vi');
  await expect(devices.card).toBeVisible();
  return devices;
}

/** 'Register a new device' with the name: the browser's create() answers through the virtual authenticator. */
export async function startRegistration(devices: DevicesCard, deviceName: string): Promise<RegisterDevicePage> {
  await devices.register.click();
  const register = new RegisterDevicePage(devices.page, 'vi');
  await register.expectShown();
  await register.deviceName.fill(deviceName);
  await register.submit.click();
  return register;
}

/** Registers and activates a device with the activation code from the outbox; back on the profile, it is Active. */
export async function registerDevice(page: Page, account: NewAccount, deviceName: string, screenshots = false): Promise<DevicesCard> {
  const outbox = new Outbox(page.request);
  const devices = await openDevices(page);
  if (screenshots) {
    await expect(devices.none).toBeVisible();
    await devices.register.click();
    await new RegisterDevicePage(page, 'vi').expectShown();
    await saveWideAndNarrow(page, 'webauthn-register', 'vi');
    await page.goBack();
  }
  const seen = await outbox.messages(account.username);
  await startRegistration(devices, deviceName);

  const activation = new DeviceCodePage(page, 'vi', 'activation');
  // After registration the code went to the account's e-mail, which the page names as the server masks it.
  await activation.expectShown(deviceName, maskedEmail(account.username));
  const message = await outbox.next(account.username, seen);
  expect(message.channel).toBe('email');
  if (screenshots) await saveWideAndNarrow(page, 'webauthn-activation', 'vi');
  await activation.code.fill(codeIn(message));
  await activation.submit.click();

  await new ProfilePage(page, 'vi').expectShown();
  await expect(devices.notice('activated')).toBeVisible();
  await expect(devices.state(deviceName, 'active')).toBeVisible();
  await expect(devices.activate(deviceName)).toHaveCount(0);
  if (screenshots) await saveWideAndNarrow(page, 'webauthn-devices', 'vi', { show: devices.card });
  return devices;
}
