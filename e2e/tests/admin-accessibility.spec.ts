import { expect, test, type Page } from '@playwright/test';
import { checkScreen, chooseLanguage, expectNoSeriousA11yViolations, settle } from '../pages/accessibility.ts';
import { createActiveAccount, newAccount, uniqueEmail } from '../pages/accounts.ts';
import { ADMIN_CONSOLE, newAdmin, pickOption, previewOf, setUpAuthenticatorFromConsole } from '../pages/admin-pages.ts';
import { tr, type Locale } from '../pages/i18n.ts';
import { LoginPage } from '../pages/login-page.ts';
import { passgate } from '../pages/passgate-cli.ts';
import { NARROW, saveScreenshot } from '../pages/screenshots.ts';

/**
 * axe-core over every screen of the admin console (issue 15 for the screens of issue 17), in
 * Vietnamese and in English, each at 1280 px and at 375 px: no serious or critical WCAG 2.1 A/AA
 * violation, one `main`. One operator per language goes from screen to screen (a tenant, a client
 * and a user of its own, so the seeded ones stay as other scenarios expect them); with a dialog open
 * the dialog is judged.
 */
test.describe.configure({ mode: 'parallel' });

const LOCALES: readonly Locale[] = ['vi', 'en'];

/** The console's side navigation (the permanent column at 1280 px, the drawer behind the menu button at 375 px). */
function navigation(page: Page, locale: Locale) {
  return page.getByRole('navigation', { name: tr(locale, 'admin.navigation') });
}

async function openSection(page: Page, locale: Locale, section: 'dashboard' | 'tenants' | 'clients' | 'users' | 'audit'): Promise<void> {
  await navigation(page, locale).getByRole('link', { name: tr(locale, `admin.menu.${section}`) }).click();
  await expect(page.getByRole('heading', { level: 1, name: tr(locale, `admin.menu.${section}`) })).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveCount(0);
}

