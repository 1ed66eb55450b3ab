import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../i18n/i18n.ts';
import { apiError, json, stubFetch, type RecordedRequest } from '../../test/fetch-stub.ts';
import { loginRequest } from '../../test/fixtures.ts';
import { advanceClock, freezeClock } from '../../test/clock.ts';
import { LocationProbe, renderInRouter } from '../../test/render.tsx';
import { AppRoutes } from '../../App.tsx';
import { webauthnBrowser } from './webauthn-browser.ts';

const CHALLENGE = 'challenge-1';
const PATH = `/login/webauthn/verify-device?challenge=${CHALLENGE}&authnChallenge=dl-1&locale=en`;
const OPTIONS = { challenge: 'c2lnbi1pbg', rpId: 'localhost', allowCredentials: [{ id: 'Y3JlZA', type: 'public-key' as const }] };
const ASSERTION = {
  id: 'Y3JlZA',
  rawId: 'Y3JlZA',
  type: 'public-key' as const,
  response: { clientDataJSON: 'e30', authenticatorData: 'YXV0aA', signature: 'c2ln' },
  clientExtensionResults: {},
};
const REQUESTED_AT = '2026-11-27T01:15:00.000Z';
const REQUESTER = { browser: 'Chrome 156', os: 'Linux', ip: '203.0.113.5', place: 'Hanoi, Vietnam', requestedAt: REQUESTED_AT };
/** The time as the page's language writes it, in the time zone the test runs in. */
const timeIn = (language: 'en' | 'vi') => new Intl.DateTimeFormat(language === 'en' ? 'en-GB' : 'vi-VN', { timeStyle: 'short' }).format(new Date(REQUESTED_AT));
const posts = (requests: RecordedRequest[], path: string) => requests.filter((r) => r.method === 'POST' && r.path === path);

async function openVerify(routes: Parameters<typeof stubFetch>[0] = {}, path = PATH, language: 'en' | 'vi' = 'en') {
  await changeLanguage(language);
  const requests = stubFetch({
    [`GET /api/v1/requests/login/${CHALLENGE}`]: json(200, loginRequest()),
    'GET /api/v2/device-login/dl-1': json(200, { clientName: 'Demo App', username: 'd***@example.com', expiresIn: 280, publickeyCredentialRequestOptions: OPTIONS, requester: REQUESTER }),
    ...routes,
  });
  await renderInRouter(
    path,
    <>
      <AppRoutes />
      <LocationProbe />
    </>,
  );
  return { requests, user: userEvent.setup(vi.isFakeTimers() ? { advanceTimers: vi.advanceTimersByTime } : {}) };
}

