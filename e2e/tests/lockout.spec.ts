import { expect, test, type Page } from '@playwright/test';
import { createActiveAccount, newAccount, uniqueEmail } from '../pages/accounts.ts';
import { DEMO_APP, openLoginFromDemo } from '../pages/clients.ts';
import { tr } from '../pages/i18n.ts';
import { saveScreenshot } from '../pages/screenshots.ts';

const LOCKOUT_AFTER = 5;

/** The answer of the next password sign-in the page sends. */
function nextLoginStatus(page: Page): Promise<number> {
  return page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/users/login').then((response) => response.status());
}

test("a stranger's wrong passwords lock the account, but not the owner's own browser", async ({ page, browser }) => {
  const owner = newAccount(uniqueEmail('lock-owner'), 'Chủ Tài Khoản');
  await createActiveAccount(page.request, owner);

  // The owner signs in once from this browser, which the account then knows.
  const first = await openLoginFromDemo(page, DEMO_APP);
  await first.login.signIn(owner.username, owner.password);
  await expect(first.demo.resultHeading).toHaveText(`Signed in to Demo App as ${owner.name}`);
  // Later: the provider's session is over, the browser's key stays (as after a day away).
  const key = (await page.context().cookies()).filter((cookie) => cookie.name === 'passgate_browser');
  expect(key).toHaveLength(1);
  expect(key[0]!.path).toBe('/');
  await page.context().clearCookies();
  await page.context().addCookies(key);

  // A stranger, in a browser of their own, guesses until the account locks.
  const strangers = await browser.newContext();
  const stranger = await openLoginFromDemo(await strangers.newPage(), DEMO_APP);
  for (let attempt = 1; attempt <= LOCKOUT_AFTER; attempt += 1) {
    const status = nextLoginStatus(stranger.login.page);
    await stranger.login.signIn(owner.username, `Wrong-Passw0rd-${attempt}`);
    expect(await status).toBe(401);
    await expect(stranger.login.alert).toHaveText(tr('vi', 'errors.1017'));
  }
  const refused = nextLoginStatus(stranger.login.page);
  await stranger.login.signIn(owner.username, owner.password);
  expect(await refused).toBe(403);
  await expect(stranger.login.alert).toHaveText(tr('vi', 'messages.lockedFor_other', { count: '1' }));

  // The owner, on the browser the account knows: signed in all the same.
  const again = await openLoginFromDemo(page, DEMO_APP);
  const ownerStatus = nextLoginStatus(page);
  await again.login.signIn(owner.username, owner.password);
  expect(await ownerStatus).toBe(200);
  await expect(again.demo.resultHeading).toHaveText(`Signed in to Demo App as ${owner.name}`);
  await saveScreenshot(page, 'lockout-owner-signed-in-vi');

  // And the stranger is still locked out, the right password included.
  const stillRefused = nextLoginStatus(stranger.login.page);
  await stranger.login.signIn(owner.username, owner.password);
  expect(await stillRefused).toBe(403);
  await saveScreenshot(stranger.login.page, 'lockout-stranger-refused-vi');
  await strangers.close();
});
