import { expect, test, type Browser, type Page } from '@playwright/test';
import { newAccount, uniqueEmail, type NewAccount } from '../pages/accounts.ts';
import { newAdmin, pickOption, signInToConsoleFirstTime } from '../pages/admin-pages.ts';
import { tr, type Locale } from '../pages/i18n.ts';
import { LoginPage } from '../pages/login-page.ts';
import { passgate } from '../pages/passgate-cli.ts';
import { TestRelyingParty } from '../pages/relying-party.ts';
import { saveWideAndNarrow } from '../pages/screenshots.ts';

/** Wrong passwords in a row that lock an account (LOGIN_LOCKOUT_AFTER_FAILURES, 5 by default: features/login-flow/lockout.ts). */
const LOCKOUT_AFTER = 5;

/**
 * A tenant of its own with its relying party (made with the command line) and two customers: the
 * tenant admin of this scenario administers it from the console, where they sign in as a user of
 * the console's tenant (demo).
 */
async function supportTenant(baseURL: string) {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  const fixture = {
    tenant: { id: `sen-vang-${suffix}`, name: 'Sen Vàng' },
    client: { id: `sen-vang-app-${suffix}`, name: 'Sen Vàng App', secret: `secret-${suffix}-0123456789abcdef` },
    redirectUri: `${baseURL}/rp/sen-vang/callback`,
    locked: newAccount(uniqueEmail('an-locked'), 'Nguyễn Văn An'),
    disabled: newAccount(uniqueEmail('binh-disabled'), 'Phạm Thị Bình'),
  };
  await passgate(['tenant', 'create', '--id', fixture.tenant.id, '--name', fixture.tenant.name]);
  await Promise.all([
    passgate(['client', 'create', '--id', fixture.client.id, '--tenant', fixture.tenant.id, '--name', fixture.client.name, '--redirect-uris', fixture.redirectUri, '--permissions', 'users:email:login,password:reset'], {
      PASSGATE_CLIENT_SECRET: fixture.client.secret,
    }),
    ...[fixture.locked, fixture.disabled].map((user) =>
      passgate(['user', 'create', '--tenant', fixture.tenant.id, '--email', user.username, '--name', user.name, '--status', 'active'], { PASSGATE_PASSWORD: user.password }),
    ),
  ]);
  return fixture;
}

/** A sign-in to the tenant's relying party, in a browser of its own, up to its Login screen. */
async function openLogin(browser: Browser, baseURL: string, rp: TestRelyingParty, clientName: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const signIn = await rp.start(page);
  const login = new LoginPage(page, 'vi', 'email');
  await login.expectShown(clientName);
  return { context, page, login, signIn };
}

/** Sends the Login form and waits for the login API's answer. */
async function submitPassword(page: Page, login: LoginPage, username: string, password: string): Promise<number> {
  const answer = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/users/login' && response.request().method() === 'POST');
  await login.signIn(username, password);
  return (await answer).status();
}

/** The console's users page: a search by the start of the e-mail address, then the user's own page. */
async function openUser(page: Page, locale: Locale, user: NewAccount): Promise<void> {
  await page.getByRole('navigation', { name: tr(locale, 'admin.navigation') }).getByRole('link', { name: tr(locale, 'admin.menu.users') }).click();
  await expect(page.getByRole('heading', { level: 1, name: tr(locale, 'admin.menu.users') })).toBeVisible();
  await page.getByRole('searchbox', { name: tr(locale, 'admin.users.search') }).fill(user.username.slice(0, user.username.indexOf('@') + 1));
  const users = page.getByRole('table', { name: tr(locale, 'admin.menu.users') });
  await expect(users.getByRole('row')).toHaveCount(2);
  await users.getByRole('link', { name: user.username }).click();
  await expect(page.getByRole('heading', { level: 1, name: user.username })).toBeVisible();
}

