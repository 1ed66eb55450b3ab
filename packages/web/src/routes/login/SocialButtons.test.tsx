import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { PublicClient } from '@passgate/contract';
import { browser } from '../../lib/browser.ts';
import { apiError, json, stubFetch, type RecordedRequest } from '../../test/fetch-stub.ts';
import { loginRequest, tenant } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';
import { facebookScripts, fakeFacebook, fakeGoogle, googleScripts } from '../../test/social-sdk.ts';

const CHALLENGE = 'challenge-1';
const REQUEST = `GET /api/v1/requests/login/${CHALLENGE}`;
const SOCIAL_LOGIN = 'POST /api/v1/social/login';
const MFA_TRIGGER = 'POST /api/v1/mfa/trigger-challenge';
const RESUME = 'http://localhost:3000/oidc/auth/resume-social';

const posts = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'POST');

async function renderLogin(client: Partial<PublicClient> = {}, answer?: Response, locale = 'en') {
  const requests = stubFetch({ [REQUEST]: json(200, loginRequest({}, client)), ...(answer ? { [SOCIAL_LOGIN]: answer } : {}) });
  await renderApp(`/login?challenge=${CHALLENGE}&locale=${locale}`);
  await screen.findByRole('heading', { level: 1, name: locale === 'vi' ? 'Đăng nhập' : 'Log in' });
  return requests;
}

