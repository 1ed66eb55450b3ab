import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../i18n/i18n.ts';
import { advanceClock, freezeClock } from '../../test/clock.ts';
import { browser } from '../../lib/browser.ts';
import { apiError, json, stubFetch, type RecordedRequest } from '../../test/fetch-stub.ts';
import { loginRequest } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const CHALLENGE = 'challenge-1';
const REQUEST = `GET /api/v1/requests/login/${CHALLENGE}`;
const TRIGGER = 'POST /api/v1/mfa/trigger-challenge';
const LOGIN = 'POST /api/v1/mfa/login';
const MFA_TOKEN = 'mfa-token-0123456789abcdef';
const USERNAME = 'demo@example.com';

async function renderMfa(tokenType: 'totp' | 'sms' | 'email', answers: Parameters<typeof stubFetch>[0] = {}) {
  await changeLanguage('en');
  const requests = stubFetch({ [REQUEST]: json(200, loginRequest()), [TRIGGER]: json(200, { resendAfter: 60 }), ...answers });
  await renderApp(`/login/mfa?challenge=${CHALLENGE}&locale=en`, { tokenType, mfaToken: MFA_TOKEN, username: USERNAME, challenge: CHALLENGE });
  await screen.findByRole('heading', { level: 1, name: '2-Step Verification' });
  return requests;
}

const posts = (requests: RecordedRequest[], path: string) => requests.filter((r) => r.method === 'POST' && r.path === path);

