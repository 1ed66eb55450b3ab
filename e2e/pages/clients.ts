import type { Page } from '@playwright/test';
import { expect } from '@playwright/test';
import { DemoPage, type DemoClient } from './demo-page.ts';
import type { Locale } from './i18n.ts';
import { LoginPage, type UsernameLabel } from './login-page.ts';

/** What the demo seed gives each relying party (packages/server/src/seed/demo-seed.ts). */
export interface SeededClient {
  id: string;
  label: DemoClient;
  /** The client's name, shown in the header and the sub-heading. */
  name: string;
  title: string;
  defaultLocale: Locale;
  usernameLabel: UsernameLabel;
  /** theme.buttonColor as the browser computes it. */
  buttonColor: string;
}

export const DEMO_APP: SeededClient = {
  id: 'demo-app',
  label: 'Demo App',
  name: 'Demo App',
  title: 'Demo App',
  defaultLocale: 'vi',
  usernameLabel: 'emailOrPhoneNumber',
  buttonColor: 'rgb(21, 101, 192)',
};

export const PARTNER_SHOP: SeededClient = {
  id: 'partner-shop',
  label: 'Partner Shop',
  name: 'Partner Shop',
  title: 'Partner Shop',
  defaultLocale: 'en',
  usernameLabel: 'email',
  buttonColor: 'rgb(245, 124, 0)',
};

/** The account area's own client: no theme, every capability, no language of its own. */
export const ACCOUNT = { id: 'account', name: 'Passgate Account', usernameLabel: 'emailOrPhoneNumber' as UsernameLabel };

/**
 * Starts a sign-in on /demo as `client` and waits for Passgate's Login screen, expected in
 * `locale` (by default the client's own language).
 */
export async function openLoginFromDemo(page: Page, client: SeededClient, options: { locale?: Locale; choose?: '' | Locale } = {}): Promise<{ demo: DemoPage; login: LoginPage }> {
  const demo = new DemoPage(page);
  await demo.goto();
  await demo.signInTo(client.label, options.choose ?? '');
  const login = new LoginPage(page, options.locale ?? client.defaultLocale, client.usernameLabel);
  await login.expectShown(client.name, client.title);
  return { demo, login };
}

/** The same Login screen (same challenge) with `?locale=` set in its address. */
export async function reopenWithLocale(login: LoginPage, locale: Locale): Promise<LoginPage> {
  const url = new URL(login.page.url());
  url.searchParams.set('locale', locale);
  await login.page.goto(url.toString());
  const reopened = login.in(locale);
  await expect(reopened.submit).toBeVisible();
  return reopened;
}
