import { describe, expect, it } from 'vitest';
import { changeLanguage, currentLanguage, i18n } from './i18n.ts';

describe('changeLanguage', () => {
  it('lands on the language asked for last, even when an earlier one takes longer to load', async () => {
    // The setup loaded Vietnamese; English's strings are not loaded yet in this file, so they arrive last.
    expect(i18n.hasResourceBundle('en', 'translation')).toBe(false);
    const english = changeLanguage('en');
    const vietnamese = changeLanguage('vi');
    await Promise.all([english, vietnamese]);

    expect(currentLanguage()).toBe('vi');
    expect(i18n.t('common.save')).toBe('Lưu');
    expect(document.documentElement.lang).toBe('vi');

    // English itself still works once asked for last.
    await changeLanguage('en');
    expect(currentLanguage()).toBe('en');
    expect(i18n.t('common.save')).toBe('Save');
  });
});
