import { describe, expect, it } from 'vitest';
import { changeNotice, codeMessage, localeFromAcceptLanguage, messageLocale } from './templates.ts';

describe('code message templates', () => {
  it('speak the first language of Accept-Language when it is vi or en, else Vietnamese; a stored choice wins', () => {
    expect(localeFromAcceptLanguage('en-GB,en;q=0.9,vi;q=0.8')).toBe('en');
    expect(localeFromAcceptLanguage('vi-VN')).toBe('vi');
    expect(localeFromAcceptLanguage('fr-FR,en;q=0.5')).toBe('vi');
    expect(localeFromAcceptLanguage(undefined)).toBe('vi');
    expect(localeFromAcceptLanguage('')).toBe('vi');
    expect(messageLocale('en', 'vi')).toBe('en');
    expect(messageLocale(null, 'en')).toBe('en');
    expect(messageLocale('de', 'vi')).toBe('vi');
  });

  it('write recovery messages in Vietnamese and English, brand and name escaped in the HTML', () => {
    const input = { kind: 'recovery', brand: 'Shop & <Co>', name: null, code: '012345', minutes: 10 } as const;
    const vi = codeMessage({ ...input, locale: 'vi' });
    expect(vi.subject).toBe('[Shop & <Co>] Mã khôi phục mật khẩu');
    expect(vi.text).toContain('Xin chào,\n\nChúng tôi đã nhận được yêu cầu đặt lại mật khẩu cho tài khoản Shop & <Co> của bạn.');
    expect(vi.text).toContain('    012345\n');
    expect(vi.html).toContain('Shop &amp; &lt;Co&gt;');
    expect(vi.html).not.toContain('<Co>');
    expect(vi.html).toContain('>012345</span>');
    expect(vi.sms).toBe('Shop & <Co>: Mã khôi phục mật khẩu của bạn là 012345, hiệu lực 10 phút. Không chia sẻ mã này với bất kỳ ai.');

    const en = codeMessage({ ...input, locale: 'en', name: 'Ann' });
    expect(en.subject).toBe('[Shop & <Co>] Your password recovery code');
    expect(en.text).toMatch(/^Hello Ann,\n/);
    expect(en.text).toContain('your current password stays unchanged');
    expect(en.html).toContain('<html lang="en">');
  });

  it('write the e-mail and phone change codes, and the change notices to the old address (no code), in both languages, branded', () => {
    const code = codeMessage({ kind: 'email_change', locale: 'en', brand: 'Acme', name: 'Ann', code: '654321', minutes: 10 });
    expect(code.subject).toBe('[Acme] Confirm your new e-mail address');
    expect(code.text).toContain('    654321\n');
    expect(codeMessage({ kind: 'phone_change', locale: 'vi', brand: 'Acme', name: null, code: '654321', minutes: 10 }).sms).toBe(
      'Acme: Mã xác nhận số điện thoại của bạn là 654321, hiệu lực 10 phút. Không chia sẻ mã này với bất kỳ ai.',
    );

    for (const kind of ['email_changed', 'phone_changed'] as const) {
      for (const locale of ['vi', 'en'] as const) {
        const notice = changeNotice({ kind, locale, brand: 'Shop & <Co>', name: 'Bình' });
        expect(notice.subject.startsWith('[Shop & <Co>] ')).toBe(true);
        expect(notice.text).toMatch(locale === 'vi' ? /^Xin chào Bình,\n/ : /^Hello Bình,\n/);
        expect(notice.html).toContain(`<html lang="${locale}">`);
        expect(notice.html).toContain('Shop &amp; &lt;Co&gt;');
        expect(notice.html).not.toContain('<Co>');
        // No code anywhere (colours such as #111111 aside).
        for (const text of [notice.text, notice.html, notice.sms]) expect(text).not.toMatch(/(?<![#\d])\d{6}(?!\d)/);
      }
    }
    expect(changeNotice({ kind: 'email_changed', locale: 'vi', brand: 'Acme', name: null }).subject).toBe('[Acme] Địa chỉ email của tài khoản đã được thay đổi');
    expect(changeNotice({ kind: 'phone_changed', locale: 'en', brand: 'Acme', name: null }).sms).toContain('the phone number of your account was changed');
  });
});
