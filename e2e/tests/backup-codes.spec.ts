import { expect, test, type Page } from '@playwright/test';
import { signInToAccountArea } from '../pages/account-pages.ts';
import { createActiveAccount, newAccount, uniqueEmail, type NewAccount } from '../pages/accounts.ts';
import { ACCOUNT, DEMO_APP, openLoginFromDemo } from '../pages/clients.ts';
import { DemoPage } from '../pages/demo-page.ts';
import { tr, type Locale } from '../pages/i18n.ts';
import { LoginPage } from '../pages/login-page.ts';
import { codeIn, Outbox } from '../pages/outbox.ts';
import { expectNoSeriousA11yViolations } from '../pages/accessibility.ts';
import { saveWideAndNarrow } from '../pages/screenshots.ts';
import { BACKUP_CODE_SHAPE, BackupCodesDialog, BackupCodesRow, SecondStepOtherWays } from '../pages/backup-codes-pages.ts';
import { Login2StepPage, openTwoStepMethods, type MfaPage, SecurityPage } from '../pages/security-pages.ts';

/** From the dashboard's Security card to the Security page. */
async function openSecurity(page: Page, locale: Locale = 'vi'): Promise<SecurityPage> {
  await page
    .getByRole('main')
    .getByRole('link', { name: new RegExp(`^${tr(locale, 'account.security.heading')}`) })
    .click();
  const security = new SecurityPage(page, locale);
  await security.expectShown();
  return security;
}

/** Turns 2-step on by e-mail code from the Security page (password re-check, greeting, the e-mail dialog). */
async function turnOnEmailTwoStep(security: SecurityPage, account: NewAccount, outbox: Outbox): Promise<MfaPage> {
  const mfa = await openTwoStepMethods(security, account);
  const seen = await outbox.messages(account.username);
  await mfa.setUp('email').click();
  await mfa.button('email', 'account.security.setup.send').click();
  await mfa.code('email').fill(codeIn(await outbox.next(account.username, seen)));
  await mfa.button('email', 'account.security.setup.confirm').click();
  await expect(mfa.dialog('email')).toHaveCount(0);
  return mfa;
}

/** A sign-in at the Demo App with the password, up to the 2-step screen (in `locale`). */
async function passwordStepFromDemo(page: Page, account: NewAccount, locale: Locale): Promise<void> {
  const { login } = await openLoginFromDemo(page, DEMO_APP, locale === DEMO_APP.defaultLocale ? {} : { choose: locale, locale });
  await login.signIn(account.username, account.password);
  await expect(page).toHaveURL(/\/login\/mfa(\?|$)/);
  await new Login2StepPage(page, locale).expectShown(tr(locale, 'login2Step.emailInstructions', { count: '6', username: account.username }));
}

