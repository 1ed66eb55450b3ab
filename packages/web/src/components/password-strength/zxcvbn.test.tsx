import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { changeLanguage } from '../../i18n/i18n.ts';
import { PasswordStrengthMeter } from './PasswordStrengthMeter.tsx';
import { scorePassword } from './zxcvbn.ts';

/** The real zxcvbn with its common and English dictionaries, not a stand-in. */
describe('password strength with the real zxcvbn', () => {
  it('rates common and dictionary passwords weak and a long unusual one strong', () => {
    expect(scorePassword('password123')).toBeLessThanOrEqual(1);
    expect(scorePassword('Passw0rd!')).toBeLessThanOrEqual(1);
    expect(scorePassword('sunshine')).toBe(0);
    expect(scorePassword('Harbour-lights-93-tacit-owl')).toBe(4);
    // The person's own name is a guessable word.
    expect(scorePassword('nguyenvana1990', ['nguyenvana'])).toBeLessThan(scorePassword('nguyenvana1990'));
  });

  it('drives the meter', async () => {
    await changeLanguage('en');
    const { rerender } = render(<PasswordStrengthMeter id="strength" password="password123" active />);
    const meter = await screen.findByRole('meter', { name: 'Password strength' });
    expect(meter).toHaveAttribute('aria-valuetext', 'Weak');
    rerender(<PasswordStrengthMeter id="strength" password="Harbour-lights-93-tacit-owl" active />);
    expect(meter).toHaveAttribute('aria-valuetext', 'Strong');
  });
});
