import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../i18n/i18n.ts';
import { browser } from '../../lib/browser.ts';
import { enterText } from '../../test/enter-text.ts';
import { apiError, json, stubFetch, type RecordedRequest } from '../../test/fetch-stub.ts';
import { loginRequest, tenant } from '../../test/fixtures.ts';
import { advanceClock, freezeClock } from '../../test/clock.ts';
import { renderApp } from '../../test/render.tsx';
import { webauthnBrowser } from './webauthn-browser.ts';

const CHALLENGE = 'challenge-1';
const REQUEST = `GET /api/v1/requests/login/${CHALLENGE}`;
const START = 'POST /api/v2/get-challenge';
const RESOLVE = 'POST /api/v2/resolve-challenge';
const POLL = 'POST /api/v2/device-login/poll';
const RESUME = 'http://localhost:3000/oidc/auth/resume-1';
const VERIFY_URL = `http://localhost:3000/login/webauthn/verify-device?challenge=${CHALLENGE}&authnChallenge=dl-1`;
const QR = 'data:image/png;base64,iVBORw0KGgo=';
const REQUEST_GONE_HEADING = 'This sign-in is no longer open';
const OPTIONS = { challenge: 'c2lnbi1pbg', rpId: 'localhost', allowCredentials: [{ id: 'Y3JlZA', type: 'public-key' }], userVerification: 'preferred' };
const ASSERTION = {
  id: 'Y3JlZA',
  rawId: 'Y3JlZA',
  type: 'public-key' as const,
  response: { clientDataJSON: 'e30', authenticatorData: 'YXV0aA', signature: 'c2ln', userHandle: 'dXNlcg' },
  clientExtensionResults: {},
};

const started = json(200, {
  challenge: 'dl-1',
  expiresIn: 300,
  verifyUrl: VERIFY_URL,
  qrCode: QR,
  challengeRequest: { redirectUrlKey: 'key-1', getRedirectUrlChallenge: 'dl-1', publickeyCredentialRequestOptions: OPTIONS },
});
const pending = () => apiError(409, 1200, 'Pending');
const posts = (requests: RecordedRequest[], path: string) => requests.filter((r) => r.method === 'POST' && r.path === path);