test.describe('2-step verification backup codes', () => {
  test('shown and downloadable when 2-step is turned on, regenerated on Security; a backup code signs in once and not twice', async ({ page, request, context }) => {
    test.setTimeout(120_000);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const account = newAccount(uniqueEmail('backup-codes'), 'Đỗ Thị Hạnh');
    await createActiveAccount(request, account);
    const outbox = new Outbox(request);
    await signInToAccountArea(page, account);
    const security = await openSecurity(page);
    await expect(new BackupCodesRow(page).regenerate).toHaveCount(0);

    // Turned on: the ten codes, once, with the sentence to keep them safe, Copy and Download.
    const mfa = await turnOnEmailTwoStep(security, account, outbox);
    const shown = new BackupCodesDialog(page, 'vi');
    await expect(shown.dialog).toBeVisible();
    await expect(shown.keepSafe).toBeVisible();
    const first = await shown.codes();
    for (const code of first) expect(code).toMatch(BACKUP_CODE_SHAPE);
    expect(new Set(first).size).toBe(10);
    await saveWideAndNarrow(page, 'backup-codes-dialog', 'vi', { show: shown.dialog });
    await expectNoSeriousA11yViolations(page, 'backup-codes-dialog-vi');
    await shown.copy.click();
    await expect(shown.copied).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    for (const code of first) expect(copied).toContain(code);
    const file = await shown.downloadFile();
    expect(file.name).toBe('passgate-backup-codes.txt');
    expect(file.text.split(/\r?\n/).filter((line) => BACKUP_CODE_SHAPE.test(line))).toEqual(first);
    expect(file.text).toContain(tr('vi', 'account.security.backupCodes.keepSafe'));
    await shown.done.click();
    await expect(shown.dialog).toHaveCount(0);
    await expect(mfa.activated).toBeVisible();

    // The Security page counts them; in English, new ones replace them after the password.
    await mfa.menuLink('dashboard').click();
    await openSecurity(page);
    await expect(new BackupCodesRow(page, 'vi').remaining(10)).toBeVisible();
    await saveWideAndNarrow(page, 'backup-codes-security', 'vi');
    await expectNoSeriousA11yViolations(page, 'backup-codes-security-vi');
    const english = await security.switchTo('en');
    const row = new BackupCodesRow(page, 'en');
    await expect(row.remaining(10)).toBeVisible();
    await saveWideAndNarrow(page, 'backup-codes-security', 'en');
    await expectNoSeriousA11yViolations(page, 'backup-codes-security-en');
    await row.regenerate.click();
    const regenerate = page.getByRole('dialog', { name: tr('en', 'account.security.backupCodes.regenerateTitle'), exact: true });
    await expect(regenerate.getByText(tr('en', 'account.security.backupCodes.regenerateWarning'), { exact: true })).toBeVisible();
    const password = regenerate.getByLabel(tr('en', 'account.security.check.password'));
    await password.fill('Wr0ng!password');
    await regenerate.getByRole('button', { name: tr('en', 'account.security.backupCodes.regenerateConfirm'), exact: true }).click();
    await expect(regenerate.getByText(tr('en', 'account.security.backupCodes.wrongPassword'), { exact: true })).toBeVisible();
    await expect(password).toHaveValue('Wr0ng!password');
    await saveWideAndNarrow(page, 'backup-codes-regenerate', 'en', { show: regenerate });
    await expectNoSeriousA11yViolations(page, 'backup-codes-regenerate-en');
    await password.fill(account.password);
    await regenerate.getByRole('button', { name: tr('en', 'account.security.backupCodes.regenerateConfirm'), exact: true }).click();
    const renewed = new BackupCodesDialog(page, 'en');
    const codes = await renewed.codes();
    expect(codes.filter((code) => first.includes(code))).toEqual([]);
    await saveWideAndNarrow(page, 'backup-codes-dialog', 'en', { show: renewed.dialog });
    await expectNoSeriousA11yViolations(page, 'backup-codes-dialog-en');
    await renewed.done.click();
    await expect(row.remaining(10)).toBeVisible();
    const vietnamese = await english.switchTo('vi');

    // Signed out: the Demo App's sign-in passes the 2-step screen with a backup code (an old one no longer works).
    await vietnamese.signOut();
    await new LoginPage(page, 'vi', ACCOUNT.usernameLabel).expectShown(ACCOUNT.name);
    await passwordStepFromDemo(page, account, 'vi');
    const ways = new SecondStepOtherWays(page, 'vi');
    await ways.tryAnotherWay.click();
    await expect(ways.way('email')).toBeVisible();
    await expect(ways.way('backup_code')).toBeVisible();
    await saveWideAndNarrow(page, 'login-mfa-other-ways', 'vi');
    await expectNoSeriousA11yViolations(page, 'login-mfa-other-ways-vi');
    await ways.way('backup_code').click();
    await ways.backupCode.fill(first[0]!);
    await ways.submit.click();
    await expect(page.getByText(tr('vi', 'login2Step.backupCodeInvalid'), { exact: true })).toBeVisible();
    await saveWideAndNarrow(page, 'login-mfa-backup-code', 'vi');
    await expectNoSeriousA11yViolations(page, 'login-mfa-backup-code-vi');
    const used = codes[0]!;
    await ways.backupCode.fill(used.toUpperCase());
    await ways.submit.click();
    await new DemoPage(page).expectSignedIn('Demo App', DEMO_APP.id, { name: account.name, email: account.username });

    // Another browser (no session), in English: the same code is refused, and the sign-in stays on the 2-step screen.
    await context.clearCookies();
    await passwordStepFromDemo(page, account, 'en');
    const again = new SecondStepOtherWays(page, 'en');
    await again.useBackupCode(used);
    await expect(page.getByText(tr('en', 'login2Step.backupCodeInvalid'), { exact: true })).toBeVisible();
    await expect(again.backupCode).toBeFocused();
    await expect(page).toHaveURL(/\/login\/mfa(\?|$)/);
    await saveWideAndNarrow(page, 'login-mfa-backup-code-used', 'en');
    await expectNoSeriousA11yViolations(page, 'login-mfa-backup-code-used-en');
  });
});
