import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { LoginRequestInfo, PublicClient } from '@passgate/contract';
import { changeLanguage } from '../../i18n/i18n.ts';
import { apiError, json, stubFetch, type RecordedRequest } from '../../test/fetch-stub.ts';
import { loginRequest, tenant } from '../../test/fixtures.ts';
import { enterText } from '../../test/enter-text.ts';
import { LocationProbe, renderApp, renderInRouter } from '../../test/render.tsx';
import Register from './Register.tsx';

const CHALLENGE = 'challenge-1';
const REQUEST = `GET /api/v1/requests/login/${CHALLENGE}`;
const REGISTER = 'POST /api/v1/users/register';

function serve(info: LoginRequestInfo, register?: Response) {
  return stubFetch({ [REQUEST]: json(200, info), ...(register ? { [REGISTER]: register } : {}) });
}

/** Register at /register, anything else shows where the router went. */
async function renderRegister(client: Partial<PublicClient> = {}, register?: Response, request: Partial<LoginRequestInfo> = {}) {
  await changeLanguage('en');
  const requests = serve(loginRequest(request, client), register);
  await renderInRouter(
    `/register?challenge=${CHALLENGE}&locale=en`,
    <Routes>
      <Route path="/register" element={<Register />} />
      <Route path="*" element={<LocationProbe />} />
    </Routes>,
  );
  await screen.findByRole('heading', { level: 1, name: 'Create account' });
  return requests;
}

async function fill(user: ReturnType<typeof userEvent.setup>, values: { username?: string; name?: string; password?: string; confirm?: string } = {}) {
  const { username = 'new.user@example.com', name = 'Nguyễn Văn A', password = 'Secret123', confirm = password } = values;
  if (username) await enterText(user, screen.getByLabelText(/^Email or phone number/), username);
  if (name) await enterText(user, screen.getByLabelText(/^Full name/), name);
  if (password) await enterText(user, screen.getByLabelText(/^Password/, { selector: 'input' }), password);
  if (confirm) await enterText(user, screen.getByLabelText(/^Confirm password/), confirm);
}

const registerButton = () => screen.getByRole('button', { name: 'Register' });
const posts = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'POST');

