import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { PublicClient } from '@passgate/contract';
import { changeLanguage } from '../../i18n/i18n.ts';
import { browser } from '../../lib/browser.ts';
import { apiError, json, stubFetch, type RecordedRequest } from '../../test/fetch-stub.ts';
import { loginRequest } from '../../test/fixtures.ts';
import { advanceClock, freezeClock } from '../../test/clock.ts';
import { LocationProbe, renderApp, renderInRouter } from '../../test/render.tsx';
import Activation from './Activation.tsx';
import ActivationResend from './ActivationResend.tsx';

const CHALLENGE = 'challenge-1';
const REQUEST = `GET /api/v1/requests/login/${CHALLENGE}`;
const CONFIRM = 'POST /api/v1/users/confirm';
const RESEND = 'POST /api/v1/users/activation/resend';
const USERNAME = 'new.user@example.com';

async function renderActivation(answers: Record<string, Response> = {}, client: Partial<PublicClient> = {}, state: unknown = { username: USERNAME }) {
  await changeLanguage('en');
  const requests = stubFetch({ [REQUEST]: json(200, loginRequest({}, client)), ...answers });
  await renderInRouter(
    `/activation?challenge=${CHALLENGE}&locale=en`,
    <Routes>
      <Route path="/activation" element={<Activation />} />
      <Route path="*" element={<LocationProbe />} />
    </Routes>,
    state,
  );
  await screen.findByRole('heading', { level: 1, name: 'Activate your account' });
  return requests;
}

const posts = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'POST');

describe('Activation screen', () => {
  it('leads back (this sign-in is no longer open) instead of an error without a username in the route state', async () => {
    stubFetch({ [REQUEST]: json(200, loginRequest()) });
    await renderApp(`/activation?challenge=${CHALLENGE}&locale=en`);
    expect(await screen.findByRole('heading', { level: 1, name: 'This sign-in is no longer open' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to your account' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Internal Server Error' })).toBeNull();
  });

  it('shows the username read-only and takes digits only', async () => {
    await renderActivation();
    expect(screen.getByText(`Enter the 6-digit code we sent to ${USERNAME}.`)).toBeInTheDocument();
    const username = screen.getByLabelText(/^Email or phone number/);
    expect(username).toHaveValue(USERNAME);
    expect(username).toHaveAttribute('readonly');
    const user = userEvent.setup();
    const code = screen.getByLabelText(/^Activation code/);
    await user.type(code, '12a 34-5678');
    expect(code).toHaveValue('123456');
  });

  it('checks the code before calling the server', async () => {
    const requests = await renderActivation();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText('Please enter your activation code')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Activation code/), '123');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText('The code must have 6 digits')).toBeInTheDocument();
    expect(posts(requests)).toEqual([]);
  });

  it("activates, says 'Your account is now active' and follows redirectTo", async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const requests = await renderActivation({ [CONFIRM]: json(200, { redirectTo: 'http://localhost:3000/oidc/auth/resume-1' }) });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Activation code/), '123456');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost:3000/oidc/auth/resume-1'));
    expect(screen.getByRole('alert')).toHaveTextContent('Your account is now active');
    expect(posts(requests).find((r) => r.path === '/api/v1/users/confirm')?.body).toEqual({ client_id: 'demo-app', username: USERNAME, code: '123456', challenge: CHALLENGE });
  });

  it('goes to Login with the success message when there is no redirect', async () => {
    await renderActivation({ [CONFIRM]: json(200, {}) });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Activation code/), '123456');
    await user.keyboard('{Enter}');
    const location = await screen.findByTestId('location');
    expect(location).toHaveTextContent(`/login?challenge=${CHALLENGE}&locale=en`);
    expect(JSON.parse(location.dataset.state ?? 'null')).toEqual({ notice: 'accountActivated', username: USERNAME });
  });

  it('says at once that the sign-in is no longer open when it expired while the code was on its way', async () => {
    await changeLanguage('en');
    let reads = 0;
    // The request was open when the screen read it; once the account is active, it has expired.
    stubFetch({
      [REQUEST]: () => (++reads === 1 ? json(200, loginRequest()) : apiError(400, 1026, 'The request has expired', 'challenge')),
      [CONFIRM]: json(200, {}),
    });
    await renderApp(`/activation?challenge=${CHALLENGE}&client_id=demo-app&locale=en`, { username: USERNAME });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Activation code/), '123456');
    await user.keyboard('{Enter}');
    // Login reads the request again: no form that would fail only once the password is typed.
    expect(await screen.findByRole('heading', { level: 1, name: 'This sign-in is no longer open' })).toBeInTheDocument();
    expect(screen.queryByLabelText(/^Password/)).toBeNull();
    expect(reads).toBeGreaterThanOrEqual(2);
  });

  it('says 1041 once, beside the code, which takes the focus', async () => {
    await renderActivation({ [CONFIRM]: apiError(400, 1041, 'bad code', 'code') });
    const user = userEvent.setup();
    const field = screen.getByLabelText(/^Activation code/);
    await user.type(field, '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveAccessibleDescription('Username or activation code is not valid');
    expect(screen.getAllByText('Username or activation code is not valid')).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
    await waitFor(() => expect(field).toHaveFocus());
  });

  it('keeps Resend disabled for 60 seconds from arrival, then sends and counts down again', async () => {
    freezeClock();
    const requests = await renderActivation({ [RESEND]: json(200, { resendAfter: 60 }) });
    const resend = () => screen.getByRole('button', { name: /^Resend code/ });
    expect(resend()).toBeDisabled();
    expect(resend()).toHaveTextContent('Resend code in 60s');

    advanceClock(59_000);
    await waitFor(() => expect(resend()).toHaveTextContent('Resend code in 1s'));
    expect(resend()).toBeDisabled();

    advanceClock(1_000);
    await waitFor(() => expect(resend()).toHaveTextContent(/^Resend code$/));
    expect(resend()).toBeEnabled();

    const user = userEvent.setup();
    await user.click(resend());
    expect(await screen.findByRole('alert')).toHaveTextContent(`A new code has been sent to ${USERNAME}`);
    expect(resend()).toBeDisabled();
    expect(resend()).toHaveTextContent('Resend code in 60s');
    expect(posts(requests).find((r) => r.path === '/api/v1/users/activation/resend')?.body).toEqual({ client_id: 'demo-app', username: USERNAME });
  });

  it('counts Resend down from the time the sending screen handed over', async () => {
    freezeClock();
    await renderActivation({}, {}, { username: USERNAME, resendAt: Date.now() + 9_000 });
    expect(await screen.findByRole('button', { name: 'Resend code in 9s' })).toBeDisabled();
  });

  it('goes to Error 403 for a client that may not register', async () => {
    stubFetch({ [REQUEST]: json(200, loginRequest({}, { tenant: { ...loginRequest().client.tenant, registrationAllowed: false } })) });
    await renderApp(`/activation?challenge=${CHALLENGE}&locale=en`, { username: USERNAME });
    expect(await screen.findByRole('heading', { name: 'Forbidden' })).toBeInTheDocument();
  });
});

