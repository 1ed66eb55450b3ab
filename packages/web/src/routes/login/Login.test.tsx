import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { LoginRequestInfo } from '@passgate/contract';
import { browser } from '../../lib/browser.ts';
import { enterText } from '../../test/enter-text.ts';
import { apiError, json, stubFetch } from '../../test/fetch-stub.ts';
import { loginRequest } from '../../test/fixtures.ts';
import { LocationProbe, renderApp, renderInRouter } from '../../test/render.tsx';
import Login from './Login.tsx';

const CHALLENGE = 'challenge-1';
const REQUEST = `GET /api/v1/requests/login/${CHALLENGE}`;
const LOGIN = 'POST /api/v1/users/login';

function serve(info: LoginRequestInfo, login?: Response) {
  return stubFetch({ [REQUEST]: json(200, info), ...(login ? { [LOGIN]: login } : {}) });
}

async function fillAndSubmit(username: string | null, password: string) {
  const user = userEvent.setup();
  if (username !== null) await enterText(user, await screen.findByLabelText(/Email/), username);
  await enterText(user, screen.getByLabelText(/^Mật khẩu|^Password/), password);
  await user.keyboard('{Enter}');
  return user;
}

describe('Login screen', () => {
  it('says what the page is with the client beside it, and shows the theme: logo, icon and hyperlink', async () => {
    serve(loginRequest());
    await renderApp(`/login?challenge=${CHALLENGE}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Đăng nhập' })).toBeInTheDocument();
    expect(document.title).toBe('Đăng nhập · Demo App');
    expect(screen.getByText('Đăng nhập để tiếp tục tới Demo App')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Logo Demo App' })).toHaveAttribute('src', 'http://localhost:3000/themes/demo-app-logo.svg');
    expect(document.querySelector('link[rel="icon"]')).toHaveAttribute('href', 'http://localhost:3000/themes/demo-app-icon.svg');
    expect(screen.getByRole('link', { name: 'Help centre' })).toHaveAttribute('href', 'https://example.com/help');
    expect(screen.getByRole('link', { name: 'Chính sách quyền riêng tư' })).toHaveAttribute('href', '/privacy?locale=vi');
  });

  it.each([
    ['vi', 'Trung tâm trợ giúp'],
    ['en', 'Help centre'],
  ])("shows the client's link text in the page's language when it gives one (%s)", async (locale, text) => {
    serve(loginRequest({}, { theme: { hyperlink: 'https://example.com/help', hyperlinkedText: 'Help centre', hyperlinkedTextI18n: { vi: 'Trung tâm trợ giúp' } } }));
    await renderApp(`/login?challenge=${CHALLENGE}&locale=${locale}`);
    expect(await screen.findByRole('link', { name: text })).toHaveAttribute('href', 'https://example.com/help');
  });

  it('offers every way in when the client may use them all', async () => {
    vi.spyOn(browser, 'supportsPublicKeyCredential').mockReturnValue(true);
    serve(loginRequest());
    await renderApp(`/login?challenge=${CHALLENGE}&locale=en`);
    expect(await screen.findByLabelText(/Email or phone number/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', `/password/recover?challenge=${CHALLENGE}&locale=en`);
    expect(screen.getByRole('link', { name: 'Log in without a password' })).toHaveAttribute('href', `/login/passwordless?challenge=${CHALLENGE}&locale=en`);
    expect(screen.getByRole('link', { name: 'Log in with your device' })).toHaveAttribute('href', `/login/webauthn?challenge=${CHALLENGE}&locale=en`);
    expect(screen.getByRole('link', { name: 'Create account' })).toHaveAttribute('href', `/register?challenge=${CHALLENGE}&locale=en`);
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue with Facebook' })).toBeInTheDocument();
  });

  it('hides what the client or its tenant does not allow (the partner-shop case)', async () => {
    vi.spyOn(browser, 'supportsPublicKeyCredential').mockReturnValue(true);
    serve(loginRequest({}, { permissions: ['users:email:login'], ggApp: null, fbApp: null }));
    await renderApp(`/login?challenge=${CHALLENGE}&locale=en`);
    expect(await screen.findByLabelText(/^Email/)).toHaveAttribute('type', 'email');
    expect(screen.queryByLabelText(/phone/i)).not.toBeInTheDocument();
    for (const name of ['Forgot password?', 'Log in without a password', 'Log in with your device', 'Create account']) {
      expect(screen.queryByRole('link', { name })).not.toBeInTheDocument();
    }
    expect(screen.queryByRole('button', { name: /Google|Facebook/ })).not.toBeInTheDocument();
  });

  it('hides the device login when the browser has no PublicKeyCredential, and the form when the tenant forbids passwords', async () => {
    vi.spyOn(browser, 'supportsPublicKeyCredential').mockReturnValue(false);
    serve(loginRequest({}, { tenant: { ...loginRequest().client.tenant, passwordBasedAuthenticationAllowed: false } }));
    await renderApp(`/login?challenge=${CHALLENGE}&locale=en`);
    expect(await screen.findByRole('link', { name: 'Log in without a password' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Log in with your device' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/Password/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Log in' })).not.toBeInTheDocument();
  });

  it('labels a phone-only field "Phone number" and limits it to 10 characters', async () => {
    serve(loginRequest({}, { permissions: ['users:phoneNumber:login'] }));
    await renderApp(`/login?challenge=${CHALLENGE}`);
    const field = await screen.findByLabelText(/^Số điện thoại/);
    expect(field).toHaveAttribute('maxlength', '10');
    expect(field).toHaveAttribute('type', 'tel');
  });

  it('prefills the username with the login_hint, the field disabled, and signs in as it', async () => {
    const requests = serve(loginRequest({ oidcContext: { loginHint: 'demo@example.com' } }), json(200, { redirectTo: 'http://localhost:3000/oidc/resume' }));
    vi.spyOn(browser, 'assign').mockImplementation(() => {});
    await renderApp(`/login?challenge=${CHALLENGE}`);
    const username = await screen.findByLabelText(/Email hoặc số điện thoại/);
    expect(username).toHaveValue('demo@example.com');
    expect(username).toBeDisabled();
    expect(screen.getByLabelText(/^Mật khẩu/)).toHaveFocus();
    await fillAndSubmit(null, 'Passw0rd!');
    await waitFor(() => expect(requests.some((r) => r.method === 'POST')).toBe(true));
    expect(requests.find((r) => r.method === 'POST')?.body).toMatchObject({ username: 'demo@example.com' });
  });

  it("'Not you?' clears the login_hint's account so another one can sign in", async () => {
    const requests = serve(loginRequest({ oidcContext: { loginHint: 'demo@example.com' } }), json(200, { redirectTo: 'http://localhost:3000/oidc/resume' }));
    vi.spyOn(browser, 'assign').mockImplementation(() => {});
    await renderApp(`/login?challenge=${CHALLENGE}`);
    const username = await screen.findByLabelText(/Email hoặc số điện thoại/);
    const user = userEvent.setup();
    expect(username).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Không phải bạn?' }));
    expect(username).toHaveValue('');
    expect(username).toBeEnabled();
    await waitFor(() => expect(username).toHaveFocus());
    expect(screen.queryByRole('button', { name: 'Không phải bạn?' })).toBeNull();
    await fillAndSubmit('other@example.com', 'Passw0rd!');
    await waitFor(() => expect(requests.some((r) => r.method === 'POST')).toBe(true));
    expect(requests.find((r) => r.method === 'POST')?.body).toMatchObject({ username: 'other@example.com' });
  });

  it('signs in and follows redirectTo, sending snake_case with the client id', async () => {
    const requests = serve(loginRequest(), json(200, { redirectTo: 'http://localhost:3000/oidc/auth/resume-1' }));
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    await renderApp(`/login?challenge=${CHALLENGE}`);
    await fillAndSubmit('demo@example.com', 'Passw0rd!');
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost:3000/oidc/auth/resume-1'));
    const login = requests.find((r) => r.method === 'POST');
    expect(login?.path).toBe('/api/v1/users/login');
    expect(login?.body).toEqual({ challenge: CHALLENGE, username: 'demo@example.com', password: 'Passw0rd!', client_id: 'demo-app' });
    expect(login?.headers.get('accept-language')).toBe('vi');
    expect(screen.getByRole('button', { name: 'Đang đăng nhập…' })).toBeDisabled();
  });

  it('goes straight on when the provider says skip', async () => {
    serve(loginRequest({ skip: true, redirectTo: 'http://localhost:3000/oidc/auth/resume-2' }));
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    await renderApp(`/login?challenge=${CHALLENGE}`);
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost:3000/oidc/auth/resume-2'));
    expect(screen.queryByLabelText(/Mật khẩu/)).not.toBeInTheDocument();
  });

  it.each([
    ['vi', 'Tên đăng nhập hoặc mật khẩu không đúng'],
    ['en', 'Username or password is not correct'],
  ])('shows the mapped message for code 1017 in %s and moves the focus to it', async (locale, message) => {
    serve(loginRequest(), apiError(401, 1017, 'wrong credentials (server text)'));
    await renderApp(`/login?challenge=${CHALLENGE}&locale=${locale}`);
    await fillAndSubmit('demo@example.com', 'Wrong-pass1');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(message);
    await waitFor(() => expect(alert).toHaveFocus());
  });

  it('takes the last answer away on a new try: an empty form after a wrong password shows only what is missing', async () => {
    serve(loginRequest(), apiError(401, 1017, 'wrong credentials'));
    await renderApp(`/login?challenge=${CHALLENGE}&locale=en`);
    const user = await fillAndSubmit('demo@example.com', 'Wrong-pass1');
    expect(await screen.findByRole('alert')).toHaveTextContent('Username or password is not correct');
    await user.clear(screen.getByLabelText(/Email or phone number/));
    await user.clear(screen.getByLabelText(/^Password/));
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Please enter your email or phone number')).toBeInTheDocument();
    expect(screen.queryByText('Username or password is not correct')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByLabelText(/Email or phone number/)).toHaveFocus();
  });

  it("shows 'Cannot connect to Server' when the login call gets no answer", async () => {
    stubFetch({ [REQUEST]: json(200, loginRequest()), [LOGIN]: 'network-error' });
    await renderApp(`/login?challenge=${CHALLENGE}&locale=en`);
    await fillAndSubmit('demo@example.com', 'Passw0rd!');
    expect(await screen.findByRole('alert')).toHaveTextContent('Cannot connect to Server');
  });

  it('goes to the Error screen (500) when the server fails', async () => {
    serve(loginRequest(), apiError(500, 1500, 'Internal Server Error'));
    await renderApp(`/login?challenge=${CHALLENGE}&locale=en`);
    await fillAndSubmit('demo@example.com', 'Passw0rd!');
    expect(await screen.findByRole('heading', { name: 'Internal Server Error' })).toBeInTheDocument();
  });

  it("says 'Sorry, something went wrong there' when the answer has no next step", async () => {
    serve(loginRequest(), json(200, {}));
    await renderApp(`/login?challenge=${CHALLENGE}&locale=en`);
    await fillAndSubmit('demo@example.com', 'Passw0rd!');
    expect(await screen.findByRole('alert')).toHaveTextContent('Sorry, something went wrong there');
  });

  it('sends one login for a double click on Log in after a field error, and stays on the page', async () => {
    let answer: (response: Response) => void = () => undefined;
    const requests = stubFetch({ [REQUEST]: json(200, loginRequest()), [LOGIN]: () => new Promise<Response>((resolve) => (answer = resolve)) });
    await renderApp(`/login?challenge=${CHALLENGE}&locale=en`);
    const user = userEvent.setup();
    const submit = await screen.findByRole('button', { name: 'Log in' });
    await user.click(submit);
    expect(await screen.findByText('Please enter your email or phone number')).toBeInTheDocument();
    await enterText(user, screen.getByLabelText(/Email or phone number/), 'demo@example.com');
    await enterText(user, screen.getByLabelText(/^Password/), 'Wrong-pass1');
    await user.dblClick(submit);
    answer(apiError(401, 1017, 'wrong credentials'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Username or password is not correct');
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    // Still the login screen, with what was typed.
    expect(screen.getByRole('heading', { level: 1, name: 'Log in' })).toBeInTheDocument();
    expect(screen.getByLabelText(/Email or phone number/)).toHaveValue('demo@example.com');
  });

  it('checks the username format and the password before calling the server', async () => {
    const requests = serve(loginRequest());
    await renderApp(`/login?challenge=${CHALLENGE}&locale=en`);
    await fillAndSubmit('not-an-email', 'short');
    expect(await screen.findByText('not-an-email has an invalid format')).toBeInTheDocument();
    expect(screen.getByLabelText(/Email or phone number/)).toHaveFocus();
    expect(screen.getByLabelText(/Email or phone number/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('says an expired challenge is over and leads on, instead of a retry that can only fail', async () => {
    stubFetch({ [REQUEST]: apiError(400, 1026, 'Your request has expired, please retry', 'challenge') });
    await renderApp(`/login?challenge=${CHALLENGE}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Yêu cầu đăng nhập này đã kết thúc' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Thử lại' })).not.toBeInTheDocument();
  });

  it.each([
    ['en', 120, 'This account is temporarily locked; try again in 2 minutes.'],
    ['en', 60, 'This account is temporarily locked; try again in 1 minute.'],
    ['vi', 960, 'Tài khoản đang bị tạm khóa; vui lòng thử lại sau 16 phút.'],
  ])('says how long a locked account stays locked (%s, %i s)', async (locale, retryAfter, message) => {
    serve(loginRequest(), json(403, { error: { code: 1302, message: 'User is temporarily blocked', retryAfter } }));
    await renderApp(`/login?challenge=${CHALLENGE}&locale=${locale}`);
    await fillAndSubmit('demo@example.com', 'Passw0rd!');
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });

  it("uses the client's language unless the user chose one", async () => {
    serve(loginRequest({}, { i18n: { defaultLocale: 'en' } }));
    await renderApp(`/login?challenge=${CHALLENGE}`);
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeInTheDocument();
  });

  it("follows the language the client asked for in this sign-in (ui_locales) over its default", async () => {
    serve(loginRequest({ oidcContext: { uiLocales: 'en' } }, { i18n: { defaultLocale: 'vi' } }));
    await renderApp(`/login?challenge=${CHALLENGE}`);
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeInTheDocument();
  });

  it('keeps the language the user chose over the client\'s', async () => {
    window.localStorage.setItem('passgate.locale', 'vi');
    serve(loginRequest({}, { i18n: { defaultLocale: 'en' } }));
    await renderApp(`/login?challenge=${CHALLENGE}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Đăng nhập' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Đăng nhập' })).toBeInTheDocument();
  });

  it('switches language with the switcher and remembers the choice', async () => {
    serve(loginRequest());
    await renderApp(`/login?challenge=${CHALLENGE}`);
    const user = userEvent.setup();
    const switcher = await screen.findByRole('group', { name: 'Ngôn ngữ' });
    await user.click(within(switcher).getByRole('button', { name: 'EN – English' }));
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(window.localStorage.getItem('passgate.locale')).toBe('en');
    expect(within(screen.getByRole('group', { name: 'Language' })).getByRole('button', { name: 'EN – English' })).toHaveAttribute('aria-pressed', 'true');
  });
});

describe('Login screen, next steps', () => {
  function renderWithNextSteps() {
    return renderInRouter(
      `/login?challenge=${CHALLENGE}`,
      <Routes>
        <Route path="/login" element={<Login />} />
        <Route path="*" element={<LocationProbe />} />
      </Routes>,
    );
  }

  it('goes to the 2-step screen with the token type, MFA token, username and challenge', async () => {
    serve(loginRequest(), json(200, { mfaRequired: true, tokenType: 'totp', mfaToken: 'mfa-1' }));
    await renderWithNextSteps();
    await fillAndSubmit('demo@example.com', 'Passw0rd!');
    const location = await screen.findByTestId('location');
    expect(location).toHaveTextContent(`/login/mfa?challenge=${CHALLENGE}`);
    expect(JSON.parse(location.dataset.state ?? 'null')).toEqual({ tokenType: 'totp', mfaToken: 'mfa-1', username: 'demo@example.com', challenge: CHALLENGE });
  });

  it('goes to the password-expiring screen first when the server warns', async () => {
    serve(
      loginRequest(),
      json(200, { mfaRequired: true, tokenType: 'sms', mfaToken: 'mfa-2', passwordWarning: { expiresAt: 1_900_000_000, daysLeft: 3 } }),
    );
    await renderWithNextSteps();
    await fillAndSubmit('demo@example.com', 'Passw0rd!');
    const location = await screen.findByTestId('location');
    expect(location).toHaveTextContent(`/password/coming-expire?challenge=${CHALLENGE}`);
    expect(JSON.parse(location.dataset.state ?? 'null')).toMatchObject({ mfaRequired: true, tokenType: 'sms', mfaToken: 'mfa-2', username: 'demo@example.com' });
  });

  it("offers 'Resend activation code' with the username when the account is not activated (1011)", async () => {
    serve(loginRequest(), apiError(403, 1011, 'not activated'));
    await renderWithNextSteps();
    const user = await fillAndSubmit('new.user@example.com', 'Passw0rd!');
    expect(await screen.findByRole('alert')).toHaveTextContent('Tài khoản của bạn đã được đăng ký nhưng chưa kích hoạt');
    await user.click(screen.getByRole('link', { name: 'Gửi lại mã kích hoạt' }));
    const location = await screen.findByTestId('location');
    expect(location).toHaveTextContent(`/activation/resend?challenge=${CHALLENGE}`);
    expect(JSON.parse(location.dataset.state ?? 'null')).toEqual({ username: 'new.user@example.com' });
  });

  it("offers only 'Reset password' when the password has expired (1103)", async () => {
    serve(loginRequest(), apiError(403, 1103, 'expired'));
    await renderWithNextSteps();
    const user = await fillAndSubmit('demo@example.com', 'Passw0rd!');
    expect(await screen.findByRole('alert')).toHaveTextContent('Mật khẩu của bạn đã hết hạn');
    expect(screen.queryByRole('link', { name: 'Gửi lại mã kích hoạt' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Đặt lại mật khẩu' }));
    const location = await screen.findByTestId('location');
    expect(location).toHaveTextContent(`/password/recover?challenge=${CHALLENGE}`);
    expect(JSON.parse(location.dataset.state ?? 'null')).toEqual({ username: 'demo@example.com' });
  });

  it('offers neither to a client that may not register or reset', async () => {
    serve(loginRequest({}, { permissions: ['users:email:login'] }), apiError(403, 1011, 'not activated'));
    await renderWithNextSteps();
    await fillAndSubmit('new.user@example.com', 'Passw0rd!');
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Gửi lại mã kích hoạt' })).not.toBeInTheDocument();
  });
});

describe('Login screen, arriving from the visitor flow', () => {
  it.each([
    ['accountActivated', 'Your account is now active'],
    ['passwordUpdated', 'Update Password successfully'],
  ])('shows the %s message and the username, with the focus on the password', async (notice, message) => {
    serve(loginRequest());
    await renderApp(`/login?challenge=${CHALLENGE}&locale=en`, { notice, username: 'demo@example.com' });
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByLabelText(/Email or phone number/)).toHaveValue('demo@example.com');
    expect(screen.getByLabelText(/^Password/, { selector: 'input' })).toHaveFocus();
  });
});
