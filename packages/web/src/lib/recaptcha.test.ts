import { afterEach, describe, expect, it, vi } from 'vitest';
import { RECAPTCHA_SCRIPT_URL, RecaptchaError, loadRecaptcha, recaptchaSiteKey, recaptchaToken, resetRecaptcha, type Grecaptcha } from './recaptcha.ts';

function fakeGrecaptcha(token = 'token-1'): Grecaptcha & { execute: ReturnType<typeof vi.fn> } {
  return { ready: (callback: () => void) => callback(), execute: vi.fn(async () => token) };
}

const scripts = () => [...document.querySelectorAll<HTMLScriptElement>(`script[src^="${RECAPTCHA_SCRIPT_URL}"]`)];

afterEach(() => {
  for (const script of scripts()) script.remove();
  delete window.grecaptcha;
  resetRecaptcha();
});

describe('reCAPTCHA', () => {
  it('is used only when the client enables it with a site key', () => {
    expect(recaptchaSiteKey({ enabled: true, siteKey: 'site-1' })).toBe('site-1');
    expect(recaptchaSiteKey({ enabled: false, siteKey: 'site-1' })).toBeNull();
    expect(recaptchaSiteKey({ enabled: true })).toBeNull();
    expect(recaptchaSiteKey(null)).toBeNull();
  });

  it('gives no token and loads nothing for a client without it', async () => {
    expect(await recaptchaToken({ enabled: false }, 'register')).toBeUndefined();
    expect(scripts()).toEqual([]);
  });

  it("loads Google's v3 script for the site key once, then executes the action", async () => {
    const grecaptcha = fakeGrecaptcha('abc');
    const first = recaptchaToken({ enabled: true, siteKey: 'site key/1' }, 'register');
    const second = loadRecaptcha('site key/1');
    expect(scripts().map((s) => s.src)).toEqual([`${RECAPTCHA_SCRIPT_URL}?render=site%20key%2F1`]);
    window.grecaptcha = grecaptcha;
    scripts()[0]?.dispatchEvent(new Event('load'));
    expect(await first).toBe('abc');
    await second;
    expect(grecaptcha.execute).toHaveBeenCalledWith('site key/1', { action: 'register' });
    expect(await recaptchaToken({ enabled: true, siteKey: 'site key/1' }, 'password_reset')).toBe('abc');
    expect(grecaptcha.execute).toHaveBeenLastCalledWith('site key/1', { action: 'password_reset' });
    expect(scripts()).toHaveLength(1);
  });

  it('uses grecaptcha when it is already on the page', async () => {
    window.grecaptcha = fakeGrecaptcha('ready-token');
    expect(await recaptchaToken({ enabled: true, siteKey: 'site-1' }, 'activation_resend')).toBe('ready-token');
    expect(scripts()).toEqual([]);
  });

  it('fails with a RecaptchaError when the script cannot load, and tries again next time', async () => {
    const attempt = recaptchaToken({ enabled: true, siteKey: 'site-1' }, 'register');
    scripts()[0]?.dispatchEvent(new Event('error'));
    await expect(attempt).rejects.toBeInstanceOf(RecaptchaError);
    expect(scripts()).toEqual([]);
    void recaptchaToken({ enabled: true, siteKey: 'site-1' }, 'register').catch(() => {});
    expect(scripts()).toHaveLength(1);
  });

  it('fails with a RecaptchaError when execute gives no token', async () => {
    window.grecaptcha = { ready: (callback) => callback(), execute: async () => '' };
    await expect(recaptchaToken({ enabled: true, siteKey: 'site-1' }, 'register')).rejects.toBeInstanceOf(RecaptchaError);
  });
});
