import { LOCALE_COOKIE, type Locale } from '@passgate/contract';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { escapeHtml } from '../lib/html.ts';
import { parseCookieHeader } from '../lib/cookies.ts';
import { requestedLocale } from './requested-locale.ts';
import { localeFromAcceptLanguage } from '../messaging/templates/templates.ts';

type Problem = 'unknownClient' | 'redirectUri' | 'postLogoutRedirectUri' | 'invalidRequest' | 'other';

interface Texts {
  signInTitle: string;
  signOutTitle: string;
  problems: Record<Problem, string>;
  advice: string;
  details: string;
}

const TEXTS: Record<Locale, Texts> = {
  vi: {
    signInTitle: 'Yêu cầu đăng nhập bị từ chối',
    signOutTitle: 'Yêu cầu đăng xuất bị từ chối',
    problems: {
      unknownClient: 'Ứng dụng đã đưa bạn đến đây chưa được đăng ký với Passgate.',
      redirectUri: 'Địa chỉ mà ứng dụng muốn đưa bạn về sau khi đăng nhập chưa được đăng ký cho ứng dụng này, nên Passgate không đưa bạn đến đó.',
      postLogoutRedirectUri: 'Địa chỉ mà ứng dụng muốn đưa bạn về sau khi đăng xuất chưa được đăng ký cho ứng dụng này, nên Passgate không đưa bạn đến đó.',
      invalidRequest: 'Yêu cầu của ứng dụng thiếu thông tin hoặc có thông tin không hợp lệ.',
      other: 'Passgate không thể xử lý yêu cầu này.',
    },
    advice: 'Hãy quay lại ứng dụng và thử lại. Nếu lỗi vẫn xảy ra, hãy báo cho bên quản lý ứng dụng.',
    details: 'Chi tiết kỹ thuật dành cho nhà phát triển ứng dụng:',
  },
  en: {
    signInTitle: 'Sign-in request refused',
    signOutTitle: 'Sign-out request refused',
    problems: {
      unknownClient: 'The application that sent you here is not registered with Passgate.',
      redirectUri: 'The address the application wants to send you back to after signing in is not registered for this application, so Passgate will not send you there.',
      postLogoutRedirectUri: 'The address the application wants to send you back to after logging out is not registered for this application, so Passgate will not send you there.',
      invalidRequest: "The application's request is missing information or has information that is not valid.",
      other: 'Passgate could not handle this request.',
    },
    advice: 'Go back to the application and try again. If it keeps happening, tell the people who run the application.',
    details: "Technical details for the application's developers:",
  },
};

const STYLE =
  'body{margin:0;font-family:system-ui,sans-serif;background:#f5f5f5;color:#212121}' +
  'main{max-width:480px;margin:48px auto;padding:24px 32px;background:#fff;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.15)}' +
  'h1{font-size:1.4rem}small{display:block;margin-top:24px;color:#616161;overflow-wrap:anywhere}';

/**
 * The page shown when the provider itself refuses a request (an unknown client, a redirect URI that
 * is not registered…): in the visitor's language, plain words first and the provider's error only
 * as a detail for developers. Self-contained (no external resources), and never a redirect: the
 * addresses of a refused request are exactly the ones not to be trusted.
 */
export function renderProviderError(ctx: KoaContextWithOIDC, out: { error: string; error_description?: string }): void {
  const locale = pageLocale(ctx);
  const texts = TEXTS[locale];
  // The provider is mounted under /oidc and sees its own paths: /session/end, /session/end/confirm…
  const signOut = /^\/session\/end(\/|$)/.test(ctx.path);
  const title = signOut ? texts.signOutTitle : texts.signInTitle;
  const technical = out.error_description ? `${out.error}: ${out.error_description}` : out.error;
  ctx.type = 'html';
  ctx.body = `<!DOCTYPE html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Passgate: ${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(texts.problems[problemOf(out)])}</p><p>${escapeHtml(texts.advice)}</p>
<small>${escapeHtml(texts.details)} <code>${escapeHtml(technical)}</code></small></main></body></html>`;
}

function problemOf(out: { error: string; error_description?: string }): Problem {
  if (out.error === 'invalid_client') return 'unknownClient';
  if (out.error === 'invalid_redirect_uri') return 'redirectUri';
  if (out.error === 'invalid_request' && out.error_description?.includes('post_logout_redirect_uri')) return 'postLogoutRedirectUri';
  if (['invalid_request', 'invalid_scope', 'unsupported_response_type', 'invalid_request_object', 'request_not_supported'].includes(out.error)) return 'invalidRequest';
  return 'other';
}

/** The request's ui_locales or locale, else the language chosen with the switcher (its cookie), else the default. */
function pageLocale(ctx: KoaContextWithOIDC): Locale {
  // The provider may refuse a request before it has read its parameters (or one posted as a form).
  const params: Record<string, unknown> = { ...ctx.query, ...(ctx.oidc?.params ?? {}) };
  const cookie = parseCookieHeader(ctx.get('cookie')).get(LOCALE_COOKIE);
  // No client is known to have a language of its own here: the browser's comes before the default.
  return requestedLocale(params) ?? requestedLocale({ locale: cookie }) ?? localeFromAcceptLanguage(ctx.get('accept-language') || undefined);
}
