import { expect, test, type Locator } from '@playwright/test';
import { newAccount, uniqueEmail } from '../pages/accounts.ts';
import { adminApiGet, newAdmin, pickOption, previewOf, signInToConsoleFirstTime } from '../pages/admin-pages.ts';
import { tr } from '../pages/i18n.ts';
import { LoginPage } from '../pages/login-page.ts';
import { passgate } from '../pages/passgate-cli.ts';
import { TestRelyingParty } from '../pages/relying-party.ts';
import { saveWideAndNarrow } from '../pages/screenshots.ts';

/** The background colour of a themed screen: that of its frame, the header's parent (PublicPage). */
function backgroundOf(header: Locator): Promise<string> {
  return header.locator('xpath=..').evaluate((element) => getComputedStyle(element).backgroundColor);
}

/** What is drawn over it: without a picture of the client's own, the default one under a veil of that colour. */
function backgroundImageOf(header: Locator): Promise<string> {
  return header.locator('xpath=..').evaluate((element) => getComputedStyle(element).backgroundImage);
}

/** The theme the operator gives the new client, and how the browser computes its colours. */
const THEME = {
  buttonColor: '#B71C1C',
  buttonRgb: 'rgb(183, 28, 28)',
  backgroundColor: '#FFF3E0',
  backgroundRgb: 'rgb(255, 243, 224)',
  title: 'Hoa Sen Shop',
  logoPath: '/themes/partner-shop-logo.svg',
  hyperlink: 'https://shop.example/help',
  hyperlinkedText: 'Trợ giúp',
} as const;