describe('Google and Facebook buttons on the Login screen', () => {
  it('shows a button only with its capability and the app id, and loads only that SDK', async () => {
    await renderLogin({ permissions: ['users:email:login', 'social:google:login'] });
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Continue with Facebook' })).not.toBeInTheDocument();
    await waitFor(() => expect(googleScripts()).toHaveLength(1));
    expect(facebookScripts()).toHaveLength(0);
  });

  it('shows no button (and loads no SDK) without the app id', async () => {
    await renderLogin({ ggApp: null, fbApp: { clientId: '' } });
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Google|Facebook/ })).not.toBeInTheDocument();
    expect(googleScripts()).toHaveLength(0);
    expect(facebookScripts()).toHaveLength(0);
  });

  it('loads no SDK on the other screens of the flow', async () => {
    stubFetch({ [REQUEST]: json(200, loginRequest()) });
    await renderApp(`/password/recover?challenge=${CHALLENGE}&locale=en`);
    await screen.findByRole('heading', { level: 1 });
    expect(googleScripts()).toHaveLength(0);
    expect(facebookScripts()).toHaveLength(0);
  });

  it('keeps the buttons disabled until the SDK has loaded, in the language of the page', async () => {
    await renderLogin({}, undefined, 'vi');
    const google = screen.getByRole('button', { name: 'Tiếp tục với Google' });
    const facebook = screen.getByRole('button', { name: 'Tiếp tục với Facebook' });
    expect(google).toBeDisabled();
    expect(facebook).toBeDisabled();
    await waitFor(() => expect(facebookScripts()).toHaveLength(1));
    expect(facebookScripts()[0]).toHaveAttribute('src', 'https://connect.facebook.net/vi_VN/sdk.js');

    window.google = { accounts: { oauth2: fakeGoogle({ token: 't' }).oauth2 } };
    fireEvent.load(googleScripts()[0]!);
    await waitFor(() => expect(google).toBeEnabled());
    expect(facebook).toBeDisabled();
  });

  it('says under the button when the SDK cannot be loaded, and the password form still works', async () => {
    await renderLogin({ permissions: ['users:email:login', 'social:google:login'] });
    await waitFor(() => expect(googleScripts()).toHaveLength(1));
    fireEvent.error(googleScripts()[0]!);
    expect(await screen.findByText('Google sign-in could not be loaded. Check your connection or choose another way to log in.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeDisabled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(googleScripts()).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Log in' })).toBeEnabled();
  });

  it('signs in with Google: the token client opens inside the click, the token is posted, redirectTo is followed', async () => {
    const google = fakeGoogle({ token: 'google-token-1' });
    window.google = { accounts: { oauth2: google.oauth2 } };
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const requests = await renderLogin({}, json(200, { redirectTo: RESUME }));
    const button = screen.getByRole('button', { name: 'Continue with Google' });
    await waitFor(() => expect(button).toBeEnabled());
    expect(google.configs).toEqual([expect.objectContaining({ client_id: 'google-app-id', scope: 'openid email profile' })]);

    await userEvent.setup().click(button);
    await waitFor(() => expect(assign).toHaveBeenCalledWith(RESUME));
    expect(google.calls).toEqual([{ inClick: true }]);
    expect(posts(requests)).toEqual([
      expect.objectContaining({
        path: '/api/v1/social/login',
        body: { authorizer: 'google', app_id: 'google-app-id', challenge: CHALLENGE, access_token: 'google-token-1', client_id: 'demo-app' },
      }),
    ]);
    expect(googleScripts()).toHaveLength(0);
  });

  it('signs in with Facebook: FB.init with the app id, FB.login for public_profile and email', async () => {
    const fb = fakeFacebook('facebook-token-1');
    window.FB = fb;
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const requests = await renderLogin({}, json(200, { redirectTo: RESUME }));
    const button = screen.getByRole('button', { name: 'Continue with Facebook' });
    await waitFor(() => expect(button).toBeEnabled());
    expect(fb.init).toHaveBeenCalledWith({ appId: 'facebook-app-id', version: 'v19.0', cookie: false, xfbml: false });

    await userEvent.setup().click(button);
    await waitFor(() => expect(assign).toHaveBeenCalledWith(RESUME));
    expect(fb.login).toHaveBeenCalledWith(expect.any(Function), { scope: 'public_profile,email' });
    expect(posts(requests)[0]?.body).toEqual({ authorizer: 'facebook', app_id: 'facebook-app-id', challenge: CHALLENGE, access_token: 'facebook-token-1', client_id: 'demo-app' });
  });

  it('does nothing when the user closes the popup', async () => {
    window.google = { accounts: { oauth2: fakeGoogle({ closed: true }).oauth2 } };
    window.FB = fakeFacebook(null);
    const requests = await renderLogin();
    const user = userEvent.setup();
    for (const name of ['Continue with Google', 'Continue with Facebook']) {
      const button = screen.getByRole('button', { name });
      await waitFor(() => expect(button).toBeEnabled());
      await user.click(button);
      await waitFor(() => expect(button).toBeEnabled());
    }
    expect(posts(requests)).toEqual([]);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says so when the popup is blocked', async () => {
    window.google = { accounts: { oauth2: fakeGoogle({ popupBlocked: true }).oauth2 } };
    const requests = await renderLogin();
    const button = screen.getByRole('button', { name: 'Continue with Google' });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.setup().click(button);
    expect(await screen.findByRole('alert')).toHaveTextContent('The Google sign-in window could not be opened. Allow pop-ups for this site and try again.');
    expect(posts(requests)).toEqual([]);
  });

  it.each([
    [apiError(401, 1063, 'access_token not valid', 'access_token'), 'Your sign-in could not be verified (access_token is not valid), please try again'],
    [apiError(404, 1010, 'Account does not exist'), 'Account does not exist'],
    [apiError(503, 1293, 'The sign-in provider cannot be reached, try again'), 'The sign-in provider cannot be reached, try again'],
  ])('shows a refusal inline by its code (%#)', async (answer, message) => {
    window.google = { accounts: { oauth2: fakeGoogle({ token: 'google-token-2' }).oauth2 } };
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    await renderLogin({}, answer);
    const button = screen.getByRole('button', { name: 'Continue with Google' });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.setup().click(button);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(message);
    await waitFor(() => expect(alert).toHaveFocus());
    expect(button).toBeEnabled();
    expect(assign).not.toHaveBeenCalled();
  });

  it('goes on to the 2-step screen when the account has it on, and does not leave for the relying party', async () => {
    window.google = { accounts: { oauth2: fakeGoogle({ token: 'google-token-4' }).oauth2 } };
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const requests = stubFetch({
      [REQUEST]: json(200, loginRequest()),
      [SOCIAL_LOGIN]: json(200, { mfaRequired: true, tokenType: 'email', mfaToken: 't' }),
      [MFA_TRIGGER]: json(200, { resendAfter: 60 }),
    });
    await renderApp(`/login?challenge=${CHALLENGE}&locale=en`);
    const button = await screen.findByRole('button', { name: 'Continue with Google' });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.setup().click(button);

    // The screen knows no username after Google: it says 'your' e-mail address.
    expect(await screen.findByRole('heading', { level: 1, name: '2-Step Verification' })).toBeInTheDocument();
    expect(screen.getByText('We sent a 6-digit code to your email address.')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Verification code/)).toBeInTheDocument();
    await waitFor(() => expect(posts(requests).map((r) => r.path)).toEqual(['/api/v1/social/login', '/api/v1/mfa/trigger-challenge']));
    expect(posts(requests)[1]?.body).toEqual({ token_type: 'email', mfa_token: 't', client_id: 'demo-app' });
    expect(assign).not.toHaveBeenCalled();
  });

  it('goes to the SocialLink screen when the e-mail belongs to an existing account', async () => {
    window.google = { accounts: { oauth2: fakeGoogle({ token: 'google-token-3' }).oauth2 } };
    await renderLogin({}, json(200, { linkRequired: true, linkToken: 'link-token-1', email: 'd***@example.com', methods: ['password', 'code'] }));
    const button = screen.getByRole('button', { name: 'Continue with Google' });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.setup().click(button);
    expect(await screen.findByRole('heading', { level: 1, name: 'Link with Google' })).toBeInTheDocument();
    expect(screen.getByText('An account with d***@example.com already exists. Prove it is yours to link your Google sign-in.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send a code to d***@example.com' })).toBeInTheDocument();
  });

  it('shows no button when the tenant forbids nothing but the client lacks the capability', async () => {
    await renderLogin({ permissions: ['users:email:login'], tenant: tenant() });
    expect(screen.queryByRole('button', { name: /Google|Facebook/ })).not.toBeInTheDocument();
    expect(googleScripts()).toHaveLength(0);
  });
});
