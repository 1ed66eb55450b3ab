import { expect, test } from '@playwright/test';
import { expectAccountDeleted, expectAvatarImage, ProfilePage, signInToAccountArea } from '../pages/account-pages.ts';
import { createActiveAccount, newAccount, uniqueEmail } from '../pages/accounts.ts';
import { ACCOUNT, DEMO_APP, openLoginFromDemo } from '../pages/clients.ts';
import { DashboardPage } from '../pages/dashboard-page.ts';
import { tr } from '../pages/i18n.ts';
import { pdfDocument, pngImage } from '../pages/images.ts';
import { SecurityPage } from '../pages/security-pages.ts';
import { LoginPage } from '../pages/login-page.ts';
import { codeIn, Outbox } from '../pages/outbox.ts';
import { NARROW, saveScreenshot, saveWideAndNarrow } from '../pages/screenshots.ts';

// Each scenario registers and activates its own account, so they run side by side and the demo
// user is never touched.
test.describe.configure({ mode: 'parallel' });

test.describe('the account area', () => {
  test('Personal information: name, birthday and gender are saved and still there after a reload', async ({ page, request }) => {
    const account = newAccount(uniqueEmail('profile'), 'Trần Thị Bình');
    await createActiveAccount(request, account);
    const dashboard = await signInToAccountArea(page, account);
    await expect(dashboard.avatar(account.name)).toHaveText('TB'); // no picture yet: the initials
    await saveWideAndNarrow(page, 'account-dashboard', 'vi');

    const profile = new ProfilePage(page, 'vi');
    await profile.menuLink('profile').click();
    await profile.expectShown();
    await expect(profile.menuLink('profile')).toHaveAttribute('aria-current', 'page');
    await expect(profile.name).toHaveValue(account.name);
    await expect(profile.birthday).toHaveValue('');
    for (const gender of ['Male', 'Female', 'Other'] as const) await expect(profile.gender(gender)).not.toBeChecked();
    await saveWideAndNarrow(page, 'account-profile', 'vi');

    await profile.name.fill('Lê Văn Cường');
    // The field puts the slashes in as the digits are typed.
    await profile.birthday.pressSequentially('01021990');
    await expect(profile.birthday).toHaveValue('01/02/1990');
    await profile.gender('Male').check();
    const patch = page.waitForRequest((request) => request.method() === 'PATCH' && new URL(request.url()).pathname === '/api/v1/me');
    await profile.saveProfile.click();
    // The birthday travels as that day's midnight UTC in Unix seconds.
    expect((await patch).postDataJSON()).toEqual({ name: 'Lê Văn Cường', birthday: Date.UTC(1990, 1, 1) / 1000, gender: 'Male' });
    await expect(profile.updated(profile.profileSection)).toBeVisible();
    expect(tr('vi', 'account.profile.updated')).toBe('Cập nhật thông tin thành công');
    // The header follows at once.
    await expect(profile.greeting('Lê Văn Cường')).toBeVisible();

    await page.reload();
    await profile.expectShown();
    await expect(profile.name).toHaveValue('Lê Văn Cường');
    await expect(profile.birthday).toHaveValue('01/02/1990');
    await expect(profile.gender('Male')).toBeChecked();
    await expect(profile.greeting('Lê Văn Cường')).toBeVisible();
    await expect(profile.updated(profile.profileSection)).toHaveCount(0);

    // The same page in English, and the dashboard greets the new name.
    const english = await profile.switchTo('en');
    await english.expectShown();
    await expect(english.birthday).toHaveValue('01/02/1990');
    await expect(english.gender('Male')).toBeChecked();
    await saveWideAndNarrow(page, 'account-profile', 'en');
    await english.menuLink('dashboard').click();
    await new DashboardPage(page, 'en').expectUser({ name: 'Lê Văn Cường', email: account.username });
    await saveWideAndNarrow(page, 'account-dashboard', 'en');
  });

  test('profile picture: only images are taken; the cropped picture shows in the header and on the dashboard', async ({ page, request }) => {
    const account = newAccount(uniqueEmail('avatar'), 'Phạm Minh Châu');
    await createActiveAccount(request, account);
    await signInToAccountArea(page, account);
    const profile = await new ProfilePage(page, 'vi').switchTo('en');
    await profile.menuLink('profile').click();
    await profile.expectShown();
    await expect(profile.changeAvatar).toBeEnabled();
    await expect(profile.avatar(account.name)).toHaveText('PC');

    // Not an image: refused on the spot, no cropper.
    const notAllowed = profile.avatarSection.getByRole('alert');
    await profile.avatarFile.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture\n') });
    await expect(notAllowed).toHaveText(tr('en', 'errors.1071'));
    expect(tr('en', 'errors.1071')).toBe('The MIME type of the selected file is not allowed');
    await profile.avatarFile.setInputFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: pdfDocument() });
    await expect(notAllowed).toHaveText(tr('en', 'errors.1071'));
    await expect(profile.cropDialog).toHaveCount(0);

    // A PDF renamed .png passes the type check, but the browser cannot decode it: 1070, no Save.
    await profile.avatarFile.setInputFiles({ name: 'scan.png', mimeType: 'image/png', buffer: pdfDocument() });
    await expect(profile.cropDialog).toBeVisible();
    await expect(notAllowed).toHaveCount(0);
    await expect(profile.cropDialog.getByRole('alert')).toHaveText(tr('en', 'errors.1070'));
    await expect(profile.saveAvatar).toBeDisabled();
    await profile.cropDialog.getByRole('button', { name: tr('en', 'common.cancel'), exact: true }).click();
    await expect(profile.cropDialog).toHaveCount(0);

    // A real picture: the cropper opens at zoom 1; the slider moves in steps of 0.1 between 1 and 2.
    await profile.avatarFile.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: pngImage(320, 240) });
    await expect(profile.cropDialog).toBeVisible();
    await expect(profile.zoom).toHaveAttribute('aria-valuemin', '1');
    await expect(profile.zoom).toHaveAttribute('aria-valuemax', '2');
    await expect(profile.zoom).toHaveAttribute('aria-valuenow', '1');
    await profile.zoom.focus();
    for (let step = 0; step < 3; step += 1) await profile.zoom.press('ArrowRight');
    await expect(profile.zoom).toHaveAttribute('aria-valuenow', '1.3');
    await expect(profile.zoom).toHaveAttribute('aria-valuetext', '1.3×');
    for (let step = 0; step < 12; step += 1) await profile.zoom.press('ArrowRight');
    await expect(profile.zoom).toHaveAttribute('aria-valuenow', '2');
    await profile.zoom.press('ArrowLeft');
    const zoom = Number(await profile.zoom.getAttribute('aria-valuenow'));
    expect(zoom).toBeGreaterThanOrEqual(1);
    expect(zoom).toBeLessThanOrEqual(2);
    expect(zoom).toBe(Math.round(zoom * 10) / 10);
    expect(zoom).toBe(1.9);
    await expect(profile.saveAvatar).toBeEnabled();
    // The canvas is 470 px on a wide window, the window's width minus 64 at 375 px; the dialog at most 720 px.
    const canvas = page.getByTestId('avatar-crop-canvas');
    expect((await canvas.boundingBox())?.width).toBe(470);
    expect((await profile.cropDialog.boundingBox())?.width).toBeLessThanOrEqual(720);
    await saveWideAndNarrow(page, 'account-avatar-cropper', 'en', { show: profile.cropDialog });
    await page.setViewportSize(NARROW);
    await expect.poll(async () => (await canvas.boundingBox())?.width).toBe(NARROW.width - 64);
    await page.setViewportSize({ width: 1280, height: 720 });

    await profile.saveAvatar.click();
    await expect(profile.cropDialog).toHaveCount(0);
    await expect(profile.updated(profile.avatarSection)).toHaveText(tr('en', 'account.profile.updated'));
    const avatarUrl = await expectAvatarImage(profile.avatar(account.name));
    await expect(profile.headerAvatarImage).toHaveAttribute('src', avatarUrl);
    await expectAvatarImage(profile.headerAvatarImage);

    // The dashboard, after a reload (the picture comes back from the server, not from the page's memory).
    await profile.menuLink('dashboard').click();
    await page.reload();
    const dashboard = new DashboardPage(page, 'en');
    await dashboard.expectUser({ name: account.name, email: account.username });
    expect(await expectAvatarImage(dashboard.avatar(account.name))).toBe(avatarUrl);
    expect(await expectAvatarImage(profile.headerAvatarImage)).toBe(avatarUrl);
    await saveWideAndNarrow(page, 'account-dashboard-with-avatar', 'en');
  });

  test('changing the e-mail address: a code to the new address, a notice to the old one, and sign-in with the new one', async ({ page, request }) => {
    const account = newAccount(uniqueEmail('email-old'), 'Đỗ Quang Huy');
    await createActiveAccount(request, account);
    const newAddress = uniqueEmail('email-new');
    const outbox = new Outbox(request);
    const oldMessagesBefore = await outbox.messages(account.username);

    await signInToAccountArea(page, account);
    const profile = new ProfilePage(page, 'vi');
    await profile.menuLink('profile').click();
    await profile.expectShown();
    await expect(profile.contactSection.getByText(account.username, { exact: true })).toBeVisible();

    await profile.contactButton('changeEmail').click();
    const editor = profile.contactEditor('changeEmail');
    await expect(editor.newEmail).toBeFocused();
    await editor.newEmail.fill(newAddress);
    await editor.next.click();

    // Step 2: the new address, read-only, and the code sent to it.
    await expect(editor.code).toBeFocused();
    await expect(editor.target).toHaveValue(newAddress);
    await expect(editor.form.getByText(tr('vi', 'account.profile.contact.codeSentTo', { value: newAddress }), { exact: true })).toBeVisible();
    await saveWideAndNarrow(page, 'account-contact-email-code', 'vi', { show: editor.form });
    const code = codeIn(await outbox.next(newAddress));
    // Nothing has changed yet: the account still has the old address until the code is confirmed.
    await expect(profile.contactSection.getByText(account.username, { exact: true })).toBeVisible();
    expect(await outbox.messages(account.username)).toHaveLength(oldMessagesBefore.length);

    await editor.code.fill(code);
    await editor.save.click();
    await expect(profile.updated(profile.contactSection)).toHaveText(tr('vi', 'account.profile.updated'));
    await expect(editor.form).toHaveCount(0);
    await expect(profile.contactSection.getByText(newAddress, { exact: true })).toBeVisible();
    await expect(profile.contactSection.getByText(account.username, { exact: true })).toHaveCount(0);

    // The old address got a notice of the change, with no code in it.
    const notice = await outbox.next(account.username, oldMessagesBefore);
    expect(notice.channel).toBe('email');
    expect(notice.subject).toBe('[Passgate Demo] Địa chỉ email của tài khoản đã được thay đổi');
    expect(notice.code).toBeNull();
    expect(notice.text).not.toMatch(/\b\d{6}\b/);

    // The dashboard and the user menu show the new address.
    await profile.menuLink('dashboard').click();
    await new DashboardPage(page, 'vi').expectUser({ name: account.name, email: newAddress });

    // Log out of the account area, then sign in to Demo App: the old address is refused, the new one works.
    // Log out ends the provider's session and comes back to the account area, which asks for a sign-in.
    await profile.signOut();
    await new LoginPage(page, 'vi', ACCOUNT.usernameLabel).expectShown(ACCOUNT.name);
    const { demo, login } = await openLoginFromDemo(page, DEMO_APP);
    await login.signIn(account.username, account.password);
    await expect(login.alert).toHaveText(tr('vi', 'errors.1017'));
    await login.signIn(newAddress, account.password);
    await demo.expectSignedIn('Demo App', DEMO_APP.id, { name: account.name, email: newAddress });
    await expect(demo.claim('email_verified')).toHaveText('true');
  });

  test('the Security re-check with a wrong password shows the field error and keeps the password', async ({ page, request }) => {
    const account = newAccount(uniqueEmail('recheck'), 'Đỗ Văn Nam');
    await createActiveAccount(request, account);
    await signInToAccountArea(page, account);
    await page.goto('/user/security');
    const security = new SecurityPage(page, 'vi');
    await security.expectShown();
    await security.mfaRow('off').click();
    await security.checkPassword.fill('Not-the-password1');
    await security.checkNext.click();

    await expect(security.checkPassword).toHaveAttribute('aria-invalid', 'true');
    await expect(security.checkPassword).toHaveAccessibleDescription(tr('vi', 'account.passwordWrong'));
    await expect(security.checkPassword).toHaveValue('Not-the-password1');
    await expect(security.checkPassword).toBeFocused();
    await expect(security.checkDialog.getByRole('alert')).toHaveCount(0);
    await saveWideAndNarrow(page, 'security-recheck-wrong-password', 'vi', { show: security.checkDialog });

    // Corrected in place, it goes on.
    await security.checkPassword.fill(account.password);
    await security.checkNext.click();
    await expect(page).toHaveURL(/\/user\/security\/mfa\/greeting$/);
  });

  test('account deletion needs the password: a wrong one is refused beside the field, then the right one and the typed address delete it', async ({ page, request }) => {
    const account = newAccount(uniqueEmail('delete'), 'Vũ Thị Lan');
    await createActiveAccount(request, account);
    await signInToAccountArea(page, account);
    const profile = new ProfilePage(page, 'vi');
    await profile.menuLink('profile').click();
    await profile.expectShown();

    // Cancel keeps the account.
    await profile.deleteAccount.click();
    await expect(profile.deleteDialog).toBeVisible();
    await expect(profile.deleteDialog.getByText(tr('vi', 'account.profile.delete.dialogText'), { exact: true })).toBeVisible();
    const cancel = profile.deleteDialog.getByRole('button', { name: tr('vi', 'common.cancel'), exact: true });
    expect((await profile.deleteDialog.boundingBox())?.width).toBeLessThanOrEqual(420);
    await saveWideAndNarrow(page, 'account-delete-dialog', 'vi', { show: profile.deleteDialog });
    await cancel.click();
    await expect(profile.deleteDialog).toHaveCount(0);
    await page.reload();
    await profile.expectShown();

    // Delete stays off until the account's address is typed out.
    await profile.deleteAccount.click();
    const confirmation = profile.deleteConfirmation(account.username);
    await profile.deletePassword.fill('Not-the-password1');
    await expect(profile.deletePermanently).toBeDisabled();
    await confirmation.fill(account.username.slice(0, -1));
    await expect(profile.deletePermanently).toBeDisabled();
    await confirmation.fill(account.username.toUpperCase());
    await expect(profile.deletePermanently).toBeEnabled();

    // A wrong password: said beside the field, which keeps it; the account stays.
    await profile.deletePermanently.click();
    await expect(profile.deletePassword).toHaveAttribute('aria-invalid', 'true');
    await expect(profile.deletePassword).toHaveAccessibleDescription(tr('vi', 'account.passwordWrong'));
    await expect(profile.deletePassword).toHaveValue('Not-the-password1');
    await expect(profile.deleteDialog.getByRole('alert')).toHaveCount(0);
    await saveWideAndNarrow(page, 'account-delete-wrong-password', 'vi', { show: profile.deleteDialog });

    await profile.deletePassword.fill(account.password);
    await profile.deletePermanently.click();
    await expectAccountDeleted(page, 'vi');
    await saveWideAndNarrow(page, 'account-deleted', 'vi');

    // Signed out everywhere: the account area asks for a sign-in again.
    await page.goto('/user/dashboard');
    await new LoginPage(page, 'vi', ACCOUNT.usernameLabel).expectShown(ACCOUNT.name);

    // The old password is refused as for an account that does not exist.
    const { login } = await openLoginFromDemo(page, DEMO_APP);
    await login.signIn(account.username, account.password);
    await expect(login.alert).toHaveText(tr('vi', 'errors.1017'));
    await expect(page).toHaveURL(/\/login\?(.*&)?challenge=/);

    // In English too, the page a deleted account lands on.
    await page.goto('/account-deleted?locale=en');
    await expectAccountDeleted(page, 'en');
    await saveWideAndNarrow(page, 'account-deleted', 'en');
  });

  test.describe(`${NARROW.width} px wide`, () => {
    test.use({ viewport: NARROW, isMobile: true, hasTouch: true });

    test('the hamburger opens the side menu, and Personal information leads to the profile', async ({ page, request }) => {
      const account = newAccount(uniqueEmail('drawer'), 'Hoàng Anh');
      await createActiveAccount(request, account);
      await signInToAccountArea(page, account);
      const area = new ProfilePage(page, 'vi');
      // No side column on a phone: only the hamburger.
      await expect(area.navigation).toHaveCount(0);
      await expect(area.hamburger).toBeVisible();

      await area.hamburger.click();
      await expect(area.navigation).toBeVisible();
      await expect(area.menuLink('dashboard')).toHaveAttribute('aria-current', 'page');
      for (const key of ['data', 'security', 'people', 'help', 'feedback']) {
        await expect(area.navigation.getByRole('button', { name: tr('vi', `account.menu.${key}`), exact: true })).toBeDisabled();
      }
      await saveScreenshot(page, 'account-drawer-narrow-vi', { show: area.navigation });

      await area.menuLink('profile').click();
      await expect(area.navigation).toHaveCount(0);
      await area.expectShown();

      // The drawer in English.
      const english = await area.switchTo('en');
      await english.hamburger.click();
      await expect(english.menuLink('profile')).toHaveAttribute('aria-current', 'page');
      await saveScreenshot(page, 'account-drawer-narrow-en', { show: english.navigation });
    });
  });
});
