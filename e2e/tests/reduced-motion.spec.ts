import { expect, test } from '@playwright/test';
import { DEMO_APP, openLoginFromDemo } from '../pages/clients.ts';
import type { LoginPage } from '../pages/login-page.ts';

/**
 * A person whose system asks for less motion sees changes at once. The language switcher's buttons
 * change their fill when pressed: with motion a transition runs, with reduced motion none does.
 */
test.describe.configure({ mode: 'parallel' });

/** Presses the English button and answers the transitions and animations running right after, the spinner's aside. */
async function motionAfterSwitchingToEnglish(login: LoginPage): Promise<string[]> {
  const english = login.languageButton('en');
  await expect(english).toHaveAttribute('aria-pressed', 'false');
  return english.evaluate(
    (button) =>
      new Promise<string[]>((resolve) => {
        // Read right after the render that presses the button (before any frame could end a
        // transition), with the style computed then, so a transition the change starts exists already.
        new MutationObserver((_, observer) => {
          if (button.getAttribute('aria-pressed') !== 'true') return;
          observer.disconnect();
          document.querySelectorAll('[role="group"] button').forEach((element) => getComputedStyle(element).backgroundColor);
          resolve(
            document
              .getAnimations()
              .filter((animation) => animation.playState === 'running' && animation.effect?.getComputedTiming().endTime !== Infinity)
              .map((animation) => (animation instanceof CSSTransition ? `transition ${animation.transitionProperty}` : `animation ${(animation as CSSAnimation).animationName}`)),
          );
        }).observe(button, { attributes: true });
        (button as HTMLButtonElement).click();
      }),
  );
}

test('with motion, pressing a language button starts its transition', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  const { login } = await openLoginFromDemo(page, DEMO_APP);
  expect(await motionAfterSwitchingToEnglish(login)).toContain('transition background-color');
});

test('with reduced motion, nothing moves: the language buttons change at once', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const { login } = await openLoginFromDemo(page, DEMO_APP);
  expect(await motionAfterSwitchingToEnglish(login)).toEqual([]);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});