test.describe('admin console', () => {
  test('an operator signs in with 2-step, creates a tenant and a client in it, themes it with the live preview, and the client\'s users sign in on that theme', async ({ page, request, browser, baseURL }) => {
    test.setTimeout(240_000);
    const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
    const tenantId = `hoa-sen-${suffix}`;
    const clientId = `shop-${suffix}`;
    const clientName = 'Cửa hàng Hoa Sen';
    // The relying party played by this scenario (/demo knows only the seeded clients' secrets).
    const redirectUri = `${baseURL}/rp/hoa-sen/callback`;
    const operator = await newAdmin(request, { operator: true });

    // /admin: Passgate's own Login screen for the admin-console client, then 2-step set-up first.
    await signInToConsoleFirstTime(page, operator, 'admin-two-step-required');

    // Back to the console: it opens now.
    await page.goto('/admin/clients');
    await expect(page.getByRole('heading', { level: 1, name: tr('vi', 'admin.menu.clients') })).toBeVisible();
    // Other scenarios running beside this one add tenants: pick the seeded one by name.
    await pickOption(page, page.getByRole('banner'), tr('vi', 'admin.tenantPicker'), /\(demo\)$/);
    await expect(page.getByRole('link', { name: 'Demo App' })).toBeVisible();
    await saveWideAndNarrow(page, 'admin-clients', 'vi');

    // A new tenant, made in the console.
    await page.getByRole('navigation', { name: tr('vi', 'admin.navigation') }).getByRole('link', { name: tr('vi', 'admin.menu.tenants') }).click();
    await page.getByRole('link', { name: tr('vi', 'admin.tenants.new') }).click();
    await expect(page.getByRole('heading', { level: 1, name: tr('vi', 'admin.tenants.new') })).toBeVisible();
    await page.getByRole('textbox', { name: tr('vi', 'admin.tenants.fields.id'), exact: true }).fill(tenantId);
    await page.getByRole('textbox', { name: tr('vi', 'admin.tenants.fields.name'), exact: true }).fill('Hoa Sen');
    await saveWideAndNarrow(page, 'admin-tenant-new', 'vi');
    await page.getByRole('button', { name: tr('vi', 'admin.tenants.create') }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/tenants/${tenantId}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Hoa Sen' })).toBeVisible();
    await expect(page.getByText(tr('vi', 'admin.tenants.idLine', { id: tenantId }))).toBeVisible();

    // The console now works in it: its clients (none yet), and a new one.
    await pickOption(page, page.getByRole('banner'), tr('vi', 'admin.tenantPicker'), `Hoa Sen (${tenantId})`);
    await page.getByRole('navigation', { name: tr('vi', 'admin.navigation') }).getByRole('link', { name: tr('vi', 'admin.menu.clients') }).click();
    await expect(page.getByText(tr('vi', 'admin.clients.subtitle', { tenant: 'Hoa Sen' }))).toBeVisible();
    await page.getByRole('link', { name: tr('vi', 'admin.clients.new') }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/tenants/${tenantId}/clients/new$`));
    await page.getByRole('textbox', { name: tr('vi', 'admin.clients.fields.id'), exact: true }).fill(clientId);
    await page.getByRole('textbox', { name: tr('vi', 'admin.clients.fields.name'), exact: true }).fill(clientName);
    await page.getByRole('textbox', { name: tr('vi', 'admin.clients.fields.redirectUris'), exact: true }).fill(redirectUri);
    await page.getByRole('button', { name: tr('vi', 'admin.clients.create') }).click();

    // Its secret is shown once: the relying party keeps it.
    const secretDialog = page.getByRole('dialog', { name: tr('vi', 'admin.clients.secretTitle') });
    await expect(secretDialog).toBeVisible();
    await expect(secretDialog.getByTestId('client-secret')).toHaveText(/^\S{20,}$/);
    const secret = (await secretDialog.getByTestId('client-secret').textContent())!;
    await saveWideAndNarrow(page, 'admin-client-secret', 'vi', { show: secretDialog });
    await secretDialog.getByRole('button', { name: tr('vi', 'admin.clients.secretDone') }).click();

    // Its page, with the live preview of its Login screen.
    await expect(page).toHaveURL(new RegExp(`/admin/tenants/${tenantId}/clients/${clientId}$`));
    await expect(page.getByRole('heading', { level: 1, name: clientName })).toBeVisible();
    const preview = previewOf(page, clientName, 'vi');
    const submit = preview.getByRole('button', { name: tr('vi', 'login.submit'), exact: true });
    await expect(preview.getByRole('heading', { level: 1 })).toHaveText(tr('vi', 'login.heading'));
    await expect(preview.getByText(tr('vi', 'login.subheading', { client: clientName }))).toBeVisible();
    const before = { button: await submit.evaluate((element) => getComputedStyle(element).backgroundColor), background: await backgroundOf(preview.locator('header')) };
    await expect(preview.getByRole('img', { name: tr('vi', 'login.logoAlt', { client: clientName }) })).toHaveCount(0);

    // The theme, changing the preview as it is typed.
    await page.getByRole('textbox', { name: tr('vi', 'admin.clients.fields.buttonColor'), exact: true }).fill(THEME.buttonColor);
    await expect.poll(() => submit.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(THEME.buttonRgb);
    expect(before.button).not.toBe(THEME.buttonRgb);
    await page.getByRole('textbox', { name: tr('vi', 'admin.clients.fields.backgroundColor'), exact: true }).fill(THEME.backgroundColor);
    await expect.poll(() => backgroundOf(preview.locator('header'))).toBe(THEME.backgroundRgb);
    expect(before.background).not.toBe(THEME.backgroundRgb);
    await page.getByRole('textbox', { name: tr('vi', 'admin.clients.fields.logoUri'), exact: true }).fill(`${baseURL}${THEME.logoPath}`);
    await expect(preview.getByRole('img', { name: tr('vi', 'login.logoAlt', { client: clientName }) })).toHaveAttribute('src', `${baseURL}${THEME.logoPath}`);
    await page.getByRole('textbox', { name: tr('vi', 'admin.clients.fields.title'), exact: true }).fill(THEME.title);
    await page.getByRole('textbox', { name: tr('vi', 'admin.clients.fields.hyperlink'), exact: true }).fill(THEME.hyperlink);
    await page.getByRole('textbox', { name: tr('vi', 'admin.clients.fields.hyperlinkedText'), exact: true }).fill(THEME.hyperlinkedText);
    await expect(preview.getByRole('link', { name: THEME.hyperlinkedText })).toBeVisible();

    // The preview speaks English on its own, and takes the desktop width.
    await page.getByRole('group', { name: tr('vi', 'admin.preview.language') }).getByRole('button', { name: /^EN/ }).click();
    await expect(previewOf(page, clientName, 'vi').getByRole('heading', { level: 1 })).toHaveText(tr('en', 'login.heading'));
    await saveWideAndNarrow(page, 'admin-client-edit', 'vi');
    await page.getByRole('button', { name: tr('vi', 'admin.preview.desktop') }).click();
    await expect(page.locator('iframe').first()).toHaveCSS('width', '1280px');

    await page.getByRole('button', { name: tr('vi', 'admin.save') }).click();
    await expect(page.getByRole('status').filter({ hasText: tr('vi', 'admin.saved') })).toBeVisible();
    const saved = await adminApiGet<{ logoUri: string | null; theme: Record<string, string> }>(page, `/tenants/${tenantId}/clients/${clientId}`);
    expect(saved.logoUri).toBe(`${baseURL}${THEME.logoPath}`);
    expect(saved.theme).toMatchObject({ buttonColor: THEME.buttonColor, backgroundColor: THEME.backgroundColor, title: THEME.title, hyperlink: THEME.hyperlink, hyperlinkedText: THEME.hyperlinkedText });

    // A user of the new tenant (made with the command line) signs in to the client in a browser of
    // their own: the Login screen wears the saved theme, and the relying party gets their claims.
    const customer = newAccount(uniqueEmail('hoa-sen-customer'), 'Lê Thị Hoa');
    await passgate(['user', 'create', '--tenant', tenantId, '--email', customer.username, '--name', customer.name, '--status', 'active'], { PASSGATE_PASSWORD: customer.password });
    const visitor = await browser.newContext({ baseURL });
    try {
      const visitorPage = await visitor.newPage();
      const rp = await TestRelyingParty.discover(baseURL!, clientId, secret, redirectUri);
      const signIn = await rp.start(visitorPage);
      const login = new LoginPage(visitorPage, 'vi', 'emailOrPhoneNumber');
      await login.expectShown(clientName, THEME.title);
      await expect(login.submit).toHaveCSS('background-color', THEME.buttonRgb);
      expect(await backgroundOf(visitorPage.locator('header').first())).toBe(THEME.backgroundRgb);
      expect(await backgroundImageOf(visitorPage.locator('header').first())).toMatch(/^linear-gradient\(rgba\(255, 243, 224, 0\.8\), rgba\(255, 243, 224, 0\.8\)\), url\("[^"]*\/themes\/default-bg\.svg"\)$/);
      const logo = visitorPage.getByRole('img', { name: tr('vi', 'login.logoAlt', { client: clientName }) });
      await expect(logo).toHaveAttribute('src', `${baseURL}${THEME.logoPath}`);
      await expect.poll(() => logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
      await expect(visitorPage.getByRole('link', { name: THEME.hyperlinkedText })).toHaveAttribute('href', THEME.hyperlink);
      await saveWideAndNarrow(visitorPage, 'admin-made-client-login', 'vi');
      const claims = await signIn.finish(() => login.signIn(customer.username, customer.password));
      expect(claims.aud).toBe(clientId);
      expect(claims.email).toBe(customer.username);
      expect(claims.name).toBe(customer.name);
    } finally {
      await visitor.close();
    }

    // The other screens, in both languages, for a person to look at.
    for (const locale of ['vi', 'en'] as const) {
      await page.goto(`/admin/tenants/${tenantId}/clients/${clientId}?locale=${locale}`);
      await expect(previewOf(page, clientName, locale).getByRole('heading', { level: 1 })).toBeVisible();
      await saveWideAndNarrow(page, `admin-client-edit-${locale}`, locale);
      await page.goto(`/admin/tenants/demo?locale=${locale}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Demo' })).toBeVisible();
      await saveWideAndNarrow(page, 'admin-tenant-edit', locale);
      await page.goto(`/admin/tenants?locale=${locale}`);
      await page.getByRole('searchbox', { name: tr(locale, 'admin.tenants.search') }).fill(tenantId);
      await expect(page.getByRole('link', { name: 'Hoa Sen', exact: true })).toBeVisible();
      await saveWideAndNarrow(page, 'admin-tenants', locale);
      await page.goto(`/admin/audit?locale=${locale}`);
      await expect(page.getByRole('cell', { name: 'client.updated' }).first()).toBeVisible();
      await saveWideAndNarrow(page, 'admin-audit', locale);
      await page.goto(`/admin/dashboard?locale=${locale}`);
      await expect(page.getByRole('heading', { level: 2, name: tr(locale, 'admin.dashboard.byMethod') })).toBeVisible();
      await saveWideAndNarrow(page, 'admin-dashboard', locale);
    }
  });
});
