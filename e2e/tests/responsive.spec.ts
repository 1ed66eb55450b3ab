import { expect, test, type Page } from '@playwright/test';
import { DEMO_APP, PARTNER_SHOP, openLoginFromDemo, reopenWithLocale } from '../pages/clients.ts';
import { saveScreenshot } from '../pages/screenshots.ts';

const WIDTH = 375;

test.describe.configure({ mode: 'parallel' });
test.use({ viewport: { width: WIDTH, height: 812 }, isMobile: true, hasTouch: true });

async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const width = await page.evaluate(() => ({
    scroll: document.scrollingElement?.scrollWidth ?? Number.POSITIVE_INFINITY,
    client: document.documentElement.clientWidth,
  }));
  expect(width.client).toBe(WIDTH);
  expect(width.scroll).toBeLessThanOrEqual(WIDTH);
}

test.describe(`Login screen ${WIDTH} px wide`, () => {
  test('Demo App, in Vietnamese and in English, fits without horizontal scrolling', async ({ page }) => {
    const { login } = await openLoginFromDemo(page, DEMO_APP);
    await expect(login.deviceLogin).toBeVisible();
    await expectNoHorizontalScroll(page);
    await expect(login.submit).toBeInViewport();
    await saveScreenshot(page, 'login-demo-app-narrow-vi');

    const english = await reopenWithLocale(login, 'en');
    await expect(english.createAccount).toBeVisible();
    await expectNoHorizontalScroll(page);
    await saveScreenshot(page, 'login-demo-app-narrow-en');
  });

  test('Partner Shop fits without horizontal scrolling', async ({ page }) => {
    await openLoginFromDemo(page, PARTNER_SHOP);
    await expectNoHorizontalScroll(page);
    await saveScreenshot(page, 'login-partner-shop-narrow-en');
  });
});
