import { fileURLToPath } from 'node:url';
import { expect, type Locator, type Page } from '@playwright/test';

/** e2e/test-results/screenshots: pictures of each screen a scenario visits, for a person to look at. */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../test-results/screenshots/', import.meta.url));

/**
 * Pictures are taken only when asked for (`E2E_SCREENSHOTS=1`): they are for a person to look at,
 * and no check reads them. Some 500 full-page captures, each rastered and PNG-encoded by Chromium's
 * browser and GPU processes, made the scenarios about 15% slower on two cores (19.2 against 16.3 min).
 */
const TAKE_SCREENSHOTS = /^(1|true|yes)$/i.test(process.env.E2E_SCREENSHOTS ?? '');

/**
 * How to frame a picture: the whole page (the default), or, with `show`, the window as the user
 * sees it with that element scrolled into view (for an open dialog, or a form far down the page;
 * a full-page picture would draw the sticky header and the backdrop where the page was scrolled).
 */
export interface ShotOptions {
  show?: Locator;
}

/**
 * How long one picture may take. Once in a full run on a busy two-core machine, Chromium never
 * answered a full-page capture (of the admin dashboard, taken in a second on its own), and the
 * scenario waited out its whole timeout; a second try is taken instead.
 */
const SHOT_TIMEOUT_MS = 20_000;

/** Saves the page as `<name>.png` (with `E2E_SCREENSHOTS=1`) once animations and fonts have settled. */
export async function saveScreenshot(page: Page, name: string, options: ShotOptions = {}): Promise<void> {
  if (!TAKE_SCREENSHOTS) return;
  if (options.show) await options.show.scrollIntoViewIfNeeded();
  const shot = () => page.screenshot({ path: `${SCREENSHOT_DIR}${name}.png`, fullPage: !options.show, animations: 'disabled', timeout: SHOT_TIMEOUT_MS });
  await shot().catch(async (error: unknown) => {
    if (!(error instanceof Error) || error.name !== 'TimeoutError') throw error;
    await shot();
  });
}

export const NARROW = { width: 375, height: 812 } as const;

/**
 * Saves the screen as it is now at 1280 px (`<name>-wide-<locale>.png`) and at 375 px
 * (`<name>-narrow-<locale>.png`), with `E2E_SCREENSHOTS=1`, checking either way that the narrow
 * window needs no horizontal scrolling, then gives the window back its width.
 */
export async function saveWideAndNarrow(page: Page, name: string, locale: string, options: ShotOptions = {}): Promise<void> {
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  await page.setViewportSize({ width: 1280, height: size.height });
  await saveScreenshot(page, `${name}-wide-${locale}`, options);
  await page.setViewportSize(NARROW);
  const width = await page.evaluate(() => ({ scroll: document.scrollingElement?.scrollWidth ?? Number.POSITIVE_INFINITY, client: document.documentElement.clientWidth }));
  expect(width.client, `${name}: window width`).toBe(NARROW.width);
  expect(width.scroll, `${name}: no horizontal scrolling at ${NARROW.width} px`).toBeLessThanOrEqual(NARROW.width);
  await saveScreenshot(page, `${name}-narrow-${locale}`, options);
  await page.setViewportSize(size);
}
