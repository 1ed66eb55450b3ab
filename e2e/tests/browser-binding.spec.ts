import { expect, test } from '@playwright/test';
import { DEMO_APP, openLoginFromDemo } from '../pages/clients.ts';
import { tr } from '../pages/i18n.ts';
import { DEMO_USER, LoginPage } from '../pages/login-page.ts';
import { saveScreenshot } from '../pages/screenshots.ts';

const REQUEST_EXPIRED = 1026;

/** The challenge of a /login?challenge=… address. */
const challengeOf = (url: string) => new URL(url).searchParams.get('challenge')!;

// DESIGN.md section 7: a challenge is bound to the browser that started the authorization request.
// Knowing the /login address (it can be sent to anyone: login CSRF) is not enough to finish it.
test('a /login address opened in another browser is refused, even with the right password; the browser that started it signs in', async ({ page, browser }) => {
  // Browser A starts Demo App's sign-in and holds the provider's interaction cookie.
  const { demo, login } = await openLoginFromDemo(page, DEMO_APP);
  const loginUrl = page.url();
  const challenge = challengeOf(loginUrl);

  // Browser B (no cookie of A) is sent the same address.
  const otherContext = await browser.newContext();
  try {
    const other = await otherContext.newPage();
    const readRequest = other.waitForResponse((response) => new URL(response.url()).pathname === `/api/v1/requests/login/${challenge}`);
    await other.goto(loginUrl);
    const refusedRead = await readRequest;
    expect(refusedRead.status()).toBe(400);
    expect((await refusedRead.json()).error).toMatchObject({ code: REQUEST_EXPIRED, field: 'challenge' });

    // B's screen: this sign-in is not B's to continue, no sign-in form, only the way to a sign-in of
    // B's own at the relying party (the client's id travels in the address; the client's language).
    const otherLogin = new LoginPage(other, 'vi', DEMO_APP.usernameLabel);
    await expect(other.getByRole('heading', { level: 1, name: tr('vi', 'requestGone.heading') })).toBeVisible();
    await expect(other.getByRole('link', { name: tr('vi', 'requestGone.back', { client: DEMO_APP.name }) })).toHaveAttribute('href', /\/demo\/login\?client=demo-app&locale=vi$/);
    await expect(other.getByRole('button', { name: tr('vi', 'common.retry'), exact: true })).toHaveCount(0);
    await expect(otherLogin.username).toHaveCount(0);
    await expect(otherLogin.password).toHaveCount(0);
    await saveScreenshot(other, 'login-other-browser-vi');

    // B posts the right credentials for A's challenge from its own cookie jar: 1026, no resume URL.
    const refusedLogin = await otherContext.request.post('/api/v1/users/login', {
      data: { challenge, username: DEMO_USER.email, password: DEMO_USER.password, client_id: DEMO_APP.id },
    });
    expect(refusedLogin.status()).toBe(400);
    const refusal = await refusedLogin.json();
    expect(refusal.error).toMatchObject({ code: REQUEST_EXPIRED, field: 'challenge' });
    expect(refusal).not.toHaveProperty('redirectTo');

    // B stays where it was: never at the relying party with A's sign-in.
    await expect(other).toHaveURL(loginUrl);
  } finally {
    await otherContext.close();
  }

  // A, unaffected by B's attempt, signs in with the same credentials and reaches /demo with the claims.
  await expect(page).toHaveURL(loginUrl);
  await login.signIn(DEMO_USER.email, DEMO_USER.password);
  await demo.expectSignedIn('Demo App', DEMO_APP.id, DEMO_USER);
});
