import { expect, test, type Browser, type Page } from '@playwright/test';
import { signInToAccountArea } from '../pages/account-pages.ts';
import { createActiveAccount, newAccount, uniqueEmail } from '../pages/accounts.ts';
import { DEMO_APP, type SeededClient } from '../pages/clients.ts';
import { languageButtonName, tr } from '../pages/i18n.ts';
import { saveScreenshot } from '../pages/screenshots.ts';

const SHELL = '#passgate-shell';

/** The address a relying party's sign-in lands on, in `page`'s browser (the request is bound to it). */
async function signInAddress(page: Page, client: SeededClient, screen: '/login' | '/register'): Promise<string> {
  await page.goto(`/demo/login?client=${client.id}`);
  await expect(page).toHaveURL(/\/login\?challenge=/);
  return page.url().replace('/login?', `${screen}?`);
}

/** Where the logo is painted: by the server's shell in a browser that runs no script, by the SPA in one that does. */
async function logoBoxes(browser: Browser, client: SeededClient, screen: '/login' | '/register', width: number) {
  const viewport = { width, height: 800 };
  const still = await browser.newContext({ javaScriptEnabled: false, viewport });
  const stillPage = await still.newPage();
  await stillPage.goto(await signInAddress(stillPage, client, screen));
  const shellLogo = stillPage.locator(`${SHELL} .pg-shell-card img`);
  await expect(shellLogo).toBeVisible();
  // The seeded logo is a small picture of the build: it comes in the page, painted with its first frame.
  await expect(shellLogo).toHaveAttribute('src', /^data:image\/svg\+xml;base64,/);
  await expect(stillPage.locator(`${SHELL} noscript`)).toHaveCount(1);
  await saveScreenshot(stillPage, `sign-in-shell-${client.id}${screen.replace('/', '-')}-${width}`);
  const shellBox = await shellLogo.boundingBox();
  await still.close();

  const live = await browser.newContext({ viewport });
  const livePage = await live.newPage();
  await livePage.goto(await signInAddress(livePage, client, screen));
  await expect(livePage.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(livePage.locator(SHELL)).toHaveCount(0);
  const screenBox = await livePage.getByRole('img', { name: new RegExp(client.name) }).boundingBox();
  await live.close();
  return { shellBox, screenBox };
}

for (const width of [375, 1280]) {
  test(`before its scripts run, /login paints the client's frame and logo where the screen then shows it (${width} px)`, async ({ browser }) => {
    const { shellBox, screenBox } = await logoBoxes(browser, DEMO_APP, '/login', width);
    expect(shellBox).not.toBeNull();
    for (const key of ['x', 'y', 'width', 'height'] as const) expect(Math.abs(shellBox![key] - screenBox![key])).toBeLessThanOrEqual(1);
  });
}

test('/register paints its shell with the logo where the registration screen shows it', async ({ browser }) => {
  const { shellBox, screenBox } = await logoBoxes(browser, DEMO_APP, '/register', 375);
  for (const key of ['x', 'y', 'width', 'height'] as const) expect(Math.abs(shellBox![key] - screenBox![key])).toBeLessThanOrEqual(1);
});

test('a page without a sign-in request of this browser has no shell', async ({ page }) => {
  await page.goto('/login?challenge=not-this-browsers&client_id=demo-app');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await page.locator(SHELL).count()).toBe(0);
  const html = await (await page.request.get('/login?challenge=not-this-browsers&client_id=demo-app')).text();
  expect(html).not.toContain('id="passgate-shell"');
});

