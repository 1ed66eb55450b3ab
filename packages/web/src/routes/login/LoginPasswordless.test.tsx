import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../i18n/i18n.ts';
import { browser } from '../../lib/browser.ts';
import { apiError, json, stubFetch, type RecordedRequest } from '../../test/fetch-stub.ts';
import { loginRequest, tenant } from '../../test/fixtures.ts';
import { freezeClock } from '../../test/clock.ts';
import { renderApp } from '../../test/render.tsx';

const CHALLENGE = 'challenge-1';
const REQUEST = `GET /api/v1/requests/login/${CHALLENGE}`;
const SEND = 'POST /api/v1/passwordless/send';
const LOGIN = 'POST /api/v1/passwordless/login';
const TRIGGER = 'POST /api/v1/mfa/trigger-challenge';
const MFA_LOGIN = 'POST /api/v1/mfa/login';
const PHONE = '0912345678';

async function renderPasswordless(answers: Record<string, Response> = {}) {
  await changeLanguage('en');
  const requests = stubFetch({ [REQUEST]: json(200, loginRequest()), [SEND]: json(200, { resendAfter: 60 }), ...answers });
  await renderApp(`/login/passwordless?challenge=${CHALLENGE}&locale=en`);
  await screen.findByRole('heading', { level: 1, name: 'Log in with a phone number' });
  return requests;
}

const posts = (requests: RecordedRequest[], path: string) => requests.filter((r) => r.method === 'POST' && r.path === path);

async function sendPhone(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText(/^Phone number/), PHONE);
  await user.click(screen.getByRole('button', { name: 'Send code' }));
}

describe('LoginPasswordless screen', () => {
  it('goes to Error 403 when the tenant does not allow passwordless sign-in', async () => {
    await changeLanguage('en');
    stubFetch({ [REQUEST]: json(200, loginRequest({}, { tenant: tenant({ passwordlessAuthenticationAllowed: false }) })) });
    await renderApp(`/login/passwordless?challenge=${CHALLENGE}&locale=en`);
    expect(await screen.findByRole('heading', { name: 'Forbidden' })).toBeInTheDocument();
  });

  it('limits the phone to 10 characters and checks it before sending', async () => {
    const requests = await renderPasswordless();
    const phone = screen.getByLabelText(/^Phone number/);
    expect(phone).toHaveAttribute('maxlength', '10');
    const user = userEvent.setup();
    await user.type(phone, '12345');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(screen.getByText('12345 has an invalid format')).toBeInTheDocument();
    expect(posts(requests, '/api/v1/passwordless/send')).toEqual([]);
  });

  it('sends the code, shows the code step, and the edit icon returns to the phone step', async () => {
    const requests = await renderPasswordless();
    const user = userEvent.setup();
    await sendPhone(user);
    expect(await screen.findByLabelText(/^Verification code/)).toBeInTheDocument();
    expect(posts(requests, '/api/v1/passwordless/send')[0]?.body).toEqual({ challenge: CHALLENGE, phone_number: PHONE, client_id: 'demo-app' });
    expect(screen.getByText(`Enter the 6-digit code we sent to ${PHONE}.`)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: /^Resend code/ })).toBeDisabled());

    await user.click(screen.getByRole('button', { name: 'Change the phone number' }));
    expect(screen.getByLabelText(/^Phone number/)).toHaveValue(PHONE);
    expect(screen.queryByLabelText(/^Verification code/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send code' })).toBeInTheDocument();
  });

  it('logs in with the code and follows redirectTo', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const requests = await renderPasswordless({ [LOGIN]: json(200, { redirectTo: 'http://localhost:3000/oidc/auth/resume-2' }) });
    const user = userEvent.setup();
    await sendPhone(user);
    await user.type(await screen.findByLabelText(/^Verification code/), '654321');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost:3000/oidc/auth/resume-2'));
    expect(posts(requests, '/api/v1/passwordless/login')[0]?.body).toEqual({ challenge: CHALLENGE, phone_number: PHONE, code: '654321', client_id: 'demo-app' });
  });

  it('goes on to the 2-step screen when the account has it on, and does not leave for the relying party', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const requests = await renderPasswordless({
      [LOGIN]: json(200, { mfaRequired: true, tokenType: 'email', mfaToken: 't' }),
      [TRIGGER]: json(200, { resendAfter: 60 }),
      [MFA_LOGIN]: json(200, { redirectTo: 'http://localhost:3000/oidc/auth/resume-3' }),
    });
    const user = userEvent.setup();
    await sendPhone(user);
    await user.type(await screen.findByLabelText(/^Verification code/), '654321');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    // The 2-step screen says the code went to 'your' e-mail (not the phone's), and sends it for the token.
    expect(await screen.findByRole('heading', { level: 1, name: '2-Step Verification' })).toBeInTheDocument();
    expect(screen.getByText('We sent a 6-digit code to your email address.')).toBeInTheDocument();
    await waitFor(() => expect(posts(requests, '/api/v1/mfa/trigger-challenge')).toHaveLength(1));
    expect(posts(requests, '/api/v1/mfa/trigger-challenge')[0]?.body).toEqual({ token_type: 'email', mfa_token: 't', client_id: 'demo-app' });
    expect(assign).not.toHaveBeenCalled();

    // The second code finishes the same sign-in (its challenge), and only then the browser leaves.
    await user.type(screen.getByLabelText(/^Verification code/), '112233');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost:3000/oidc/auth/resume-3'));
    expect(posts(requests, '/api/v1/mfa/login')[0]?.body).toEqual({ token_type: 'email', mfa_token: 't', otp: '112233', challenge: CHALLENGE, client_id: 'demo-app' });
  });

  it("says 'Account does not exist' for 1010", async () => {
    await renderPasswordless({ [SEND]: apiError(404, 1010, 'no account') });
    const user = userEvent.setup();
    await sendPhone(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('Account does not exist');
    expect(screen.getByLabelText(/^Phone number/)).toBeInTheDocument();
  });

  it('says an unknown phone number (1010 on phone_number) once, beside the phone, which takes the focus', async () => {
    await renderPasswordless({ [SEND]: apiError(404, 1010, 'no account', 'phone_number') });
    const user = userEvent.setup();
    await sendPhone(user);
    const phone = screen.getByLabelText(/^Phone number/);
    await waitFor(() => expect(phone).toHaveAccessibleDescription('Account does not exist'));
    expect(screen.getAllByText('Account does not exist')).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
    await waitFor(() => expect(phone).toHaveFocus());
  });

  it('says a wrong code (1043) once, beside the code, which takes the focus; a new try takes it away', async () => {
    await renderPasswordless({ [LOGIN]: apiError(400, 1043, 'bad code', 'code') });
    const user = userEvent.setup();
    await sendPhone(user);
    const code = await screen.findByLabelText(/^Verification code/);
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    const message = 'Phone number or verification code is not valid';
    await waitFor(() => expect(code).toHaveAccessibleDescription(message));
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getAllByText(message)).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
    await waitFor(() => expect(code).toHaveFocus());

    await user.clear(code);
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(screen.queryByText(message)).toBeNull();
  });

  it('opens the code step when a code went to the phone moments ago, counting down what is left', async () => {
    freezeClock();
    await renderPasswordless({ [SEND]: json(429, { error: { code: 1291, message: 'A code was sent a moment ago', retryAfter: 25 } }) });
    const user = userEvent.setup();
    await sendPhone(user);
    expect(await screen.findByLabelText(/^Verification code/)).toBeInTheDocument();
    expect(screen.getByText(`Enter the 6-digit code we sent to ${PHONE}.`)).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Resend code in 25s' })).toBeDisabled();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
