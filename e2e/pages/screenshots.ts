import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';

/** e2e/test-results/screenshots: pictures of each screen a scenario visits, for a person to look at. */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../test-results/screenshots/', import.meta.url));

/** Saves the whole page as `<name>.png` once animations and fonts have settled. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SCREENSHOT_DIR}${name}.png`, fullPage: true, animations: 'disabled' });
}
