import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Capability, PublicClient } from '@passgate/contract';
import { browser } from '../../lib/browser.ts';
import { apiError, json, stubFetch, type RecordedRequest } from '../../test/fetch-stub.ts';
import { loginRequest, tenant } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';
import { facebookScripts, fakeFacebook, fakeGoogle, googleScripts } from '../../test/social-sdk.ts';

const CHALLENGE = 'challenge-1';
const REQUEST = `GET /api/v1/requests/login/${CHALLENGE}`;
const SOCIAL_LOGIN = 'POST /api/v1/social/login';
const RESUME = 'http://localhost:3000/oidc/auth/resume-social';
const HINT = 'Tick the agreement box below to sign up this way.';
const SOCIAL: Capability[] = ['users:email:register', 'social:google:login', 'social:google:register', 'social:facebook:login', 'social:facebook:register'];

const posts = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'POST');
const google = () => screen.getByRole('button', { name: 'Continue with Google' });
const facebook = () => screen.getByRole('button', { name: 'Continue with Facebook' });
const policy = () => screen.getByRole('checkbox', { name: /I agree/ });

async function renderRegister(client: Partial<PublicClient> = {}, answer?: Response, locale = 'en') {
  const requests = stubFetch({ [REQUEST]: json(200, loginRequest({}, client)), ...(answer ? { [SOCIAL_LOGIN]: answer } : {}) });
  await renderApp(`/register?challenge=${CHALLENGE}&locale=${locale}`);
  await screen.findByRole('heading', { level: 1 });
  return requests;
}

describe('Google and Facebook buttons on the Register screen', () => {
  it('shows a button only with its login and register capabilities and the app id, and loads only that SDK', async () => {
    await renderRegister({ permissions: ['users:email:register', 'social:google:login', 'social:google:register', 'social:facebook:login'] });
    expect(google()).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Continue with Facebook' })).not.toBeInTheDocument();
    expect(screen.getByText('or')).toBeInTheDocument();
    await waitFor(() => expect(googleScripts()).toHaveLength(1));
    expect(facebookScripts()).toHaveLength(0);
  });

  it.each([
    ['without a register capability', { permissions: ['users:email:register', 'social:google:login', 'social:facebook:login'] as Capability[] }],
    ['without the app ids', { permissions: SOCIAL, ggApp: null, fbApp: { clientId: '' } }],
  ])('shows no button, no separator and loads no SDK %s', async (_, client) => {
    await renderRegister(client);
    expect(screen.getByRole('button', { name: 'Register' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Google|Facebook/ })).not.toBeInTheDocument();
    expect(screen.queryByText('or')).not.toBeInTheDocument();
    expect(screen.queryByText(HINT)).not.toBeInTheDocument();
    expect(googleScripts()).toHaveLength(0);
    expect(facebookScripts()).toHaveLength(0);
  });

  it('keeps the buttons disabled, saying why, until the policy and the custom boxes are ticked, like Register', async () => {
    window.google = { accounts: { oauth2: fakeGoogle({ token: 't' }).oauth2 } };
    window.FB = fakeFacebook('t');
    const customRegisterCheckbox = { name: 'I want news from Demo' };
    await renderRegister({ permissions: SOCIAL, tenant: tenant({ customRegisterCheckbox }) });
    const user = userEvent.setup();
    for (const button of [google(), facebook()]) {
      expect(button).toBeDisabled();
      expect(button).toHaveAccessibleDescription(HINT);
    }
    await user.click(policy());
    await user.click(screen.getByRole('checkbox', { name: /I want news from Demo/ }));
    await waitFor(() => expect(google()).toBeEnabled());
    expect(facebook()).toBeEnabled();
    expect(google()).not.toHaveAccessibleDescription();
    expect(screen.queryByText(HINT)).not.toBeInTheDocument();

    // The SDKs are ready now: each box alone holds the buttons off again, as it holds Register.
    for (const box of [policy(), screen.getByRole('checkbox', { name: /I want news from Demo/ })]) {
      await user.click(box);
      expect(google()).toBeDisabled();
      expect(facebook()).toBeDisabled();
      expect(screen.getByRole('button', { name: 'Register' })).toBeDisabled();
      expect(screen.getByText(HINT)).toBeInTheDocument();
      await user.click(box);
      expect(google()).toBeEnabled();
    }
  });

  it('signs up with Google once the policy is ticked: posts the token and follows redirectTo', async () => {
    const sdk = fakeGoogle({ token: 'google-token-1' });
    window.google = { accounts: { oauth2: sdk.oauth2 } };
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const requests = await renderRegister({ permissions: SOCIAL }, json(200, { redirectTo: RESUME }));
    const user = userEvent.setup();
    await user.click(policy());
    await waitFor(() => expect(google()).toBeEnabled());
    await user.click(policy());
    await user.click(google());
    expect(sdk.calls).toEqual([]);

    await user.click(policy());
    await user.click(google());
    await waitFor(() => expect(assign).toHaveBeenCalledWith(RESUME));
    expect(sdk.calls).toEqual([{ inClick: true }]);
    expect(posts(requests)).toEqual([
      expect.objectContaining({
        path: '/api/v1/social/login',
        body: { authorizer: 'google', app_id: 'google-app-id', challenge: CHALLENGE, access_token: 'google-token-1', client_id: 'demo-app' },
      }),
    ]);
  });

  it('signs up with Facebook, and shows a refusal by its code', async () => {
    window.FB = fakeFacebook('facebook-token-1');
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const requests = await renderRegister({ permissions: SOCIAL }, apiError(404, 1010, 'Account does not exist'));
    const user = userEvent.setup();
    await user.click(policy());
    await waitFor(() => expect(facebook()).toBeEnabled());
    await user.click(facebook());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Account does not exist');
    expect(posts(requests)[0]?.body).toEqual({ authorizer: 'facebook', app_id: 'facebook-app-id', challenge: CHALLENGE, access_token: 'facebook-token-1', client_id: 'demo-app' });
    expect(assign).not.toHaveBeenCalled();
    expect(facebook()).toBeEnabled();
  });

  it('goes to the SocialLink screen when the e-mail belongs to an existing account', async () => {
    window.google = { accounts: { oauth2: fakeGoogle({ token: 'google-token-2' }).oauth2 } };
    await renderRegister({ permissions: SOCIAL }, json(200, { linkRequired: true, linkToken: 'link-token-1', email: 'd***@example.com', methods: ['password', 'code'] }));
    const user = userEvent.setup();
    await user.click(policy());
    await waitFor(() => expect(google()).toBeEnabled());
    await user.click(google());
    expect(await screen.findByRole('heading', { level: 1, name: 'Link with Google' })).toBeInTheDocument();
  });

  it('speaks Vietnamese by default', async () => {
    await renderRegister({ permissions: SOCIAL }, undefined, 'vi');
    expect(screen.getByRole('button', { name: 'Tiếp tục với Google' })).toBeDisabled();
    expect(screen.getByText('Đánh dấu vào ô đồng ý với điều khoản bên dưới để đăng ký theo cách này.')).toBeInTheDocument();
  });
});
