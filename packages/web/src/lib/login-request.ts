import type { LoginRequestInfo } from '@passgate/contract';
import { loginFlowApi } from '../api/login-flow.ts';
import { applyClientLanguage } from '../i18n/client-language.ts';
import { firstSupportedLocale } from '../i18n/language.ts';

/** The request-cache key of the sign-in request behind a login-flow screen. */
export const loginRequestKey = (challenge: string) => `login-request:${challenge}`;

/**
 * Reads the sign-in request and, before the screen shows, applies the client's language unless
 * the address or the user's stored choice already picked one: what the client asked for in this
 * sign-in (OIDC `ui_locales`), else its registered default.
 */
export async function loadLoginRequest(challenge: string, search: string, languageReady?: Promise<unknown>): Promise<LoginRequestInfo> {
  const info = await loginFlowApi.loginRequest(challenge, new URLSearchParams(search).get('authnChallenge'));
  return loginRequestFromPage(info, search, languageReady);
}

/** The same for a sign-in request that came with the page. */
export async function loginRequestFromPage(info: LoginRequestInfo, search: string, languageReady?: Promise<unknown>): Promise<LoginRequestInfo> {
  // Read at page load, the request may be known before i18next has its start language: the
  // client's language is applied after that, or the start language would override it.
  await languageReady?.catch(() => undefined);
  await applyClientLanguage(search, firstSupportedLocale(info.oidcContext.uiLocales), info.client.i18n.defaultLocale);
  return info;
}