/** A browser whose authenticator refuses (cancelled, or no credential of this account on it). */
function authenticatorRefuses() {
  vi.spyOn(webauthnBrowser, 'supported').mockReturnValue(true);
  return vi.spyOn(webauthnBrowser, 'authenticate').mockRejectedValue(Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' }));
}

async function renderDeviceLogin(answers: Parameters<typeof stubFetch>[0] = {}) {
  await changeLanguage('en');
  const requests = stubFetch({ [REQUEST]: json(200, loginRequest()), [START]: started, [POLL]: pending, ...answers });
  await renderApp(`/login/webauthn?challenge=${CHALLENGE}&locale=en`);
  await screen.findByRole('heading', { level: 1, name: 'Log in with your device' });
  return requests;
}

async function logIn(user: ReturnType<typeof userEvent.setup>, username = 'demo@example.com') {
  await enterText(user, screen.getByLabelText(/^Email or phone number/), username);
  await user.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('LoginWebAuthn screen', () => {
  it('goes to Error 403 when the tenant does not allow devices', async () => {
    await changeLanguage('en');
    stubFetch({ [REQUEST]: json(200, loginRequest({}, { tenant: tenant({ webauthnAllowed: false }) })) });
    await renderApp(`/login/webauthn?challenge=${CHALLENGE}&locale=en`);
    expect(await screen.findByRole('heading', { name: 'Forbidden' })).toBeInTheDocument();
  });

  it('checks the username: a valid e-mail or a 10-digit phone', async () => {
    const requests = await renderDeviceLogin();
    const user = userEvent.setup();
    await logIn(user, '12345');
    expect(screen.getByText('12345 has an invalid format')).toBeInTheDocument();
    expect(posts(requests, '/api/v2/get-challenge')).toEqual([]);
  });

  it('signs in with this browser’s authenticator: asks it, approves, polls once and follows redirectTo', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    vi.spyOn(webauthnBrowser, 'supported').mockReturnValue(true);
    const authenticate = vi.spyOn(webauthnBrowser, 'authenticate').mockResolvedValue(ASSERTION);
    const requests = await renderDeviceLogin({ [RESOLVE]: json(200, { approved: true }), [POLL]: json(200, { code: 'approved', redirectTo: RESUME }) });
    await logIn(userEvent.setup());

    await waitFor(() => expect(assign).toHaveBeenCalledWith(RESUME));
    expect(posts(requests, '/api/v2/get-challenge')[0]?.body).toEqual({ challenge_type: 'AUTHN_WEBAUTHN', client_id: 'demo-app', oauth_challenge: CHALLENGE, username: 'demo@example.com' });
    expect(authenticate).toHaveBeenCalledWith(OPTIONS);
    expect(posts(requests, '/api/v2/resolve-challenge')[0]?.body).toEqual({
      challenge_type: 'AUTHN_WEBAUTHN',
      challenge: 'dl-1',
      oauth_challenge: CHALLENGE,
      publickey_credential: ASSERTION,
      client_id: 'demo-app',
    });
    expect(posts(requests, '/api/v2/device-login/poll')).toHaveLength(1);
    expect(posts(requests, '/api/v2/device-login/poll')[0]?.body).toEqual({ challenge: 'dl-1', redirect_url_key: 'key-1', oauth_challenge: CHALLENGE });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the QR code when the local attempt fails, polls every second past "pending", and follows redirectTo', async () => {
    freezeClock();
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    authenticatorRefuses();
    let polls = 0;
    const requests = await renderDeviceLogin({ [POLL]: () => (++polls < 3 ? pending() : json(200, { code: 'approved', redirectTo: RESUME })) });
    await logIn(userEvent.setup());

    const dialog = await screen.findByRole('dialog', { name: 'Verify on another device' });
    const qr = within(dialog).getByRole('img', { name: 'QR code of the verification link' });
    expect(qr).toHaveAttribute('src', QR);
    expect(qr).toHaveAttribute('width', '150');
    expect(within(dialog).getByRole('link', { name: VERIFY_URL })).toHaveAttribute('href', VERIFY_URL);
    expect(within(dialog).getByText('Waiting for device verification')).toBeInTheDocument();
    expect(within(dialog).getByText('Please do not reload this page')).toBeInTheDocument();
    expect(within(dialog).getByText('Expires in 5:00')).toBeInTheDocument();
    // The first device never resolved: only the second one can approve.
    expect(posts(requests, '/api/v2/resolve-challenge')).toEqual([]);

    await waitFor(() => expect(assign).toHaveBeenCalledWith(RESUME));
    expect(polls).toBe(3);
    // "Pending" was passed over silently.
    expect(screen.queryByText('Pending')).toBeNull();
  });

  it('shows the QR code when the server refuses this device’s assertion (1102)', async () => {
    vi.spyOn(webauthnBrowser, 'supported').mockReturnValue(true);
    vi.spyOn(webauthnBrowser, 'authenticate').mockResolvedValue(ASSERTION);
    await renderDeviceLogin({ [RESOLVE]: apiError(400, 1102, 'not authenticated', 'publickey_credential') });
    await logIn(userEvent.setup());
    expect(await screen.findByRole('dialog', { name: 'Verify on another device' })).toBeInTheDocument();
    expect(screen.queryByText('User is not authenticated or credentials are invalid')).toBeNull();
  });

  it('expires after 300 seconds: "Your request has expired" and the form again', async () => {
    freezeClock();
    authenticatorRefuses();
    const requests = await renderDeviceLogin();
    await logIn(userEvent.setup());
    const dialog = await screen.findByRole('dialog', { name: 'Verify on another device' });

    advanceClock(150_000);
    expect(await within(dialog).findByText('Expires in 2:30')).toBeInTheDocument();
    advanceClock(150_000);
    expect(await screen.findByText('Your request has expired')).toBeInTheDocument();
    // The closing dialog hands the page back to assistive technology a moment after it leaves.
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeEnabled();
    expect(screen.queryByRole('dialog')).toBeNull();
    // Nothing polls once the request expired.
    const count = posts(requests, '/api/v2/device-login/poll').length;
    // Polls are a second apart (real timers): a poll still scheduled would have run by now.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(posts(requests, '/api/v2/device-login/poll')).toHaveLength(count);
  });

  it('resets on a poll error other than "pending" and shows its message', async () => {
    authenticatorRefuses();
    await renderDeviceLogin({ [POLL]: apiError(400, 1026, 'expired') });
    await logIn(userEvent.setup());
    await screen.findByRole('dialog', { name: 'Verify on another device' });
    expect(await screen.findByText('Your request has expired, please retry')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeEnabled();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a device request refused on the other device (1026 on its challenge) brings the form back with what happened, on this page', async () => {
    authenticatorRefuses();
    const requests = await renderDeviceLogin({ [POLL]: apiError(400, 1026, 'Request expired', 'challenge') });
    await logIn(userEvent.setup());
    await screen.findByRole('dialog', { name: 'Verify on another device' });
    expect(await screen.findByText(/This device sign-in has ended: it was refused on the other device/)).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeEnabled();
    // Still the sign-in request's own screen: the person can start again, or use the password.
    expect(screen.getByRole('heading', { level: 1, name: 'Log in with your device' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 1, name: REQUEST_GONE_HEADING })).toBeNull();
    const count = posts(requests, '/api/v2/device-login/poll').length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(posts(requests, '/api/v2/device-login/poll')).toHaveLength(count);
  });

  it('a sign-in request that is gone (1026 on oauth_challenge) leads to the screen that says so', async () => {
    authenticatorRefuses();
    await renderDeviceLogin({ [POLL]: apiError(400, 1026, 'Request expired', 'oauth_challenge') });
    await logIn(userEvent.setup());
    expect(await screen.findByRole('heading', { level: 1, name: REQUEST_GONE_HEADING })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 1, name: 'Log in with your device' })).toBeNull();
  });

  it('says "You do not have any active credentials" (1027) and asks no authenticator', async () => {
    const authenticate = authenticatorRefuses();
    await renderDeviceLogin({ [START]: apiError(404, 1027, 'no credentials') });
    await logIn(userEvent.setup(), '0912345678');
    expect(await screen.findByRole('alert')).toHaveTextContent('You do not have any active credentials');
    expect(authenticate).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('takes the last answer away on a new try that fails its own checks: an empty field after 1027 shows only what is missing', async () => {
    const requests = await renderDeviceLogin({ [START]: apiError(404, 1027, 'no credentials') });
    const user = userEvent.setup();
    await logIn(user, '0912345678');
    expect(await screen.findByRole('alert')).toHaveTextContent('You do not have any active credentials');

    const field = screen.getByLabelText(/^Email or phone number/);
    await user.clear(field);
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Please enter your email or phone number')).toBeInTheDocument();
    expect(screen.queryByText('You do not have any active credentials')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(field).toHaveFocus();
    expect(posts(requests, '/api/v2/get-challenge')).toHaveLength(1);
  });

  it('says a refused username (1014) beside the field, where the own check of a new try then replaces it', async () => {
    await renderDeviceLogin({ [START]: apiError(400, 1014, 'Phone number or email is not valid', 'username') });
    const user = userEvent.setup();
    await logIn(user, 'someone@example.com');
    const field = screen.getByLabelText(/^Email or phone number/);
    await waitFor(() => expect(field).toHaveAccessibleDescription('Phone number or email is not valid'));

    await user.clear(field);
    await user.type(field, '12345{Enter}');
    await waitFor(() => expect(field).toHaveAccessibleDescription('12345 has an invalid format'));
    expect(screen.queryByText('Phone number or email is not valid')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a new try that fails its own checks also takes away that the last device sign-in ended', async () => {
    authenticatorRefuses();
    await renderDeviceLogin({ [POLL]: apiError(400, 1026, 'Request expired', 'challenge') });
    const user = userEvent.setup();
    await logIn(user);
    expect(await screen.findByText(/This device sign-in has ended/)).toBeInTheDocument();
    await screen.findByRole('button', { name: 'Log in' });

    await user.clear(screen.getByLabelText(/^Email or phone number/));
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Please enter your email or phone number')).toBeInTheDocument();
    expect(screen.queryByText(/This device sign-in has ended/)).toBeNull();
  });

  it('Cancel in the dialog stops waiting', async () => {
    authenticatorRefuses();
    const requests = await renderDeviceLogin();
    const user = userEvent.setup();
    await logIn(user);
    const dialog = await screen.findByRole('dialog', { name: 'Verify on another device' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const count = posts(requests, '/api/v2/device-login/poll').length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(posts(requests, '/api/v2/device-login/poll')).toHaveLength(count);
  });
});