describe('VerifyDevice screen (the second device)', () => {
  it('goes to Error 400 (not 500: the server is not at fault) without authnChallenge', async () => {
    await openVerify({}, `/login/webauthn/verify-device?challenge=${CHALLENGE}&locale=en`);
    expect(await screen.findByRole('heading', { name: 'Bad Request' })).toBeInTheDocument();
  });

  it('asks "You are logging on to" the client, approves with this device’s credential, then counts 5 s to the dashboard', async () => {
    freezeClock();
    vi.spyOn(webauthnBrowser, 'authenticate').mockResolvedValue(ASSERTION);
    const { requests, user } = await openVerify({ 'POST /api/v2/resolve-challenge': json(200, { approved: true }) });
    const confirmation = await screen.findByRole('dialog', { name: 'You are logging on to Demo App' });
    expect(confirmation).toHaveTextContent('Are you sure you want to do this?');
    expect(confirmation).toHaveTextContent('Account: d***@example.com');
    expect(requests.find((r) => r.path === '/api/v2/device-login/dl-1')).toBeDefined();

    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Your device has been verified. Continue on your other device.')).toBeInTheDocument();
    expect(webauthnBrowser.authenticate).toHaveBeenCalledWith(OPTIONS);
    expect(posts(requests, '/api/v2/resolve-challenge')[0]?.body).toEqual({
      challenge_type: 'AUTHN_WEBAUTHN',
      challenge: 'dl-1',
      oauth_challenge: CHALLENGE,
      publickey_credential: ASSERTION,
      client_id: 'demo-app',
    });
    expect(screen.getByText('Going to your account in 5 s…')).toBeInTheDocument();
    advanceClock(5_000);
    // The account area is a lazy chunk: the router shows the new location once it is loaded.
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/user\/dashboard/));
  });

  it.each([
    ['the authenticator refuses', () => Promise.reject(Object.assign(new Error('no'), { name: 'NotAllowedError' })), {}],
    ['the server refuses the assertion', () => Promise.resolve(ASSERTION), { 'POST /api/v2/resolve-challenge': apiError(400, 1102, 'refused') }],
  ])('says "Verify device failed" and "Please close this tab and try again" when %s', async (_, answer, routes) => {
    vi.spyOn(webauthnBrowser, 'authenticate').mockImplementation(answer);
    const { user } = await openVerify(routes);
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Verify device failed');
    expect(screen.getByText('Please close this tab and try again')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
  });

  it('fails the same way when the request has expired or was used', async () => {
    await openVerify({ 'GET /api/v2/device-login/dl-1': apiError(400, 1026, 'expired') });
    expect(await screen.findByRole('alert')).toHaveTextContent('Verify device failed');
    expect(screen.getByText('Please close this tab and try again')).toBeInTheDocument();
  });
  it('shows where the request comes from and warns against approving a sign-in someone else started', async () => {
    await openVerify();
    const confirmation = await screen.findByRole('dialog', { name: 'You are logging on to Demo App' });
    expect(confirmation).toHaveTextContent(`Requested from: Chrome 156 on Linux · near Hanoi, Vietnam · IP 203.0.113.5 · at ${timeIn('en')}`);
    expect(confirmation).toHaveAccessibleDescription(expect.stringContaining('Requested from: Chrome 156 on Linux'));
    expect(within(confirmation).getByRole('alert')).toHaveTextContent(
      'Continue only if you started this sign-in yourself, on a device you have with you now. If someone sent you this link or asked you to approve it, do not continue: they are trying to get into your account.',
    );
    expect(within(confirmation).getByRole('button', { name: 'Continue' })).toBeEnabled();
    expect(within(confirmation).getByRole('button', { name: "No, it's not me" })).toBeEnabled();
  });

  it('leaves out what is not known of the requester', async () => {
    await openVerify({
      'GET /api/v2/device-login/dl-1': json(200, { clientName: 'Demo App', username: 'd***@example.com', expiresIn: 280, publickeyCredentialRequestOptions: OPTIONS, requester: { browser: '', os: 'Android 15', ip: null, requestedAt: REQUESTED_AT } }),
    });
    const confirmation = await screen.findByRole('dialog', { name: 'You are logging on to Demo App' });
    expect(confirmation).toHaveTextContent(`Requested from: Android 15 · at ${timeIn('en')}`);
    expect(confirmation).not.toHaveTextContent('IP');
    expect(confirmation).not.toHaveTextContent('near');
  });

  it('"No, it\'s not me" refuses the request without asking the authenticator, says nobody was signed in, and leads to the account', async () => {
    vi.spyOn(webauthnBrowser, 'authenticate');
    const { requests, user } = await openVerify({ 'POST /api/v2/device-login/deny': json(200, { denied: true }) });
    await user.click(await screen.findByRole('button', { name: "No, it's not me" }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Sign-in refused. Nobody was signed in. If you did not expect this, change your password.');
    expect(posts(requests, '/api/v2/device-login/deny')).toHaveLength(1);
    expect(posts(requests, '/api/v2/device-login/deny')[0]?.body).toEqual({ challenge: 'dl-1', oauth_challenge: CHALLENGE });
    expect(posts(requests, '/api/v2/resolve-challenge')).toHaveLength(0);
    expect(webauthnBrowser.authenticate).not.toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Go to your account' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/user\/dashboard/));
  });

  it('says all of it in Vietnamese', async () => {
    const { requests, user } = await openVerify({ 'POST /api/v2/device-login/deny': json(200, { denied: true }) }, PATH.replace('locale=en', 'locale=vi'), 'vi');
    const confirmation = await screen.findByRole('dialog', { name: 'Bạn đang đăng nhập vào Demo App' });
    expect(confirmation).toHaveTextContent(`Yêu cầu từ: Chrome 156 trên Linux · gần Hanoi, Vietnam · IP 203.0.113.5 · lúc ${timeIn('vi')}`);
    expect(within(confirmation).getByRole('alert')).toHaveTextContent('Nếu ai đó gửi cho bạn liên kết này hoặc nhờ bạn xác nhận, đừng tiếp tục');
    await user.click(within(confirmation).getByRole('button', { name: 'Không, không phải tôi' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Đã từ chối đăng nhập. Không ai được đăng nhập.');
    expect(screen.getByRole('button', { name: 'Đến tài khoản của bạn' })).toBeInTheDocument();
    expect(posts(requests, '/api/v2/device-login/deny')).toHaveLength(1);
  });

  it('fails like an expired link when the refusal is refused (the request was used or expired meanwhile)', async () => {
    const { user } = await openVerify({ 'POST /api/v2/device-login/deny': apiError(400, 1026, 'expired', 'challenge') });
    await user.click(await screen.findByRole('button', { name: "No, it's not me" }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Verify device failed');
    expect(screen.getByText('Please close this tab and try again')).toBeInTheDocument();
  });
});
