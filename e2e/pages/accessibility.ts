import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import axe from 'axe-core';
import type { Locale } from './i18n.ts';
import { NARROW, saveScreenshot } from './screenshots.ts';

/** The WCAG 2.1 A and AA rules: what the product promises (issue 15), not axe's best-practice advice. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** The impacts that fail a screen: a person using a screen reader or a keyboard is stuck or misled. */
const FAILING_IMPACTS = new Set(['serious', 'critical']);

export interface A11yViolation {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
  /** axe's account of each element's failure (for contrast: the colours and the ratio found), in the order of `targets`. */
  details: string[];
}

/**
 * What AxeBuilder evaluates in each frame before a check, once `loadAxe` has put axe-core there.
 * AxeBuilder otherwise sends axe-core's whole source (over half a megabyte) through the protocol and
 * evaluates it twice per check, even when the page has it from the check before: of a check's
 * 0.69 s on two cores, axe's own audit of a sign-in screen was 0.1 s. Loaded once per document,
 * the Vietnamese visitor walk (46 checks) took 38 s instead of 56 s.
 */
const AXE_ALREADY_LOADED = 'void 0';

/**
 * Puts axe-core into every frame of the page that does not have it yet: once per document, so the
 * screens of the single-page app reached without a page load share it. axe.run starts each run
 * afresh (its caches are cleared when a run ends), so a second check sees the page as it is then.
 */
async function loadAxe(page: Page): Promise<void> {
  for (const frame of page.frames()) {
    // A frame that went away meanwhile is not checked either; AxeBuilder skips it the same way.
    const loaded = await frame.evaluate(() => typeof (window as { axe?: unknown }).axe === 'object').catch(() => true);
    if (!loaded) await frame.evaluate(axe.source);
  }
}

/**
 * The serious and critical WCAG 2.1 A/AA violations axe-core finds on the page as it is now (an
 * open dialog included). 'label-content-name-mismatch' (WCAG 2.5.3, Label in Name) is still marked
 * experimental by axe, so it is switched on by name: a control whose spoken name does not contain
 * its visible label cannot be reached by voice control.
 */
export async function seriousA11yViolations(page: Page): Promise<A11yViolation[]> {
  // Legacy mode runs axe in the page itself. The default opens a blank page in the context for
  // each check to merge the frames' results, which was half of every check's time (1.4 to 2.0 s
  // a check on two cores, 0.6 to 0.7 s without); what it adds is cross-origin frames, which no
  // screen checked here has.
  // Judged mid-transition, a colour is neither the one before nor the one after: a language button
  // fading from filled to plain read 3.78:1 right after the switch.
  await settle(page);
  await loadAxe(page);
  const builder = new AxeBuilder({ page, axeSource: AXE_ALREADY_LOADED }).setLegacyMode(true);
  // While a modal dialog is open the page behind it is inert (the dialog hides its top-level
  // containers from assistive technology) and dimmed by the backdrop: what is read and used is the
  // dialog. Judged through the backdrop, the dimmed page fails contrast that it meets once shown.
  if ((await page.locator('body > [aria-hidden="true"]').count()) > 0 && (await page.getByRole('dialog').count()) > 0) {
    builder.exclude('body > [aria-hidden="true"]');
  }
  const results = await builder
    .withTags(WCAG_TAGS)
    // Only violations are read: axe then keeps one example of each passed and inapplicable rule
    // instead of every element, which made a screen's check take seconds.
    .options({ resultTypes: ['violations'], rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return results.violations
    .filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ''))
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? '',
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
      details: violation.nodes.map((node) => (node.failureSummary ?? '').replace(/\s+/g, ' ').trim()),
    }));
}

/** One line per violation and one per element it was found on, for a failure message a person can act on. */
export function describeViolations(violations: readonly A11yViolation[]): string {
  return violations.map((violation) => `${violation.impact} ${violation.rule}: ${violation.help}\n${violation.targets.map((target, index) => `    at ${target}: ${violation.details[index] ?? ''}`).join('\n')}`).join('\n');
}

/**
 * Fails (softly with `soft`, so one run lists every screen) when axe-core finds a serious or
 * critical violation, or when the page has not exactly one `main` landmark (axe files that under
 * best practice, but a screen-reader user jumps to the content by it on every screen).
 */
export async function expectNoSeriousA11yViolations(page: Page, screen = page.url(), options: { soft?: boolean } = {}): Promise<void> {
  const check = options.soft ? expect.soft : expect;
  const violations = await seriousA11yViolations(page);
  check(violations, `${screen}: serious or critical accessibility violations\n${describeViolations(violations)}`).toEqual([]);
  const mains = await page.locator('main, [role="main"]').count();
  check(mains, `${screen}: main landmarks`).toBe(1);
}

export const WIDE = { width: 1280, height: 800 } as const;

/** The chosen language, as the switcher stores it, before any script of the SPA runs. */
export async function chooseLanguage(page: Page, locale: Locale): Promise<void> {
  await page.addInitScript((chosen) => window.localStorage.setItem('passgate.locale', chosen), locale);
}

/**
 * Waits until no CSS transition or finite animation runs (a dialog fading in has no contrast to
 * measure yet). One that never ends, as a spinner's, is the screen as it stays.
 */
export async function settle(page: Page): Promise<void> {
  // A resize is answered in the next frames (ResizeObserver callbacks, then React's commit of what
  // they measured, as a scroll area turning into a focusable region): let two frames and a task pass.
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)))),
  );
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().endTime === Infinity),
  );
}

/**
 * The screen as it is now, at 1280 px then at 375 px: axe-core (soft, so one run lists every
 * screen) and a screenshot `a11y-<name>-<width>-<locale>.png` for each; the window is left at 1280 px.
 */
export async function checkScreen(page: Page, name: string, locale: Locale): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
  // An open dialog is pictured as the window shows it: a full-page picture of a page whose scrolling
  // the dialog locked draws the backdrop and the page in pieces.
  const dialog = page.getByRole('dialog');
  const shot = (await dialog.count()) > 0 ? { show: dialog.first() } : {};
  for (const viewport of [WIDE, NARROW]) {
    await page.setViewportSize(viewport);
    await settle(page);
    await saveScreenshot(page, `a11y-${name}-${viewport.width}-${locale}`, shot);
    await expectNoSeriousA11yViolations(page, `${name} (${locale}, ${viewport.width} px)`, { soft: true });
  }
  await page.setViewportSize(WIDE);
}