test('a tenant admin unlocks a locked user and disables another, who can no longer sign in; the audit log shows both with the admin as actor', async ({ page, request, browser, baseURL }) => {
  test.setTimeout(240_000);
  const { tenant, client, redirectUri, locked, disabled } = await supportTenant(baseURL!);
  const admin = await newAdmin(request, { tenantAdminOf: tenant.id }, 'Đỗ Minh Quân');
  const rp = await TestRelyingParty.discover(baseURL!, client.id, client.secret, redirectUri);

  // An signs in with wrong passwords until the account locks; then the right one is refused too.
  const an = await openLogin(browser, baseURL!, rp, client.name);
  for (let attempt = 1; attempt <= LOCKOUT_AFTER; attempt += 1) {
    expect(await submitPassword(an.page, an.login, locked.username, `Wrong-Passw0rd-${attempt}`)).toBe(401);
    await expect(an.login.alert).toHaveText(tr('vi', 'errors.1017'));
  }
  expect(await submitPassword(an.page, an.login, locked.username, locked.password)).toBe(403);
  await expect(an.login.alert).toHaveText(tr('vi', 'messages.lockedFor_other', { count: '1' }));
  await an.context.close();

  // Bình signs in: the account works.
  const binh = await openLogin(browser, baseURL!, rp, client.name);
  expect((await binh.signIn.finish(() => binh.login.signIn(disabled.username, disabled.password))).email).toBe(disabled.username);
  await binh.context.close();

  // The tenant admin opens the console: it works in their tenant only.
  await signInToConsoleFirstTime(page, admin);
  await page.goto('/admin/users');
  await expect(page.getByText(tr('vi', 'admin.users.subtitle', { tenant: tenant.name }))).toBeVisible();
  await expect(page.getByRole('banner').getByRole('combobox', { name: new RegExp(`^${tr('vi', 'admin.tenantPicker')}`) })).toHaveText(`${tenant.name} (${tenant.id})`);

  // An, found by the start of the e-mail address: locked after the wrong passwords.
  await openUser(page, 'vi', locked);
  await expect(page.getByText(tr('vi', 'admin.users.locked'), { exact: true })).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: new RegExp(`^${LOCKOUT_AFTER}$`) })).toBeVisible();
  await saveWideAndNarrow(page, 'admin-user-locked', 'vi');
  await page.getByRole('button', { name: tr('vi', 'admin.users.actions.unlock') }).click();
  const unlockDialog = page.getByRole('dialog', { name: tr('vi', 'admin.users.actions.unlock') });
  await expect(unlockDialog).toContainText(tr('vi', 'admin.users.confirm.unlock'));
  await saveWideAndNarrow(page, 'admin-user-unlock-confirm', 'vi', { show: unlockDialog });
  await unlockDialog.getByRole('button', { name: tr('vi', 'admin.users.actions.unlock') }).click();
  await expect(page.getByRole('status').filter({ hasText: tr('vi', 'admin.users.done.unlock') })).toBeVisible();
  await expect(page.getByText(tr('vi', 'admin.users.locked'), { exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: tr('vi', 'admin.users.actions.unlock') })).toHaveCount(0);

  // An signs in again, with the right password.
  const anAgain = await openLogin(browser, baseURL!, rp, client.name);
  const anClaims = await anAgain.signIn.finish(() => anAgain.login.signIn(locked.username, locked.password));
  expect(anClaims).toMatchObject({ aud: client.id, email: locked.username, name: locked.name });
  await anAgain.context.close();

  // Bình, disabled after a confirmation.
  await openUser(page, 'vi', disabled);
  await page.getByRole('button', { name: tr('vi', 'admin.users.actions.disable') }).click();
  const disableDialog = page.getByRole('dialog', { name: tr('vi', 'admin.users.actions.disable') });
  await expect(disableDialog).toContainText(tr('vi', 'admin.users.confirm.disable'));
  await saveWideAndNarrow(page, 'admin-user-disable-confirm', 'vi', { show: disableDialog });
  await disableDialog.getByRole('button', { name: tr('vi', 'admin.users.actions.disable') }).click();
  await expect(page.getByRole('status').filter({ hasText: tr('vi', 'admin.users.done.disable') })).toBeVisible();
  await expect(page.getByText(tr('vi', 'admin.users.status.disabled'), { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: tr('vi', 'admin.users.actions.enable') })).toBeVisible();

  // Bình's next sign-in is refused: the account is disabled.
  const binhAgain = await openLogin(browser, baseURL!, rp, client.name);
  expect(await submitPassword(binhAgain.page, binhAgain.login, disabled.username, disabled.password)).toBe(403);
  await expect(binhAgain.login.alert).toHaveText(tr('vi', 'errors.1012'));
  await expect(binhAgain.page).toHaveURL(/\/login\?/);
  await binhAgain.context.close();

  // The audit log, filtered by the tenant: both actions, the admin named as the actor.
  await page.getByRole('navigation', { name: tr('vi', 'admin.navigation') }).getByRole('link', { name: tr('vi', 'admin.menu.audit') }).click();
  const filters = page.getByRole('main');
  await pickOption(page, filters, tr('vi', 'admin.audit.filters.tenant_id'), tenant.name);
  await filters.getByRole('button', { name: tr('vi', 'admin.audit.apply') }).click();
  const auditLog = (locale: Locale) => page.getByRole('table', { name: tr(locale, 'admin.menu.audit') });
  const row = (type: string, locale: Locale = 'vi') => auditLog(locale).getByRole('row').filter({ has: page.getByRole('cell', { name: type, exact: true }) });
  const log = auditLog('vi');
  await expect(row('user.unlocked')).toHaveCount(1);
  await expect(row('user.unlocked')).toContainText(locked.username);
  await expect(row('user.unlocked')).toContainText(admin.username);
  await expect(row('user.disabled')).toHaveCount(1);
  await expect(row('user.disabled')).toContainText(disabled.username);
  await expect(row('user.disabled')).toContainText(admin.username);
  // Only the tenant's records: not the admin's own 2-step set-up, a record of the console's tenant.
  await expect(row('mfa.enabled')).toHaveCount(0);
  await expect(log.getByRole('columnheader', { name: tr('vi', 'admin.audit.columns.tenant') })).toHaveCount(0);

  // The screens, in both languages, for a person to look at.
  for (const locale of ['vi', 'en'] as const) {
    await page.goto(`/admin/users?locale=${locale}`);
    await expect(page.getByRole('table', { name: tr(locale, 'admin.menu.users') }).getByRole('link', { name: locked.username })).toBeVisible();
    await saveWideAndNarrow(page, 'admin-users', locale);
    await openUser(page, locale, disabled);
    await expect(page.getByText(tr(locale, 'admin.users.status.disabled'), { exact: true })).toBeVisible();
    await saveWideAndNarrow(page, 'admin-user', locale);
    await page.goto(`/admin/audit?locale=${locale}`);
    await expect(row('user.disabled', locale)).toContainText(admin.username);
    await saveWideAndNarrow(page, 'admin-audit-tenant', locale);
  }
});
