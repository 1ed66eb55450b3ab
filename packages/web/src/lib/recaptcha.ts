import type { RecaptchaConfiguration } from '@passgate/contract';

/**
 * Google reCAPTCHA v3 for the clients that have it configured (SPEC.md section 4): the script is
 * loaded on demand, only by the screens that send a token and only for such clients (the server
 * widens the page's content security policy for exactly those), and each protected call gets a
 * fresh token from `grecaptcha.execute(siteKey, {action})`.
 */

export interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

/** The actions reported to reCAPTCHA (letters and underscores only). */
export type RecaptchaAction = 'register' | 'activation_resend' | 'password_recover' | 'password_reset' | 'passwordless_send' | 'passwordless_resend' | 'passwordless_login';

export const RECAPTCHA_SCRIPT_URL = 'https://www.google.com/recaptcha/api.js';
const LOAD_TIMEOUT_MS = 15_000;

/** reCAPTCHA could not be loaded or gave no token (blocked, offline): the call cannot be made. */
export class RecaptchaError extends Error {
  override readonly name = 'RecaptchaError';
}

let loading: { siteKey: string; promise: Promise<Grecaptcha> } | null = null;

/** The site key when the client uses reCAPTCHA, else null. */
export function recaptchaSiteKey(config: RecaptchaConfiguration | null | undefined): string | null {
  return config?.enabled && config.siteKey ? config.siteKey : null;
}

function whenReady(grecaptcha: Grecaptcha): Promise<Grecaptcha> {
  return new Promise((resolve) => grecaptcha.ready(() => resolve(grecaptcha)));
}

function injectScript(siteKey: string): Promise<Grecaptcha> {
  return new Promise<Grecaptcha>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = `${RECAPTCHA_SCRIPT_URL}?render=${encodeURIComponent(siteKey)}`;
    script.async = true;
    const fail = (reason: string) => {
      clearTimeout(timer);
      script.remove();
      reject(new RecaptchaError(reason));
    };
    const timer = setTimeout(() => fail('reCAPTCHA took too long to load'), LOAD_TIMEOUT_MS);
    script.addEventListener('load', () => {
      clearTimeout(timer);
      if (window.grecaptcha) resolve(window.grecaptcha);
      else reject(new RecaptchaError('reCAPTCHA loaded without grecaptcha'));
    });
    script.addEventListener('error', () => fail('reCAPTCHA could not be loaded'));
    document.head.append(script);
  }).then(whenReady);
}

/** Loads Google's script for `siteKey` once (again after a failure); resolves when it is ready. */
export function loadRecaptcha(siteKey: string): Promise<Grecaptcha> {
  if (loading?.siteKey === siteKey) return loading.promise;
  const promise = window.grecaptcha ? whenReady(window.grecaptcha) : injectScript(siteKey);
  const entry = { siteKey, promise };
  loading = entry;
  promise.catch(() => {
    if (loading === entry) loading = null;
  });
  return promise;
}

/**
 * The token to send with a protected call: undefined when the client has no reCAPTCHA, else a
 * fresh token for `action`. Rejects with RecaptchaError when none can be had.
 */
export async function recaptchaToken(config: RecaptchaConfiguration | null | undefined, action: RecaptchaAction): Promise<string | undefined> {
  const siteKey = recaptchaSiteKey(config);
  if (!siteKey) return undefined;
  const grecaptcha = await loadRecaptcha(siteKey);
  let token: string;
  try {
    token = await grecaptcha.execute(siteKey, { action });
  } catch (error) {
    throw new RecaptchaError('reCAPTCHA gave no token', { cause: error });
  }
  if (!token) throw new RecaptchaError('reCAPTCHA gave an empty token');
  return token;
}

/** Forgets the loaded script (tests). */
export function resetRecaptcha(): void {
  loading = null;
}