describe('Activation resend screen', () => {
  async function renderResend(answers: Record<string, Response> = {}, client: Partial<PublicClient> = {}, state?: unknown) {
    await changeLanguage('en');
    const requests = stubFetch({ [REQUEST]: json(200, loginRequest({}, client)), ...answers });
    await renderInRouter(
      `/activation/resend?challenge=${CHALLENGE}&locale=en`,
      <Routes>
        <Route path="/activation/resend" element={<ActivationResend />} />
        <Route path="*" element={<LocationProbe />} />
      </Routes>,
      state,
    );
    await screen.findByRole('heading', { level: 1, name: 'Resend activation code' });
    return requests;
  }

  it('sends a new code and goes to Activation with the username, prefilled from Login', async () => {
    freezeClock();
    const requests = await renderResend({ [RESEND]: json(200, { resendAfter: 60 }) }, {}, { username: USERNAME });
    expect(screen.getByLabelText(/^Email or phone number/)).toHaveValue(USERNAME);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    const location = await screen.findByTestId('location');
    expect(location).toHaveTextContent(`/activation?challenge=${CHALLENGE}&locale=en`);
    // With when Resend may be pressed: the minute the server gave.
    expect(JSON.parse(location.dataset.state ?? 'null')).toEqual({ username: USERNAME, resendAt: Date.now() + 60_000 });
    expect(posts(requests)[0]?.body).toEqual({ client_id: 'demo-app', username: USERNAME });
  });

  it('after a 1291 (a code went out moments ago), goes to Activation, whose Resend counts down the seconds the server said are left', async () => {
    freezeClock();
    await changeLanguage('en');
    stubFetch({ [REQUEST]: json(200, loginRequest()), [RESEND]: json(429, { error: { code: 1291, message: 'A code was sent a moment ago', retryAfter: 25 } }) });
    await renderApp(`/activation/resend?challenge=${CHALLENGE}&locale=en`, { username: USERNAME });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Send code' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Activate your account' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Resend code in 25s' })).toBeDisabled();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/A code was sent a moment ago/)).toBeNull();
    advanceClock(24_000);
    expect(await screen.findByRole('button', { name: 'Resend code in 1s' })).toBeDisabled();
    advanceClock(1_000);
    expect(await screen.findByRole('button', { name: 'Resend code' })).toBeEnabled();
  });

  it("checks the client's username policy", async () => {
    const requests = await renderResend({}, { usernamePolicy: { email: { allowedDomains: ['demo.example'] } } });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Email or phone number/), USERNAME);
    await user.keyboard('{Enter}');
    expect(screen.getByText(`${USERNAME} has an invalid format`)).toBeInTheDocument();
    expect(posts(requests)).toEqual([]);
  });

  it('attaches a reCAPTCHA token when the client has it configured', async () => {
    const execute = vi.fn(async () => 'token-2');
    vi.stubGlobal('grecaptcha', { ready: (callback: () => void) => callback(), execute });
    const requests = await renderResend({ [RESEND]: json(200, { resendAfter: 60 }) }, { recaptchaConfiguration: { enabled: true, siteKey: 'site-2' } }, { username: USERNAME });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await screen.findByTestId('location');
    expect(execute).toHaveBeenCalledWith('site-2', { action: 'activation_resend' });
    expect(posts(requests)[0]?.body).toEqual({ client_id: 'demo-app', username: USERNAME, recaptcha_token: 'token-2' });
  });

  it('says so when reCAPTCHA cannot load, without calling the server', async () => {
    const requests = await renderResend({}, { recaptchaConfiguration: { enabled: true, siteKey: 'site-3' } }, { username: USERNAME });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    for (const script of document.querySelectorAll('script[src*="recaptcha"]')) script.dispatchEvent(new Event('error'));
    expect(await screen.findByRole('alert')).toHaveTextContent('We could not check that you are not a robot');
    expect(posts(requests)).toEqual([]);
  });
});
