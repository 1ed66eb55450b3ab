import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../i18n/i18n.ts';
import { PasswordStrengthMeter } from './PasswordStrengthMeter.tsx';

// The scorer stands in for zxcvbn: the length decides the score, and each load is counted.
const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock('./zxcvbn.ts', () => {
  loads.count += 1;
  return { scorePassword: (password: string) => Math.min(4, Math.floor(password.length / 3)) };
});

function Field() {
  const [password, setPassword] = useState('');
  const [active, setActive] = useState(false);
  return (
    <>
      <label htmlFor="pw">Password</label>
      <input id="pw" value={password} onFocus={() => setActive(true)} onChange={(event) => setPassword(event.target.value)} />
      <label htmlFor="other">Other</label>
      <input id="other" />
      <PasswordStrengthMeter id="strength" password={password} active={active} />
    </>
  );
}

describe('PasswordStrengthMeter', () => {
  it('loads zxcvbn only once the field is focused, then rates as the password is typed, with a word beside the bars', async () => {
    await changeLanguage('en');
    const user = userEvent.setup();
    render(<Field />);
    await user.click(screen.getByLabelText('Other'));
    expect(loads.count).toBe(0);
    expect(screen.queryByRole('meter')).toBeNull();

    await user.click(screen.getByLabelText('Password'));
    await vi.waitFor(() => expect(loads.count).toBe(1));
    // Nothing to rate yet.
    expect(screen.queryByRole('meter')).toBeNull();

    await user.keyboard('abc');
    const meter = await screen.findByRole('meter', { name: 'Password strength' });
    expect(meter).toHaveAttribute('aria-valuenow', '1');
    expect(meter).toHaveAttribute('aria-valuemin', '0');
    expect(meter).toHaveAttribute('aria-valuemax', '4');
    expect(meter).toHaveAttribute('aria-valuetext', 'Weak');
    expect(meter).toHaveTextContent('Password strength: Weak');

    await user.keyboard('def');
    expect(meter).toHaveAttribute('aria-valuetext', 'Fair');
    await user.keyboard('ghi');
    expect(meter).toHaveAttribute('aria-valuetext', 'Good');
    await user.keyboard('jkl');
    expect(meter).toHaveAttribute('aria-valuenow', '4');
    expect(meter).toHaveTextContent('Password strength: Strong');
    expect(loads.count).toBe(1);

    await user.clear(screen.getByLabelText('Password'));
    expect(screen.queryByRole('meter')).toBeNull();
  });

  it('speaks Vietnamese', async () => {
    await changeLanguage('vi');
    render(<PasswordStrengthMeter id="strength" password="abcdefghijkl" active />);
    const meter = await screen.findByRole('meter', { name: 'Độ mạnh mật khẩu' });
    expect(meter).toHaveAttribute('aria-valuetext', 'Mạnh');
    expect(meter).toHaveTextContent('Độ mạnh mật khẩu: Mạnh');
    await changeLanguage('en');
  });
});
