import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { UserManager } from 'oidc-client-ts';
import { describe, expect, it, vi } from 'vitest';
import type { Profile } from '@passgate/contract';
import { apiError, json, stubFetch, type RecordedRequest } from '../../../test/fetch-stub.ts';
import { profile, signIn } from '../../../test/account.ts';
import { advanceClock, freezeClock } from '../../../test/clock.ts';
import { enterText } from '../../../test/enter-text.ts';
import { renderApp } from '../../../test/render.tsx';

type Routes = Parameters<typeof stubFetch>[0];
const posts = (requests: RecordedRequest[], path: string) => requests.filter((r) => r.method === 'POST' && r.path === path);
const QR = 'data:image/png;base64,iVBORw0KGgo=';

async function openSecurity(routes: Routes = {}, me: Partial<Profile> = {}, locale: 'en' | 'vi' = 'en') {
  signIn();
  const requests = stubFetch({ 'GET /api/v1/me': json(200, profile(me)), ...routes });
  await renderApp(`/user/security?locale=${locale}`);
  await screen.findByRole('heading', { level: 1, name: locale === 'en' ? 'Security' : 'Bảo mật' });
  await screen.findByText('••••••••');
  return { requests, user: userEvent.setup() };
}

/** The re-check dialog, password typed and submitted. */
async function recheck(user: ReturnType<typeof userEvent.setup>, password = 'Secret#1') {
  await user.click(await screen.findByRole('button', { name: /^2-Step Verification (ON|OFF)$/ }));
  const dialog = await screen.findByRole('dialog', { name: 'Verify it is you' });
  await enterText(user, within(dialog).getByLabelText(/Password/), `${password}{Enter}`);
  return dialog;
}

async function openMfaPage(routes: Routes = {}, me: Partial<Profile> = {}) {
  const opened = await openSecurity({ 'POST /api/v1/me/mfa/config': json(200, { enabledMfa: true, authenticatorType: 'email' }), ...routes }, { enableMfa: true, authenticatorType: 'email', ...me });
  await recheck(opened.user);
  await screen.findByRole('heading', { level: 1, name: '2-Step Verification' });
  return opened;
}

describe('the Security page', () => {
  it('lists the recent security events from the audit table', async () => {
    await openSecurity({
      'GET /api/v1/me/security-events': json(200, {
        items: [
          { type: 'login.failure', createdAt: '2026-11-20T08:15:00.000Z', ip: '198.51.100.7', userAgent: null },
          { type: 'mfa.enabled', createdAt: '2026-11-19T10:00:00.000Z', ip: null, userAgent: null },
        ],
      }),
    });
    expect(await screen.findByRole('heading', { name: 'Recent security events' })).toBeInTheDocument();
    expect(screen.getByText('Failed sign-in attempt')).toBeInTheDocument();
    expect(screen.getByText(/198\.51\.100\.7/)).toBeInTheDocument();
    expect(screen.getByText('2-Step Verification turned on')).toBeInTheDocument();
    // One format for every moment on the page, the sessions' one: the month by name, and the time.
    expect(screen.getByText(/^20 Nov 2026, \d\d:\d\d · 198\.51\.100\.7$/)).toBeInTheDocument();
    expect(screen.getByText(/^19 Nov 2026, \d\d:\d\d$/)).toBeInTheDocument();
  });

  it('shows the issues, the masked password, 2-step OFF and the registration method', async () => {
    await openSecurity({}, { phoneNumber: '0912345678', phoneNumberVerified: false });
    expect(screen.getByText('2-Step Verification is off')).toBeInTheDocument();
    expect(screen.getByText('Your phone number is not verified')).toBeInTheDocument();
    expect(screen.getByText('••••••••')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '2-Step Verification OFF' })).toBeInTheDocument();
    expect(screen.getByText('Registration method')).toBeInTheDocument();
  });

  it.each([
    ['en', '2-Step Verification is not available for accounts registered this way', 'Google'],
    ['vi', 'Phương thức đăng ký không hỗ trợ xác minh 2 bước', 'Google'],
  ] as const)('tells an account not registered by password that 2-step is not supported (%s)', async (locale, text, method) => {
    await openSecurity({}, { registrationMethod: 'google' }, locale);
    expect(screen.getByText(text)).toBeInTheDocument();
    expect(screen.getByText(method)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^(2-Step Verification|Xác minh 2 bước) / })).toBeNull();
  });

  it('is linked from the dashboard', async () => {
    signIn();
    stubFetch({ 'GET /api/v1/me': json(200, profile()) });
    await renderApp('/user/dashboard?locale=en');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: /Security/ }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Security' })).toBeInTheDocument();
  });
});

