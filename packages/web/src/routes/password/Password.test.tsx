import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { PublicClient } from '@passgate/contract';
import { changeLanguage } from '../../i18n/i18n.ts';
import { browser } from '../../lib/browser.ts';
import { enterText } from '../../test/enter-text.ts';
import { apiError, json, stubFetch, type RecordedRequest } from '../../test/fetch-stub.ts';
import { loginRequest, tenant } from '../../test/fixtures.ts';
import { advanceClock, freezeClock } from '../../test/clock.ts';
import { LocationProbe, renderApp, renderInRouter } from '../../test/render.tsx';
import PasswordComingExpire, { formatDate } from './PasswordComingExpire.tsx';
import PasswordRecover from './PasswordRecover.tsx';
import PasswordUpdate from './PasswordUpdate.tsx';

const CHALLENGE = 'challenge-1';
const REQUEST = `GET /api/v1/requests/login/${CHALLENGE}`;
const RECOVER = 'POST /api/v1/password/recover';
const RESET = 'POST /api/v1/password/reset';
const USERNAME = 'demo@example.com';

async function renderScreen(path: string, screenElement: ReactElement, options: { answers?: Record<string, Response>; client?: Partial<PublicClient>; state?: unknown } = {}) {
  await changeLanguage('en');
  const requests = stubFetch({ [REQUEST]: json(200, loginRequest({}, options.client)), ...options.answers });
  const url = new URL(path, 'http://localhost:3000');
  await renderInRouter(
    `${path}${path.includes('?') ? '&' : '?'}locale=en`,
    <Routes>
      <Route path={url.pathname} element={screenElement} />
      <Route path="*" element={<LocationProbe />} />
    </Routes>,
    options.state,
  );
  return requests;
}

const posts = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'POST');
const noReset: Partial<PublicClient> = { permissions: ['users:email:login', 'users:email:register'] };