for (const locale of LOCALES) {
  test(`admin console in ${locale} at 1280 and 375 px has no serious accessibility violation`, async ({ page, request }) => {
    test.setTimeout(300_000);
    await chooseLanguage(page, locale);
    const t = (key: string, values?: Record<string, string>) => tr(locale, key, values);
    const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
    const tenant = { id: `a11y-${locale}-${suffix}`, name: `Sen Hồng ${locale}` };
    const client = { id: `a11y-shop-${suffix}`, name: 'Cửa hàng Sen Hồng' };
    const customer = newAccount(uniqueEmail(`a11y-admin-user-${locale}`), 'Vũ Thị Lan');
    const operator = await newAdmin(request, { operator: true });

    // /admin: the Login screen of the console's client; an account without a role is told so.
    const visitor = newAccount(uniqueEmail(`a11y-not-admin-${locale}`), 'Phan Văn Khách');
    await createActiveAccount(request, visitor);
    await page.goto('/admin');
    const login = new LoginPage(page, locale, 'emailOrPhoneNumber');
    await login.expectShown(ADMIN_CONSOLE.name);
    await checkScreen(page, 'admin-login', locale);
    await login.signIn(visitor.username, visitor.password);
    await expect(page.getByRole('heading', { level: 1, name: t('admin.notAdmin.heading') })).toBeVisible();
    await checkScreen(page, 'admin-not-admin', locale);
    await page.getByRole('button', { name: t('admin.signOut') }).click();
    await login.expectShown(ADMIN_CONSOLE.name);
    // Where a console whose session ended leads.
    await page.goto('/admin/signed-out');
    await expect(page.getByRole('heading', { level: 1, name: t('admin.signedOut.heading') })).toBeVisible();
    await checkScreen(page, 'admin-signed-out', locale);

    // The operator: 'set up 2-step verification first', in the account area, then 'sign in again with it', then the console.
    await page.goto('/admin');
    await login.expectShown(ADMIN_CONSOLE.name);
    await login.signIn(operator.username, operator.password);
    await expect(page.getByRole('heading', { level: 1, name: t('admin.twoStep.setUp.heading') })).toBeVisible();
    await checkScreen(page, 'admin-two-step-required', locale);
    await setUpAuthenticatorFromConsole(page, operator, undefined, locale, () => checkScreen(page, 'admin-sign-in-again', locale));

    // The dashboard and its charts.
    await page.goto('/admin/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: t('admin.menu.dashboard') })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: t('admin.dashboard.byMethod') })).toBeVisible();
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    await checkScreen(page, 'admin-dashboard', locale);

    // The navigation drawer on a phone.
    await page.setViewportSize(NARROW);
    await page.getByRole('button', { name: t('admin.openNavigation') }).click();
    await expect(navigation(page, locale)).toBeVisible();
    await settle(page);
    await saveScreenshot(page, `a11y-admin-navigation-375-${locale}`);
    await expectNoSeriousA11yViolations(page, `admin navigation drawer (${locale}, 375 px)`, { soft: true });
    await openSection(page, locale, 'tenants');
    await checkScreen(page, 'admin-tenants', locale);

    // A new tenant: the empty form, then the tenant's own page.
    await page.getByRole('link', { name: t('admin.tenants.new') }).click();
    await expect(page.getByRole('heading', { level: 1, name: t('admin.tenants.new') })).toBeVisible();
    await checkScreen(page, 'admin-tenant-new', locale);
    await page.getByRole('textbox', { name: t('admin.tenants.fields.id'), exact: true }).fill(tenant.id);
    await page.getByRole('textbox', { name: t('admin.tenants.fields.name'), exact: true }).fill(tenant.name);
    await page.getByRole('button', { name: t('admin.tenants.create') }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/tenants/${tenant.id}$`));
    await expect(page.getByRole('heading', { level: 1, name: tenant.name })).toBeVisible();
    await page.getByRole('button', { name: t('admin.save') }).click();
    await expect(page.getByRole('status').filter({ hasText: t('admin.saved') })).toBeVisible();
    await checkScreen(page, 'admin-tenant-edit', locale);

    // A new client in the new tenant: its form, its secret shown once.
    await openSection(page, locale, 'clients');
    await pickOption(page, page.getByRole('banner'), t('admin.tenantPicker'), `${tenant.name} (${tenant.id})`);
    await expect(page.getByText(t('admin.clients.subtitle', { tenant: tenant.name }))).toBeVisible();
    await page.getByRole('link', { name: t('admin.clients.new') }).click();
    await expect(page.getByRole('heading', { level: 1, name: t('admin.clients.new') })).toBeVisible();
    await page.getByRole('textbox', { name: t('admin.clients.fields.id'), exact: true }).fill(client.id);
    await page.getByRole('textbox', { name: t('admin.clients.fields.name'), exact: true }).fill(client.name);
    await page.getByRole('textbox', { name: t('admin.clients.fields.redirectUris'), exact: true }).fill('https://shop.example/callback');
    await checkScreen(page, 'admin-client-new', locale);
    await page.getByRole('button', { name: t('admin.clients.create') }).click();
    const secretDialog = page.getByRole('dialog', { name: t('admin.clients.secretTitle') });
    await expect(secretDialog.getByTestId('client-secret')).toHaveText(/^\S{20,}$/);
    await checkScreen(page, 'admin-client-secret-dialog', locale);
    await secretDialog.getByRole('button', { name: t('admin.clients.secretDone') }).click();
    await expect(secretDialog).toHaveCount(0);

    // The client's page with the live preview of its Login screen (an inert frame).
    await expect(page.getByRole('heading', { level: 1, name: client.name })).toBeVisible();
    await expect(previewOf(page, client.name, locale).getByRole('heading', { level: 1 })).toHaveText(t('login.heading'));
    await checkScreen(page, 'admin-client-edit', locale);
    // A colour that is not one: the field and the summary say so.
    await page.getByRole('textbox', { name: t('admin.clients.fields.buttonColor'), exact: true }).fill('đỏ');
    await page.getByRole('button', { name: t('admin.save') }).click();
    await expect(page.getByText(t('admin.problems.summary_one', { count: '1' }))).toBeVisible();
    await checkScreen(page, 'admin-client-edit-problem', locale);
    await page.getByRole('textbox', { name: t('admin.clients.fields.buttonColor'), exact: true }).fill('');
    // The confirmations: rotating the secret, deleting the client (typed).
    await page.getByRole('button', { name: t('admin.clients.rotateSecret') }).click();
    const rotate = page.getByRole('dialog', { name: t('admin.clients.rotateTitle') });
    await expect(rotate).toBeVisible();
    await checkScreen(page, 'admin-client-rotate-dialog', locale);
    await rotate.getByRole('button', { name: t('admin.cancel') }).click();
    await expect(rotate).toHaveCount(0);
    await page.getByRole('button', { name: t('admin.clients.delete') }).click();
    const remove = page.getByRole('dialog', { name: t('admin.clients.deleteTitle') });
    await expect(remove.getByRole('textbox')).toBeFocused();
    await checkScreen(page, 'admin-client-delete-dialog', locale);
    await remove.getByRole('button', { name: t('admin.cancel') }).click();
    await expect(remove).toHaveCount(0);
    // The tenant's clients: the new one listed.
    await openSection(page, locale, 'clients');
    await expect(page.getByRole('link', { name: client.name })).toBeVisible();
    await checkScreen(page, 'admin-clients', locale);

    // Users of the new tenant: the search, a user's page, the confirmation before disabling.
    await passgate(['user', 'create', '--tenant', tenant.id, '--email', customer.username, '--name', customer.name, '--status', 'active'], { PASSGATE_PASSWORD: customer.password });
    await openSection(page, locale, 'users');
    await expect(page.getByText(t('admin.users.subtitle', { tenant: tenant.name }))).toBeVisible();
    await page.getByRole('searchbox', { name: t('admin.users.search') }).fill(customer.username.slice(0, customer.username.indexOf('@') + 1));
    const users = page.getByRole('table', { name: t('admin.menu.users') });
    await expect(users.getByRole('row')).toHaveCount(2);
    await checkScreen(page, 'admin-users', locale);
    await users.getByRole('link', { name: customer.username }).click();
    await expect(page.getByRole('heading', { level: 1, name: customer.username })).toBeVisible();
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    await checkScreen(page, 'admin-user', locale);
    await page.getByRole('button', { name: t('admin.users.actions.disable') }).click();
    const disable = page.getByRole('dialog', { name: t('admin.users.actions.disable') });
    await expect(disable).toContainText(t('admin.users.confirm.disable'));
    await checkScreen(page, 'admin-user-disable-dialog', locale);
    await disable.getByRole('button', { name: t('admin.cancel') }).click();
    await expect(disable).toHaveCount(0);

    // The audit log: every tenant, with the console's own records.
    await openSection(page, locale, 'audit');
    await expect(page.getByRole('table', { name: t('admin.menu.audit') }).getByRole('cell', { name: 'client.created' }).first()).toBeVisible();
    await checkScreen(page, 'admin-audit', locale);
  });
}