describe('the password re-check dialog', () => {
  it('needs a password, and says a wrong one beside the field, keeping what was typed', async () => {
    const { user, requests } = await openSecurity({ 'POST /api/v1/me/mfa/config': apiError(400, 1017, 'Username or password not correct', 'password') }, {}, 'vi');
    await user.click(screen.getByRole('button', { name: 'Xác minh 2 bước TẮT' }));
    const dialog = await screen.findByRole('dialog', { name: 'Xác minh danh tính của bạn' });
    await user.click(within(dialog).getByRole('button', { name: 'Tiếp theo' }));
    expect(within(dialog).getByText('Vui lòng nhập mật khẩu')).toBeInTheDocument();
    expect(posts(requests, '/api/v1/me/mfa/config')).toHaveLength(0);

    const field = within(dialog).getByLabelText(/Mật khẩu/);
    await enterText(user, field, 'wrong{Enter}');
    await waitFor(() => expect(within(dialog).getByText('Mật khẩu không đúng')).toBeInTheDocument());
    expect(posts(requests, '/api/v1/me/mfa/config')[0]?.body).toEqual({ password: 'wrong' });
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field.getAttribute('aria-describedby')).toBe(within(dialog).getByText('Mật khẩu không đúng').id);
    expect(field).toHaveValue('wrong');
    expect(field).toHaveFocus();
    // Said once, beside the field: no banner, no panel.
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(within(dialog).queryByText('Rất tiếc, đã có lỗi xảy ra')).toBeNull();
    // Typing again clears it.
    await user.type(field, '1');
    expect(field).toHaveAttribute('aria-invalid', 'false');
  });

  it('shows the panel with Back, saying why, for a failure other than a wrong password', async () => {
    const { user } = await openSecurity({ 'POST /api/v1/me/mfa/config': apiError(429, 1290, 'Too many requests') });
    const dialog = await recheck(user);
    expect(await within(dialog).findByRole('alert')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Back' }));
    expect(within(dialog).getByLabelText(/Password/)).toHaveValue('');
  });

  it('goes to the greeting when 2-step is off, and Get started to the authenticator page', async () => {
    const { user } = await openSecurity({ 'POST /api/v1/me/mfa/config': json(200, { enabledMfa: false, authenticatorType: null }) });
    await recheck(user);
    await user.click(await screen.findByRole('link', { name: 'Get started' }));
    expect(await screen.findByRole('heading', { level: 1, name: '2-Step Verification' })).toBeInTheDocument();
    // The held password survives the move: the page does not bounce back to Security.
    expect(screen.getByRole('region', { name: 'Google Authenticator' })).toBeInTheDocument();
  });

  it('goes to the 2-step page when it is on, with the active method highlighted', async () => {
    await openMfaPage();
    expect(within(screen.getByRole('region', { name: 'Email OTP' })).getByText('Active')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'SMS OTP' })).queryByText('Active')).toBeNull();
  });
});