describe('Register screen', () => {
  it("starts with the relying party's login_hint as the username, which stays editable", async () => {
    await renderRegister({}, undefined, { oidcContext: { loginHint: ' ann@example.com ' } });
    const field = screen.getByLabelText(/^Email or phone number/);
    expect(field).toHaveValue('ann@example.com');
    expect(field).toBeEnabled();
    const user = userEvent.setup();
    await user.clear(field);
    await enterText(user, field, 'other@example.com');
    expect(field).toHaveValue('other@example.com');
  });

  it('keeps Register disabled until the policy box is ticked', async () => {
    await renderRegister();
    const user = userEvent.setup();
    await fill(user);
    expect(registerButton()).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: /I agree to the Terms and Privacy Policy/ }));
    expect(registerButton()).toBeEnabled();
    await user.click(screen.getByRole('checkbox', { name: /I agree/ }));
    expect(registerButton()).toBeDisabled();
  });

  it("also needs the tenant's custom box when it has one, with its links", async () => {
    const customRegisterCheckbox = { name: 'I want news from Demo', termUrl: 'https://demo.example/news-terms', policyUrl: 'https://demo.example/news-policy' };
    await renderRegister({ tenant: tenant({ customRegisterCheckbox }) });
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: /I agree/ }));
    expect(registerButton()).toBeDisabled();
    const custom = screen.getByRole('checkbox', { name: /I want news from Demo/ });
    expect(screen.getByRole('link', { name: 'Terms' })).toHaveAttribute('href', 'https://demo.example/news-terms');
    expect(screen.getByRole('link', { name: 'Policy' })).toHaveAttribute('href', 'https://demo.example/news-policy');
    await user.click(custom);
    expect(registerButton()).toBeEnabled();
  });

  it("words the tenant's custom box in the page's language when the tenant gives that text", async () => {
    const customRegisterCheckbox = { name: 'Tôi muốn nhận tin từ Demo', nameI18n: { en: 'I want news from Demo' } };
    await renderRegister({ tenant: tenant({ customRegisterCheckbox }) });
    expect(screen.getByRole('checkbox', { name: /I want news from Demo/ })).toBeInTheDocument();
    expect(screen.queryByText(/Tôi muốn nhận tin/)).not.toBeInTheDocument();
  });

  it("links the policy text to the client's terms and privacy, else the tenant's", async () => {
    await renderRegister({
      termsPrivacy: { termsUri: 'https://client.example/terms' },
      tenant: tenant({ termsUri: 'https://tenant.example/terms', privacyUri: 'https://tenant.example/privacy' }),
    });
    const agreement = screen.getByText(/I agree to the/);
    expect(within(agreement).getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', 'https://client.example/terms');
    expect(within(agreement).getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', 'https://tenant.example/privacy');
    expect(screen.queryByRole('button', { name: 'Terms and Privacy Policy' })).not.toBeInTheDocument();
  });

  it('opens the embedded policy document with OK when there are no terms or privacy addresses', async () => {
    await renderRegister();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Terms and Privacy Policy' }));
    const dialog = await screen.findByRole('dialog', { name: 'Terms and Privacy Policy' });
    expect(within(dialog).getByRole('heading', { name: /Dữ liệu chúng tôi thu thập/ })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('checkbox', { name: /I agree/ })).not.toBeChecked();
  });

  it.each([
    [{ minLength: 8, uppercase: 1, number: 1, special: 0 }, ['At least 8 characters', 'At least 1 uppercase letter', 'At least 1 number']],
    [{ minLength: 6, uppercase: 0, number: 0, special: 0 }, ['At least 6 characters']],
    [{ minLength: 12, uppercase: 2, number: 0, special: 1 }, ['At least 12 characters', 'At least 2 uppercase letters', 'At least 1 special character, such as ! @ # $ % or a space']],
  ])("lists exactly the tenant's password requirements in the tooltip (%j)", async (passwordPolicy, expected) => {
    await renderRegister({ tenant: tenant({ passwordPolicy }) });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Password requirements' }));
    const tooltip = await screen.findByRole('tooltip');
    expect(within(tooltip).getByText('Your password must have:')).toBeInTheDocument();
    expect(within(tooltip).getAllByRole('listitem').map((item) => item.textContent)).toEqual(expected);
    // The field itself is described by the same list, for screen readers.
    expect(screen.getByLabelText(/^Password/, { selector: 'input' })).toHaveAccessibleDescription(`Your password must have: ${expected.join('; ')}.`);
  });

  it('checks every field before calling the server: format, blank name, policy, confirmation', async () => {
    const requests = await renderRegister();
    const user = userEvent.setup();
    await fill(user, { username: 'not-an-email', name: '   ', password: 'secret', confirm: 'other' });
    await user.click(screen.getByRole('checkbox', { name: /I agree/ }));
    await user.click(registerButton());
    expect(screen.getByText('not-an-email has an invalid format')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Email or phone number/)).toHaveFocus();
    expect(screen.getByText('Please enter your full name')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(posts(requests)).toEqual([]);
  });

  it('blocks the submit while the confirmation does not match', async () => {
    const requests = await renderRegister({}, json(200, { username: 'new.user@example.com', channel: 'email' }));
    const user = userEvent.setup();
    await fill(user, { password: 'Secret123', confirm: 'Secret124' });
    await user.click(screen.getByRole('checkbox', { name: /I agree/ }));
    await user.click(registerButton());
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Confirm password/)).toHaveFocus();
    expect(posts(requests)).toEqual([]);
  });

  it('registers with the client id and the challenge, then goes to Activation with the username', async () => {
    const requests = await renderRegister({}, json(200, { username: 'new.user@example.com', channel: 'email' }));
    const user = userEvent.setup();
    await fill(user, { username: ' New.User@example.com ' });
    await user.click(screen.getByRole('checkbox', { name: /I agree/ }));
    await user.click(registerButton());
    const location = await screen.findByTestId('location');
    expect(location).toHaveTextContent(`/activation?challenge=${CHALLENGE}&locale=en`);
    expect(JSON.parse(location.dataset.state ?? 'null')).toEqual({ username: 'new.user@example.com' });
    expect(posts(requests)).toHaveLength(1);
    expect(posts(requests)[0]?.body).toEqual({
      client_id: 'demo-app',
      username: 'New.User@example.com',
      password: 'Secret123',
      name: 'Nguyễn Văn A',
      challenge: CHALLENGE,
    });
  });

  it('attaches a reCAPTCHA token when the client has it configured', async () => {
    const execute = vi.fn(async () => 'recaptcha-token-1');
    vi.stubGlobal('grecaptcha', { ready: (callback: () => void) => callback(), execute });
    const requests = await renderRegister({ recaptchaConfiguration: { enabled: true, siteKey: 'site-key-1' } }, json(200, { username: 'new.user@example.com', channel: 'email' }));
    expect(screen.getByText(/This site is protected by reCAPTCHA/)).toBeInTheDocument();
    const user = userEvent.setup();
    await fill(user);
    await user.click(screen.getByRole('checkbox', { name: /I agree/ }));
    await user.click(registerButton());
    await screen.findByTestId('location');
    expect(execute).toHaveBeenCalledWith('site-key-1', { action: 'register' });
    expect(posts(requests)[0]?.body).toMatchObject({ recaptcha_token: 'recaptcha-token-1' });
  });

  it.each([
    [1020, 'Email is already registered'],
    [1018, 'Username is already taken'],
    [1016, 'Email is not valid'],
  ])('shows %i once, beside the username field, which takes the focus', async (code, message) => {
    await renderRegister({}, apiError(409, code, 'server text'));
    const user = userEvent.setup();
    await fill(user);
    await user.click(screen.getByRole('checkbox', { name: /I agree/ }));
    await user.click(registerButton());
    const field = screen.getByLabelText(/^Email or phone number/);
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveAccessibleDescription(message);
    await waitFor(() => expect(field).toHaveFocus());
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getAllByText(message)).toHaveLength(1);
    expect(registerButton()).toBeEnabled();
  });

  it('says a too common password (1104) beside the password field, under a strength meter', async () => {
    await renderRegister({}, apiError(400, 1104, 'too common', 'password'));
    const user = userEvent.setup();
    await fill(user, { password: 'Password123' });
    expect(await screen.findByRole('meter', { name: 'Password strength' })).toHaveAttribute('aria-valuetext', 'Weak');
    await user.click(screen.getByRole('checkbox', { name: /I agree/ }));
    await user.click(registerButton());
    const message = 'This password is too common and appears in data breaches, please choose another one';
    const password = screen.getByLabelText(/^Password/, { selector: 'input' });
    await waitFor(() => expect(password).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getAllByText(message)).toHaveLength(1);
    await waitFor(() => expect(password).toHaveFocus());
    expect(password).toHaveAccessibleDescription(expect.stringContaining(message));
  });

  it('marks the password field for a 1002 naming it', async () => {
    await renderRegister({}, apiError(400, 1002, 'Invalid field', 'password'));
    const user = userEvent.setup();
    await fill(user);
    await user.click(screen.getByRole('checkbox', { name: /I agree/ }));
    await user.click(registerButton());
    const password = screen.getByLabelText(/^Password/, { selector: 'input' });
    await waitFor(() => expect(password).toHaveAttribute('aria-invalid', 'true'));
    expect(password).toHaveAccessibleDescription(expect.stringContaining('Some of the information you entered is not valid'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByLabelText(/^Email or phone number/)).toHaveAttribute('aria-invalid', 'false');
  });

  it.each([
    [429, 1290, 'Too many requests, please try again later'],
    [403, 1301, 'The client does not have permission for this action'],
    [403, 1303, 'The tenant does not allow this action'],
  ])('says what a %i with %i means, marking no field', async (status, code, message) => {
    await renderRegister({}, apiError(status, code, 'server text'));
    const user = userEvent.setup();
    await fill(user);
    await user.click(screen.getByRole('checkbox', { name: /I agree/ }));
    await user.click(registerButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(document.querySelectorAll('input[aria-invalid="true"]')).toHaveLength(0);
  });

  it('says a refusal naming a field the screen does not have above the form, not nowhere', async () => {
    await renderRegister({}, apiError(400, 1002, 'Invalid field', 'code'));
    const user = userEvent.setup();
    await fill(user);
    await user.click(screen.getByRole('checkbox', { name: /I agree/ }));
    await user.click(registerButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Some of the information you entered is not valid');
    expect(document.querySelectorAll('input[aria-invalid="true"]')).toHaveLength(0);
  });

  it('takes the last answer away on a new try that fails its own checks', async () => {
    const requests = await renderRegister({}, apiError(403, 1303, 'server text'));
    const user = userEvent.setup();
    await fill(user);
    await user.click(screen.getByRole('checkbox', { name: /I agree/ }));
    await user.click(registerButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('The tenant does not allow this action');

    await user.clear(screen.getByLabelText(/^Full name/));
    await user.click(registerButton());
    expect(await screen.findByText('Please enter your full name')).toBeInTheDocument();
    expect(screen.queryByText('The tenant does not allow this action')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByLabelText(/^Full name/)).toHaveFocus();
    expect(posts(requests)).toHaveLength(1);
  });

  it("says 'Registration failed' for a refusal the catalogue does not know", async () => {
    await renderRegister({}, apiError(400, 4242, 'Something odd'));
    const user = userEvent.setup();
    await fill(user);
    await user.click(screen.getByRole('checkbox', { name: /I agree/ }));
    await user.click(registerButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Registration failed');
  });

  it('labels a phone-only client "Phone number" and limits it to 10 characters', async () => {
    await renderRegister({ permissions: ['users:phoneNumber:register', 'users:email:login'] });
    const field = screen.getByLabelText(/^Phone number/);
    expect(field).toHaveAttribute('maxlength', '10');
    expect(field).toHaveAttribute('type', 'tel');
  });

  it('goes to Error 403 for a client that may not register, in its theme, and Back leads to its Login screen', async () => {
    serve(loginRequest({}, { permissions: ['users:email:login'] }));
    // Opened on its own, as a typed or shared address is: no page of the app to go back to.
    await renderApp(`/register?challenge=${CHALLENGE}&client_id=demo-app&locale=en`);
    expect(await screen.findByRole('heading', { name: 'Forbidden' })).toBeInTheDocument();
    expect(document.title).toBe('Forbidden · Demo App');
    // The same sign-in (its request, its client, its language), not the account area's.
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', `/login?challenge=${CHALLENGE}&client_id=demo-app&locale=en`);
  });

  it('speaks Vietnamese by default, keeping the challenge and locale in its links', async () => {
    serve(loginRequest());
    await renderApp(`/register?challenge=${CHALLENGE}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Tạo tài khoản' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Đăng ký' })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Đăng nhập' })).toHaveAttribute('href', `/login?challenge=${CHALLENGE}`);
  });
});