for (const width of [375, 1280]) {
  test(`before its scripts run, an account page paints its header bar with the app's name where the page then shows it (${width} px)`, async ({ browser }) => {
    const viewport = { width, height: 800 };
    const still = await browser.newContext({ javaScriptEnabled: false, viewport });
    const stillPage = await still.newPage();
    await stillPage.goto('/user/profile');
    const shellName = stillPage.locator(`${SHELL} .pg-account-name`);
    await expect(shellName).toHaveText('Passgate');
    await saveScreenshot(stillPage, `account-shell-${width}`);
    const shellBox = await shellName.boundingBox();
    await still.close();

    const live = await browser.newContext({ viewport });
    const page = await live.newPage();
    const account = newAccount(uniqueEmail('account-shell'), 'Lê Minh Anh');
    await createActiveAccount(page.request, account);
    await signInToAccountArea(page, account);
    // A fresh load of an account page: the shell goes once the page's own screen is in place.
    await page.goto('/user/dashboard');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator(SHELL)).toHaveCount(0);
    const screenBox = await page.getByRole('banner').getByRole('link', { name: 'Passgate', exact: true }).boundingBox();
    await live.close();
    // Where the page is wide enough for the greeting beside it, the bar is exactly as high; on a
    // phone the greeting takes a line of its own under the bar and the name moves up a little.
    for (const key of ['x', 'width', 'height'] as const) expect(Math.abs(shellBox![key] - screenBox![key])).toBeLessThanOrEqual(1);
    expect(Math.abs(shellBox!.y - screenBox!.y)).toBeLessThanOrEqual(2);
  });
}

/** The dashboard as its HTML paints it before any script runs, in a page of `context` (its cookies, its language choice). */
async function dashboardShell(page: Page) {
  // The scripts never arrive: what a phone shows while it fetches and runs them.
  await page.route('**/assets/*.js', (route) => route.abort());
  await page.goto('/user/dashboard');
  const shell = page.locator(SHELL);
  await expect(shell.locator('.pg-account-h1')).toBeVisible();
  return { heading: shell.locator('.pg-account-h1'), description: shell.locator('.pg-account-description') };
}

for (const width of [375, 1280]) {
  test(`before its scripts run, the dashboard paints its heading and description where the page then shows them, in the language chosen (${width} px)`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    const account = newAccount(uniqueEmail('dashboard-shell'), 'Lê Minh Anh');
    await createActiveAccount(page.request, account);
    await signInToAccountArea(page, account);

    // The page's own screen while the profile is on its way: the moment the shell hands over to it.
    await page.route('**/api/v1/me', () => undefined);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: tr('vi', 'account.dashboard.heading') })).toBeVisible();
    await expect(page.locator(SHELL)).toHaveCount(0);
    const screenHeading = await page.getByRole('heading', { level: 1 }).boundingBox();
    const screenDescription = await page.getByRole('main').getByText(tr('vi', 'account.dashboard.description'), { exact: true }).boundingBox();

    const still = await dashboardShell(await context.newPage());
    await expect(still.heading).toHaveText(tr('vi', 'account.dashboard.heading'));
    await expect(still.description).toHaveText(tr('vi', 'account.dashboard.description'));
    await saveScreenshot(still.heading.page(), `dashboard-shell-vi-${width}`);
    for (const [shell, screen] of [
      [await still.heading.boundingBox(), screenHeading],
      [await still.description.boundingBox(), screenDescription],
    ] as const) {
      for (const key of ['x', 'y', 'width', 'height'] as const) expect(Math.abs(shell![key] - screen![key])).toBeLessThanOrEqual(1);
    }

    // English chosen with the switcher: the next page's HTML is English before any script runs.
    await page.unroute('**/api/v1/me');
    await page.reload();
    await page.getByRole('banner').getByRole('button', { name: languageButtonName('en'), exact: true }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    const english = await dashboardShell(await context.newPage());
    await expect(english.heading).toHaveText(tr('en', 'account.dashboard.heading'));
    await expect(english.description).toHaveText(tr('en', 'account.dashboard.description'));
    await expect(english.heading.page().locator('html')).toHaveAttribute('lang', 'en');
    await saveScreenshot(english.heading.page(), `dashboard-shell-en-${width}`);
    await context.close();
  });
}
