import { expect, type Locator, type Page } from '@playwright/test';
import { FlowScreen } from './flow-pages.ts';
import { passgate } from './passgate-cli.ts';

export type SocialProvider = 'google' | 'facebook';

/** The person a fake provider vouches for behind a token. */
export interface SocialPerson {
  /** The provider's id of the person (Google's sub, Facebook's user id). */
  id: string;
  email: string;
  /** Google's email_verified (Facebook addresses always count as verified). */
  emailVerified?: boolean;
  name: string;
  picture?: string;
}

/** A client's Google and Facebook apps, as an operator sets them with the command line. */
export interface SocialApps {
  googleAppId: string;
  facebookAppId: string;
  facebookAppSecret: string;
}

export const SDK_URLS = { google: 'https://accounts.google.com/gsi/client', facebook: 'https://connect.facebook.net/**' } as const;

/** `client update` with the app ids and the Facebook secret ('' clears them). */
export async function setSocialApps(clientId: string, apps: SocialApps | null): Promise<void> {
  await passgate(['client', 'update', '--id', clientId, '--google-app-id', apps?.googleAppId ?? '', '--facebook-app-id', apps?.facebookAppId ?? '', '--facebook-app-secret', apps?.facebookAppSecret ?? '']);
}

/**
 * e2e/fake-social-provider.mjs, the stand-in for Google's and Facebook's token checks that the
 * server under test calls: a scenario registers a token there for a person and an app, and the
 * fake SDK hands exactly that token to the page.
 */
export async function issueToken(provider: SocialProvider, apps: SocialApps, person: SocialPerson): Promise<string> {
  const base = process.env.E2E_SOCIAL_URL;
  if (!base) throw new Error('E2E_SOCIAL_URL is not set: run the scenarios through playwright.config.ts');
  const appId = provider === 'google' ? apps.googleAppId : apps.facebookAppId;
  const response = await fetch(`${base}/fake/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ provider, appId, appSecret: provider === 'facebook' ? apps.facebookAppSecret : undefined, profile: person }),
  });
  expect(response.status, 'the fake provider registered the token').toBe(201);
  return ((await response.json()) as { token: string }).token;
}

/** What the page did with the fake SDKs: the app ids it initialised them with, the scopes it asked for. */
export interface SdkUse {
  google?: { clientId: string; scope: string; requests: number };
  facebook?: { init: { appId: string; version: string; cookie: boolean; xfbml: boolean }; scope: string; logins: number };
}

/**
 * Google Identity Services' token client and Facebook's SDK as the page loads them, served by a
 * route handler instead of the providers: the "popup" answers at once with the token given to
 * `hand()` (or, with null, as a popup the user closed). Every request for either script is noted.
 */
export class FakeSdks {
  readonly requested: string[] = [];
  private tokens: Partial<Record<SocialProvider, string | null>> = {};

  constructor(readonly page: Page) {}

  async install(): Promise<this> {
    await this.page.route(SDK_URLS.google, (route) => {
      this.requested.push(route.request().url());
      return route.fulfill({ contentType: 'text/javascript', body: this.googleScript() });
    });
    await this.page.route(SDK_URLS.facebook, (route) => {
      this.requested.push(route.request().url());
      return route.fulfill({ contentType: 'text/javascript', body: this.facebookScript() });
    });
    return this;
  }

  /** The token the provider's popup gives from now on (null: the user closes it). */
  hand(provider: SocialProvider, token: string | null): void {
    this.tokens[provider] = token;
  }

  async use(): Promise<SdkUse> {
    return this.page.evaluate(() => (window as unknown as { fakeSdkUse?: SdkUse }).fakeSdkUse ?? {});
  }

  // The token is read when the page loads the script, so each Login screen gets the current one.
  private googleScript(): string {
    return `(() => {
  const token = ${JSON.stringify(this.tokens.google ?? null)};
  const use = (window.fakeSdkUse = window.fakeSdkUse || {});
  window.google = { accounts: { oauth2: { initTokenClient(config) {
    use.google = { clientId: config.client_id, scope: config.scope, requests: 0 };
    return { requestAccessToken() {
      use.google.requests += 1;
      setTimeout(() => token
        ? config.callback({ access_token: token, token_type: 'Bearer', expires_in: 3599, scope: config.scope })
        : config.error_callback && config.error_callback({ type: 'popup_closed' }), 100);
    } };
  } } } };
})();`;
  }

  private facebookScript(): string {
    return `(() => {
  const token = ${JSON.stringify(this.tokens.facebook ?? null)};
  const use = (window.fakeSdkUse = window.fakeSdkUse || {});
  window.FB = {
    init(options) { use.facebook = { init: options, scope: '', logins: 0 }; },
    login(callback, options) {
      use.facebook.logins += 1;
      use.facebook.scope = options && options.scope;
      setTimeout(() => callback(token
        ? { status: 'connected', authResponse: { accessToken: token, expiresIn: 3599, userID: 'fake' } }
        : { status: 'unknown', authResponse: null }), 100);
    },
  };
})();`;
  }
}

/** /login/social-link: prove the existing account (its password, or a code sent to its e-mail) to link the sign-in. */
export class SocialLinkPage extends FlowScreen {  get password(): Locator {
    return this.page.getByRole('textbox', { name: this.t('fields.password'), exact: true });
  }
  get submit(): Locator {
    return this.page.getByRole('button', { name: this.t('social.link.submit'), exact: true });
  }
  sendCode(maskedEmail: string): Locator {
    return this.page.getByRole('button', { name: this.t('social.link.sendCode', { email: maskedEmail }), exact: true });
  }
  get code(): Locator {
    return this.page.getByRole('textbox', { name: this.t('social.link.code'), exact: true });
  }
  /** The screen for `provider`, naming the account's masked e-mail, with the password field ready. */
  async expectShown(provider: SocialProvider, clientName: string, maskedEmail: RegExp): Promise<string> {
    const providerName = this.t(`social.providers.${provider}`);
    await expect(this.page).toHaveURL(/\/login\/social-link\?(.*&)?challenge=/);
    await expect(this.heading).toHaveText(this.t('social.link.heading', { provider: providerName }));
    await expect(this.page).toHaveTitle(`${this.t('social.link.documentTitle')} · ${clientName}`);
    const [before, after] = this.t('social.link.intro', { provider: providerName }).split('{{email}}');
    const intro = this.page.getByText(before!, { exact: false });
    await expect(intro).toBeVisible();
    const text = (await intro.textContent()) ?? '';
    const email = text.slice(before!.length, text.length - after!.length);
    expect(email, 'the intro names the account by its masked e-mail').toMatch(maskedEmail);
    await expect(this.password).toBeFocused();
    await expect(this.sendCode(email)).toBeEnabled();
    return email;
  }
}