describe('Password recover screen', () => {
  it('sends a code to the account and goes to the update screen with the username', async () => {
    freezeClock();
    const requests = await renderScreen(`/password/recover?challenge=${CHALLENGE}`, <PasswordRecover />, { answers: { [RECOVER]: json(200, { resendAfter: 60 }) } });
    const user = userEvent.setup();
    await enterText(user, await screen.findByLabelText(/^Email or phone number/), USERNAME);
    await user.keyboard('{Enter}');
    const location = await screen.findByTestId('location');
    expect(location).toHaveTextContent(`/password/update?challenge=${CHALLENGE}&locale=en`);
    // With when Resend may be pressed: the minute the server gave.
    expect(JSON.parse(location.dataset.state ?? 'null')).toEqual({ username: USERNAME, resendAt: Date.now() + 60_000 });
    expect(posts(requests)[0]).toMatchObject({ path: '/api/v1/password/recover', body: { client_id: 'demo-app', username: USERNAME } });
  });

  it('goes on to the update screen when a code went to the account moments ago (1291): that code is still good', async () => {
    await renderScreen(`/password/recover?challenge=${CHALLENGE}`, <PasswordRecover />, {
      answers: { [RECOVER]: json(429, { error: { code: 1291, message: 'A code was sent a moment ago', retryAfter: 30 } }) },
    });
    const user = userEvent.setup();
    await enterText(user, await screen.findByLabelText(/^Email or phone number/), USERNAME);
    await user.keyboard('{Enter}');
    const location = await screen.findByTestId('location');
    expect(location).toHaveTextContent(`/password/update?challenge=${CHALLENGE}&locale=en`);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('after a 1291, the update screen counts Resend down from the seconds the server said are left, not from 60', async () => {
    freezeClock();
    await changeLanguage('en');
    stubFetch({ [REQUEST]: json(200, loginRequest()), [RECOVER]: json(429, { error: { code: 1291, message: 'A code was sent a moment ago', retryAfter: 30 } }) });
    await renderApp(`/password/recover?challenge=${CHALLENGE}&locale=en`);
    const user = userEvent.setup();
    await enterText(user, await screen.findByLabelText(/^Email or phone number/), `${USERNAME}{Enter}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Set a new password' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Resend code in 30s' })).toBeDisabled();
    expect(screen.queryByRole('alert')).toBeNull();
    advanceClock(29_000);
    expect(await screen.findByRole('button', { name: 'Resend code in 1s' })).toBeDisabled();
    advanceClock(1_000);
    expect(await screen.findByRole('button', { name: 'Resend code' })).toBeEnabled();
  });

  it('prefills the username handed over and checks its format', async () => {
    const requests = await renderScreen(`/password/recover?challenge=${CHALLENGE}`, <PasswordRecover />, { state: { username: '0912' } });
    const field = await screen.findByLabelText(/^Email or phone number/);
    expect(field).toHaveValue('0912');
    const user = userEvent.setup();
    await user.keyboard('{Enter}');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByText('0912 has an invalid format')).toBeInTheDocument();
    expect(posts(requests)).toEqual([]);
  });

  it('goes to Error 403 for a client without password:reset', async () => {
    stubFetch({ [REQUEST]: json(200, loginRequest({}, noReset)) });
    await renderApp(`/password/recover?challenge=${CHALLENGE}&locale=en`);
    expect(await screen.findByRole('heading', { name: 'Forbidden' })).toBeInTheDocument();
  });

  it('goes to Error 403 when the tenant disallows password reset', async () => {
    stubFetch({ [REQUEST]: json(200, loginRequest({}, { tenant: tenant({ resetPasswordAllowed: false }) })) });
    await renderApp(`/password/recover?challenge=${CHALLENGE}&locale=en`);
    expect(await screen.findByRole('heading', { name: 'Forbidden' })).toBeInTheDocument();
  });
});

describe('Password update screen', () => {
  const path = `/password/update?challenge=${CHALLENGE}`;

  async function fill(values: { code?: string; password?: string; confirm?: string }) {
    const user = userEvent.setup();
    const { code = '123456', password = 'NewPassw0rd', confirm = password } = values;
    await enterText(user, await screen.findByLabelText(/^Recovery code/), code);
    await enterText(user, screen.getByLabelText(/^New password/, { selector: 'input' }), password);
    await enterText(user, screen.getByLabelText(/^Confirm new password/), confirm);
    await user.click(screen.getByRole('button', { name: 'Update password' }));
  }

  it('leads back (this sign-in is no longer open) instead of an error without a username in the route state', async () => {
    stubFetch({ [REQUEST]: json(200, loginRequest()) });
    await renderApp(`${path}&locale=en`);
    expect(await screen.findByRole('heading', { level: 1, name: 'This sign-in is no longer open' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to your account' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Internal Server Error' })).toBeNull();
  });

  it('goes to Error 403 for a client without password:reset', async () => {
    stubFetch({ [REQUEST]: json(200, loginRequest({}, noReset)) });
    await renderApp(`${path}&locale=en`, { username: USERNAME });
    expect(await screen.findByRole('heading', { name: 'Forbidden' })).toBeInTheDocument();
  });

  it("resets the password and goes to Login saying 'Update Password successfully'", async () => {
    const requests = await renderScreen(path, <PasswordUpdate />, { answers: { [RESET]: json(200, { ok: true }) }, state: { username: USERNAME } });
    await fill({});
    const location = await screen.findByTestId('location');
    expect(location).toHaveTextContent(`/login?challenge=${CHALLENGE}&locale=en`);
    expect(JSON.parse(location.dataset.state ?? 'null')).toEqual({ notice: 'passwordUpdated', username: USERNAME });
    expect(posts(requests)[0]).toMatchObject({
      path: '/api/v1/password/reset',
      body: { client_id: 'demo-app', username: USERNAME, password: 'NewPassw0rd', code: '123456' },
    });
  });

  it("checks the new password against the tenant's policy and the confirmation", async () => {
    const requests = await renderScreen(path, <PasswordUpdate />, { state: { username: USERNAME }, client: { tenant: tenant({ passwordPolicy: { minLength: 6, uppercase: 0, number: 2, special: 0 } }) } });
    await fill({ password: 'Passw0rd', confirm: 'Passw0rd' });
    expect(screen.getByText('Password must contain at least 2 numbers')).toBeInTheDocument();
    expect(screen.getByLabelText(/^New password/, { selector: 'input' })).toHaveFocus();
    expect(posts(requests)).toEqual([]);
  });

  it('says 1031 (password already used) once, beside the new password, which takes the focus', async () => {
    await renderScreen(path, <PasswordUpdate />, { answers: { [RESET]: apiError(400, 1031, 'reused', 'password') }, state: { username: USERNAME } });
    await fill({});
    const field = screen.getByLabelText(/^New password/, { selector: 'input' });
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveAccessibleDescription(expect.stringContaining('This password has already been used'));
    expect(screen.getAllByText(/This password has already been used/)).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
    await waitFor(() => expect(field).toHaveFocus());
  });

  it('says a wrong recovery code (1042) once, beside the code, which takes the focus', async () => {
    await renderScreen(path, <PasswordUpdate />, { answers: { [RESET]: apiError(400, 1042, 'bad code', 'code') }, state: { username: USERNAME } });
    await fill({});
    const field = screen.getByLabelText(/^Recovery code/);
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveAccessibleDescription('Username or recovery code is not valid');
    expect(screen.getAllByText('Username or recovery code is not valid')).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
    await waitFor(() => expect(field).toHaveFocus());
  });

  it('sends the reset with a reCAPTCHA token when configured', async () => {
    const execute = vi.fn(async () => 'token-reset');
    vi.stubGlobal('grecaptcha', { ready: (callback: () => void) => callback(), execute });
    const requests = await renderScreen(path, <PasswordUpdate />, {
      answers: { [RESET]: json(200, { ok: true }) },
      state: { username: USERNAME },
      client: { recaptchaConfiguration: { enabled: true, siteKey: 'site-4' } },
    });
    await fill({});
    await screen.findByTestId('location');
    expect(execute).toHaveBeenCalledWith('site-4', { action: 'password_reset' });
    expect(posts(requests)[0]?.body).toMatchObject({ recaptcha_token: 'token-reset' });
  });

  it('counts Resend down from the time the sending screen handed over', async () => {
    freezeClock();
    await renderScreen(path, <PasswordUpdate />, { state: { username: USERNAME, resendAt: Date.now() + 12_000 } });
    expect(await screen.findByRole('button', { name: 'Resend code in 12s' })).toBeDisabled();
  });

  it('offers Resend code at once when that time has passed (the screen reloaded minutes later)', async () => {
    freezeClock();
    await renderScreen(path, <PasswordUpdate />, { state: { username: USERNAME, resendAt: Date.now() - 300_000 } });
    expect(await screen.findByRole('button', { name: 'Resend code' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: /Resend code in/ })).toBeNull();
  });

  it('offers Resend code after 60 seconds, sending the recovery again', async () => {
    freezeClock();
    const requests = await renderScreen(path, <PasswordUpdate />, { answers: { [RECOVER]: json(200, { resendAfter: 60 }) }, state: { username: USERNAME } });
    expect(await screen.findByRole('button', { name: 'Resend code in 60s' })).toBeDisabled();
    advanceClock(60_000);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Resend code' }));
    expect(await screen.findByRole('button', { name: 'Resend code in 60s' })).toBeDisabled();
    expect(posts(requests)[0]).toMatchObject({ path: '/api/v1/password/recover', body: { client_id: 'demo-app', username: USERNAME } });
  });
});

describe('Password coming-expire screen', () => {
  const path = `/password/coming-expire?challenge=${CHALLENGE}`;
  const expiresAt = Math.floor(new Date(2030, 0, 15, 12).getTime() / 1000);
  const base = { mfaRequired: false, username: USERNAME, passwordWarning: { expiresAt, daysLeft: 3 } };

  it('shows the days left and the date', async () => {
    await renderScreen(path, <PasswordComingExpire />, { state: base });
    expect(await screen.findByRole('heading', { level: 1, name: 'Your password is expiring soon' })).toBeInTheDocument();
    expect(screen.getByText('Your password will expire in 3 days, on 15/01/2030.')).toBeInTheDocument();
    expect(formatDate(expiresAt)).toBe('15/01/2030');
  });

  it('continues to the 2-step screen when MFA is required', async () => {
    await renderScreen(path, <PasswordComingExpire />, { state: { ...base, mfaRequired: true, tokenType: 'sms', mfaToken: 'mfa-9', redirectTo: undefined } });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Continue login' }));
    const location = await screen.findByTestId('location');
    expect(location).toHaveTextContent(`/login/mfa?challenge=${CHALLENGE}&locale=en`);
    expect(JSON.parse(location.dataset.state ?? 'null')).toEqual({ tokenType: 'sms', mfaToken: 'mfa-9', username: USERNAME, challenge: CHALLENGE });
  });

  it('continues to redirectTo otherwise', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    await renderScreen(path, <PasswordComingExpire />, { state: { ...base, redirectTo: 'http://localhost:3000/oidc/auth/resume-3' } });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Continue login' }));
    expect(assign).toHaveBeenCalledWith('http://localhost:3000/oidc/auth/resume-3');
  });

  it("says 'Sorry, something went wrong there' with neither", async () => {
    await renderScreen(path, <PasswordComingExpire />, { state: base });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Continue login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Sorry, something went wrong there');
  });

  it('resets the password with the username filled in', async () => {
    await renderScreen(path, <PasswordComingExpire />, { state: base });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Reset password' }));
    const location = await screen.findByTestId('location');
    expect(location).toHaveTextContent(`/password/recover?challenge=${CHALLENGE}&locale=en`);
    expect(JSON.parse(location.dataset.state ?? 'null')).toEqual({ username: USERNAME });
  });

  it('offers no Reset password to a client without password:reset', async () => {
    await renderScreen(path, <PasswordComingExpire />, { state: base, client: noReset });
    expect(await screen.findByRole('button', { name: 'Continue login' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reset password' })).not.toBeInTheDocument();
  });

  it('returns to Login without the expiry state', async () => {
    await renderScreen(path, <PasswordComingExpire />);
    expect(await screen.findByTestId('location')).toHaveTextContent(`/login?challenge=${CHALLENGE}&locale=en`);
  });
});
