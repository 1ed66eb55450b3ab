import { expect, test } from '@playwright/test';
import { seriousA11yViolations } from '../pages/accessibility.ts';
import { signInToAccountArea } from '../pages/account-pages.ts';
import { createActiveAccount, newAccount, uniqueEmail } from '../pages/accounts.ts';
import { ACCOUNT } from '../pages/clients.ts';
import { ErrorPage } from '../pages/error-page.ts';
import { LoginPage } from '../pages/login-page.ts';
import { saveScreenshot, saveWideAndNarrow } from '../pages/screenshots.ts';
import { SessionsSection } from '../pages/sessions-pages.ts';

// Two browsers of one person: different cookie jars and user agents, so the list tells them apart.
const LAPTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const OTHER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

test.describe('Where you’re signed in', () => {
  test('signing out another session from the Security page sends that browser to sign in again', async ({ browser, request }) => {
    // Two browsers' sign-ins, two accessibility scans and five screenshots: more than the 60 s a
    // scenario gets by default on a busy two-core machine.
    test.slow();
    const account = newAccount(uniqueEmail('sessions'), 'Đỗ Thu Hà');
    await createActiveAccount(request, account);
    const laptopContext = await browser.newContext({ userAgent: LAPTOP, viewport: { width: 1280, height: 900 } });
    const otherContext = await browser.newContext({ userAgent: OTHER });
    try {
      const laptop = await laptopContext.newPage();
      const other = await otherContext.newPage();
      await signInToAccountArea(other, account);
      await signInToAccountArea(laptop, account);

      await laptop.goto('/user/security');
      const sessions = new SessionsSection(laptop, 'vi');
      await sessions.expectShown();
      await sessions.expectSessions(2);
      await expect(sessions.thisSession).toHaveCount(1);
      await expect(sessions.thisSession.getByRole('heading')).toHaveText('Chrome 131 · Windows 10');
      const otherItem = sessions.item('Chrome 130 · Linux');
      await expect(otherItem).toContainText('127.0.0.1');
      await expect(otherItem).toContainText(ACCOUNT.name);
      await sessions.section.scrollIntoViewIfNeeded();
      await saveWideAndNarrow(laptop, 'active-sessions', 'vi', { show: sessions.section });
      expect(await seriousA11yViolations(laptop)).toEqual([]);

      // The same list in English.
      const english = await sessions.switchTo('en');
      await expect(english.section).toBeVisible();
      await expect(english.thisSession).toContainText('This session');
      await saveWideAndNarrow(laptop, 'active-sessions', 'en', { show: english.section });

      // Sign the other browser out, after the confirmation.
      await english.signOutSession('Chrome 130 · Linux').click();
      await expect(english.confirmDialog).toContainText('Chrome 130 · Linux');
      await saveScreenshot(laptop, 'active-sessions-confirm-en', { show: english.confirmDialog });
      expect(await seriousA11yViolations(laptop)).toEqual([]);
      await english.confirm.click();
      await expect(english.signedOut('Chrome 130 · Linux')).toBeVisible();
      await english.expectSessions(1);
      await expect(english.signOutOthers).toHaveCount(0);
      await expect(english.section).toContainText('You are signed in only here.');

      // The other browser's next account-area request is refused, and it is sent to sign in again:
      // its provider session is gone too, so the new sign-in shows the Login screen.
      await other.goto('/user/security');
      const expired = new ErrorPage(other, 'vi');
      await expired.expectSessionExpired();
      await expired.relogin.click();
      await new LoginPage(other, 'vi', ACCOUNT.usernameLabel).expectShown(ACCOUNT.name);

      // The laptop is still signed in.
      await laptop.reload();
      await new SessionsSection(laptop, 'en').expectSessions(1);
    } finally {
      await laptopContext.close();
      await otherContext.close();
    }
  });
});
