import { describe, expect, it } from 'vitest';
import { newSignInNotice, noticeTime, passwordChangedNotice } from './security-notices.ts';

describe('security notices', () => {
  it('give the time in Vietnam time (vi) or UTC (en), labelled, across a change of day', () => {
    const at = Date.UTC(2026, 11, 31, 18, 5);
    expect(noticeTime(at, 'vi')).toBe('01:05 ngày 01/01/2027 (giờ Việt Nam, GMT+7)');
    expect(noticeTime(at, 'en')).toBe('31 December 2026, 18:05 (UTC)');
  });

  it('tell of a new sign-in with the application, browser, IP and the Security page, HTML escaped, no unknowns left blank', () => {
    const input = { brand: 'Shop & <Co>', name: null, at: Date.UTC(2026, 0, 2, 3, 4), application: 'App <1>', browser: '', os: '', ip: '203.0.113.9', securityUrl: 'https://id.example/user/security' };
    const vi = newSignInNotice({ ...input, locale: 'vi' });
    expect(vi.subject).toBe('[Shop & <Co>] Đăng nhập mới vào tài khoản của bạn');
    expect(vi.text).toContain('Trình duyệt: không xác định\nĐịa chỉ IP: 203.0.113.9');
    expect(vi.text).toContain('Thời gian: 10:04 ngày 02/01/2026 (giờ Việt Nam, GMT+7)');
    expect(vi.html).toContain('App &lt;1&gt;');
    expect(vi.html).not.toContain('<Co>');
    const en = newSignInNotice({ ...input, locale: 'en', browser: 'Safari 17', os: 'macOS Sonoma' });
    expect(en.text).toContain('Browser: Safari 17 · macOS Sonoma');
    expect(en.sms).toBe("Shop & <Co>: new sign-in to App <1> from a new browser (Safari 17 · macOS Sonoma, IP 203.0.113.9) at 2 January 2026, 03:04 (UTC). If this wasn't you, change your password now: https://id.example/user/security");
  });

  it('tell of a password change in both languages', () => {
    const input = { brand: 'Demo', name: 'Ann', at: Date.UTC(2026, 5, 1, 0, 0) };
    expect(passwordChangedNotice({ ...input, locale: 'en' }).text).toMatch(/^Hello Ann,\n\nThe password of your Demo account was changed on 1 June 2026, 00:00 \(UTC\)\./);
    expect(passwordChangedNotice({ ...input, locale: 'vi' }).subject).toBe('[Demo] Mật khẩu của bạn đã được thay đổi');
  });
});