describe('Login2Step screen', () => {
  it('leads back (this sign-in is no longer open) instead of an error without the MFA token or type in the route state', async () => {
    stubFetch({ [REQUEST]: json(200, loginRequest()) });
    await renderApp(`/login/mfa?challenge=${CHALLENGE}&locale=en`, { username: USERNAME, challenge: CHALLENGE });
    expect(await screen.findByRole('heading', { level: 1, name: 'This sign-in is no longer open' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to your account' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Internal Server Error' })).toBeNull();
  });

  it('sms: sends the code on arrival, verifies in snake_case and follows redirectTo', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const requests = await renderMfa('sms', { [LOGIN]: json(200, { redirectTo: 'http://localhost:3000/oidc/auth/resume-1' }) });
    expect(screen.getByText(`We sent a 6-digit code by SMS to the phone number registered for ${USERNAME}.`)).toBeInTheDocument();
    await waitFor(() => expect(posts(requests, '/api/v1/mfa/trigger-challenge')).toHaveLength(1));
    expect(posts(requests, '/api/v1/mfa/trigger-challenge')[0]?.body).toEqual({ token_type: 'sms', mfa_token: MFA_TOKEN, client_id: 'demo-app' });
    await waitFor(() => expect(screen.getByRole('button', { name: /^Resend code/ })).toBeDisabled());

    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Verification code/), '12a3456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost:3000/oidc/auth/resume-1'));
    expect(posts(requests, '/api/v1/mfa/login')[0]?.body).toEqual({ token_type: 'sms', mfa_token: MFA_TOKEN, otp: '123456', challenge: CHALLENGE, client_id: 'demo-app' });
  });

  it('email: a code sent moments ago (an earlier sign-in) is no error: the code field, and Resend counts down what is left', async () => {
    freezeClock();
    await renderMfa('email', { [TRIGGER]: json(429, { error: { code: 1291, message: 'A code was sent a moment ago', retryAfter: 37 } }) });
    expect(await screen.findByRole('button', { name: 'Resend code in 37s' })).toBeDisabled();
    expect(screen.getByText(`We sent a 6-digit code by email to the address registered for ${USERNAME}.`)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Verification code/)).toBeEnabled();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/A code was sent a moment ago/)).toBeNull();
  });

  it('sms: a Resend refused because a code went out moments ago (another tab) counts down what is left, with no error', async () => {
    freezeClock();
    let triggers = 0;
    const tooSoon = () => json(429, { error: { code: 1291, message: 'A code was sent a moment ago', retryAfter: 20 } });
    await renderMfa('sms', { [TRIGGER]: () => (++triggers === 1 ? json(200, { resendAfter: 60 }) : tooSoon()) });
    expect(await screen.findByRole('button', { name: 'Resend code in 60s' })).toBeDisabled();
    advanceClock(60_000);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Resend code' }));
    expect(await screen.findByRole('button', { name: 'Resend code in 20s' })).toBeDisabled();
    expect(triggers).toBe(2);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/A code was sent a moment ago/)).toBeNull();
    expect(screen.getByLabelText(/^Verification code/)).toBeEnabled();
  });

  it('says how long to wait when too many codes were tried (429 with retryAfter)', async () => {
    await renderMfa('totp', { [LOGIN]: json(429, { error: { code: 1290, message: 'Too many requests (try again in 840 s)', retryAfter: 840 } }) });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Verification code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Too many attempts; try again in 14 minutes.');
    expect(screen.getAllByText(/Too many attempts/)).toHaveLength(1);
    expect(screen.getByLabelText(/^Verification code/)).toHaveAttribute('aria-invalid', 'false');
  });

  it('totp: asks for the authenticator code and sends nothing on arrival', async () => {
    const requests = await renderMfa('totp');
    expect(screen.getByText('Enter the 6-digit code from your authenticator app.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Resend code/ })).not.toBeInTheDocument();
    expect(posts(requests, '/api/v1/mfa/trigger-challenge')).toEqual([]);
  });

  it('says a wrong code (1040) once, beside the code, which takes the focus', async () => {
    await renderMfa('totp', { [LOGIN]: apiError(400, 1040, 'bad code', 'otp') });
    const user = userEvent.setup();
    const field = screen.getByLabelText(/^Verification code/);
    await user.type(field, '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveAccessibleDescription('Verification code is not valid');
    expect(screen.getAllByText('Verification code is not valid')).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
    await waitFor(() => expect(field).toHaveFocus());
  });

  it('Try another way lists the account\'s method and a backup code; a backup code signs in', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    let attempt = 0;
    const requests = await renderMfa('sms', {
      [LOGIN]: () => (++attempt === 1 ? apiError(400, 1040, 'Verification code is not valid', 'backup_code') : json(200, { redirectTo: 'http://localhost:3000/oidc/auth/resume-2' })),
    });
    await waitFor(() => expect(posts(requests, '/api/v1/mfa/trigger-challenge')).toHaveLength(1));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Try another way' }));
    const ways = within(screen.getByRole('list')).getAllByRole('button').map((button) => button.textContent);
    expect(ways).toEqual(['Get a code by SMS', 'Use a backup code']);
    await user.click(screen.getByRole('button', { name: 'Use a backup code' }));
    expect(screen.getByText(/Enter one of the backup codes you saved/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Resend code/ })).toBeNull();

    const field = screen.getByLabelText(/^Backup code/);
    await user.type(field, 'abc{Enter}');
    expect(field).toHaveAccessibleDescription('A backup code has 10 letters and digits, like abcde-23456');
    expect(posts(requests, '/api/v1/mfa/login')).toEqual([]);

    await user.clear(field);
    await user.type(field, 'ABCDE 23456{Enter}');
    // A used or wrong code: said once, beside the field.
    await waitFor(() => expect(field).toHaveAccessibleDescription('This backup code is not valid or has already been used'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(posts(requests, '/api/v1/mfa/login')[0]?.body).toEqual({ token_type: 'sms', mfa_token: MFA_TOKEN, backup_code: 'ABCDE 23456', challenge: CHALLENGE, client_id: 'demo-app' });

    await user.clear(field);
    await user.type(field, 'fghjk-34567{Enter}');
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost:3000/oidc/auth/resume-2'));
    // Going back to the SMS code does not send another one.
    expect(posts(requests, '/api/v1/mfa/trigger-challenge')).toHaveLength(1);
  });

  it('offers Back to the login page when the token can no longer be used (1026)', async () => {
    await renderMfa('totp', { [LOGIN]: apiError(400, 1026, 'expired') });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Verification code/), '000000');
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Your request has expired, please retry');
    await user.click(screen.getByRole('button', { name: 'Back to the login page' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in' })).toBeInTheDocument();
  });
});