describe('the 2-step verification page', () => {
  it.each(['/user/security/mfa', '/user/security/authenticator'])('%s without a held password redirects to Security', async (path) => {
    signIn();
    stubFetch({ 'GET /api/v1/me': json(200, profile()) });
    await renderApp(`${path}?locale=en`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Security' })).toBeInTheDocument();
  });

  it('disables SMS without a verified phone and e-mail without an address', async () => {
    await openMfaPage({}, { email: null, emailVerified: false, phoneNumber: null, authenticatorType: 'totp' });
    const sms = screen.getByRole('region', { name: 'SMS OTP' });
    expect(within(sms).getByText('Activate your phone number first')).toBeInTheDocument();
    expect(within(sms).getByRole('button', { name: 'Set up SMS OTP' })).toBeDisabled();
    const email = screen.getByRole('region', { name: 'Email OTP' });
    expect(within(email).getByText('Activate your email address first')).toBeInTheDocument();
    expect(within(email).getByRole('button', { name: 'Set up Email OTP' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Set up Google Authenticator' })).toBeEnabled();
  });

  it('sets up e-mail OTP: read-only address, countdown into Resend, confirm, success', async () => {
    freezeClock();
    const { user, requests } = await openMfaPage({
      'POST /api/v1/me/mfa/associate': json(200, { success: true, resendAfter: 1 }),
      'POST /api/v1/me/mfa/confirm': json(200, profile({ enableMfa: true, authenticatorType: 'email' })),
    });
    await user.click(screen.getByRole('button', { name: 'Set up Email OTP' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set up Email OTP' });
    expect(within(dialog).getByRole('textbox', { name: 'Email' })).toHaveAttribute('readonly');
    expect(within(dialog).getByRole('textbox', { name: 'Email' })).toHaveValue('demo@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send code' }));
    expect(await within(dialog).findByRole('button', { name: 'Resend code in 1s' })).toBeDisabled();
    expect(posts(requests, '/api/v1/me/mfa/associate')[0]?.body).toEqual({ password: 'Secret#1', authenticator_type: 'email' });
    advanceClock(1_000);
    expect(await within(dialog).findByRole('button', { name: 'Resend verification code' })).toBeEnabled();

    await enterText(user, within(dialog).getByRole('textbox', { name: /Verification code/ }), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('2-step verification turned on')).toBeInTheDocument();
    expect(posts(requests, '/api/v1/me/mfa/confirm')[0]?.body).toEqual({ password: 'Secret#1', authenticator_type: 'email', code: '123456' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('takes a refused send (a code went out under a minute ago) as sent: the code field, where it went, and the countdown left', async () => {
    freezeClock();
    const { user } = await openMfaPage({
      'POST /api/v1/me/mfa/associate': json(429, { error: { code: 1291, message: 'A code was sent a moment ago', retryAfter: 42 } }),
    });
    await user.click(screen.getByRole('button', { name: 'Set up Email OTP' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set up Email OTP' });
    await user.click(within(dialog).getByRole('button', { name: 'Send code' }));
    const code = await within(dialog).findByRole('textbox', { name: /Verification code/ });
    expect(code).toHaveAccessibleDescription('The code was sent to demo@example.com');
    expect(within(dialog).getByRole('button', { name: 'Resend code in 42s' })).toBeDisabled();
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(within(dialog).queryByText(/A code was sent a moment ago/)).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Confirm' })).toBeEnabled();
  });

  it('sets up the authenticator app: the QR code and secret, then the code', async () => {
    const { user, requests } = await openMfaPage({
      'POST /api/v1/me/mfa/associate': json(200, { success: true, qrcode: QR, secret: 'JBSWY3DPEHPK3PXP', otpauthUri: 'otpauth://totp/Passgate:demo?secret=JBSWY3DPEHPK3PXP' }),
      'POST /api/v1/me/mfa/confirm': json(200, profile({ enableMfa: true, authenticatorType: 'totp' })),
    });
    await user.click(screen.getByRole('button', { name: 'Set up Google Authenticator' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set up Google Authenticator' });
    expect(await within(dialog).findByRole('img', { name: 'QR code for the authenticator app' })).toHaveAttribute('src', QR);
    expect(within(dialog).getByText('JBSWY3DPEHPK3PXP')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await enterText(user, within(dialog).getByRole('textbox', { name: /Verification code/ }), '654321{Enter}');
    expect(await screen.findByText('2-step verification turned on')).toBeInTheDocument();
    expect(posts(requests, '/api/v1/me/mfa/confirm')[0]?.body).toEqual({ password: 'Secret#1', authenticator_type: 'totp', code: '654321' });
    expect(within(screen.getByRole('region', { name: 'Google Authenticator' })).getByText('Active')).toBeInTheDocument();
  });

  it("offers an administrator the fresh sign-in a 2-step change needs (403/1307), and comes back to this page", async () => {
    const { user } = await openMfaPage({
      'POST /api/v1/me/mfa/associate': apiError(403, 1307, 'Sign in again with your authenticator app, or with your device'),
    });
    const signinRedirect = vi.spyOn(UserManager.prototype, 'signinRedirect').mockResolvedValue(undefined);
    await user.click(screen.getByRole('button', { name: 'Set up Google Authenticator' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set up Google Authenticator' });
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Sign in again with your authenticator app, or with your device (“Log in with your device”), to continue');
    await user.click(within(alert).getByRole('button', { name: 'Sign in again' }));
    await waitFor(() => expect(signinRedirect).toHaveBeenCalledTimes(1));
    expect(signinRedirect.mock.calls[0]?.[0]).toMatchObject({ prompt: 'login', state: { returnTo: '/user/security/mfa' } });
    signinRedirect.mockRestore();
  });

  it('asks before turning 2-step off, then turns it off with the held password and says so on Security', async () => {
    let turnedOff = false;
    const { user, requests } = await openMfaPage({
      'POST /api/v1/me/mfa/disable': () => {
        turnedOff = true;
        return json(200, profile({ enableMfa: false }));
      },
      'GET /api/v1/me/security-events': () =>
        json(200, { items: turnedOff ? [{ type: 'mfa.disabled', createdAt: '2026-11-20T08:15:00.000Z', ip: null, userAgent: null }] : [] }),
    });
    await user.click(screen.getByRole('button', { name: 'Turn off 2-Step Verification' }));
    let dialog = await screen.findByRole('dialog', { name: 'Turn off 2-step verification?' });
    expect(dialog).toHaveTextContent('your password alone signs in');
    // Cancel changes nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts(requests, '/api/v1/me/mfa/disable')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Turn off 2-Step Verification' }));
    dialog = await screen.findByRole('dialog', { name: 'Turn off 2-step verification?' });
    await user.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Security' })).toBeInTheDocument();
    expect(posts(requests, '/api/v1/me/mfa/disable')).toHaveLength(1);
    expect(posts(requests, '/api/v1/me/mfa/disable')[0]?.body).toEqual({ password: 'Secret#1' });
    expect(screen.getByRole('alert')).toHaveTextContent('2-step verification turned off');
    expect(screen.getByRole('button', { name: '2-Step Verification OFF' })).toBeInTheDocument();
    // The recent events are read again: the newest is this one.
    expect(await screen.findByText('2-Step Verification turned off')).toBeInTheDocument();
  });
});
