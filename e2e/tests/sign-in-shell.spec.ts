import { expect, test, type Browser, type Page } from '@playwright/test';
import { DEMO_APP, type SeededClient } from '../pages/clients.ts';
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
  const shellLogo = stillPage.locator(`${SHELL} img[src$="-logo.svg"]`);
  await expect(shellLogo).toBeVisible();
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
