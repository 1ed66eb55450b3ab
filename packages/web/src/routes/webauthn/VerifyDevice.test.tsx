import { screen, waitFor } from '@testing-library/react';
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
const posts = (requests: RecordedRequest[], path: string) => requests.filter((r) => r.method === 'POST' && r.path === path);

async function openVerify(routes: Parameters<typeof stubFetch>[0] = {}, path = PATH) {
  await changeLanguage('en');
  const requests = stubFetch({
    [`GET /api/v1/requests/login/${CHALLENGE}`]: json(200, loginRequest()),
    'GET /api/v2/device-login/dl-1': json(200, { clientName: 'Demo App', username: 'd***@example.com', expiresIn: 280, publickeyCredentialRequestOptions: OPTIONS }),
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
  it('goes to Error 500 without authnChallenge', async () => {
    await openVerify({}, `/login/webauthn/verify-device?challenge=${CHALLENGE}&locale=en`);
    expect(await screen.findByRole('heading', { name: 'Internal Server Error' })).toBeInTheDocument();
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
});
