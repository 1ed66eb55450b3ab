import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { browser } from '../../lib/browser.ts';
import { enterText } from '../../test/enter-text.ts';
import { apiError, json, stubFetch, type RecordedRequest } from '../../test/fetch-stub.ts';
import { loginRequest } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';
import type { SocialLinkState } from './social-link-state.ts';
import { freezeClock } from '../../test/clock.ts';

type Answers = Parameters<typeof stubFetch>[0];

const CHALLENGE = 'challenge-1';
const REQUEST = `GET /api/v1/requests/login/${CHALLENGE}`;
const SEND_CODE = 'POST /api/v1/social/link/send-code';
const LINK = 'POST /api/v1/social/link';
const MFA_TRIGGER = 'POST /api/v1/mfa/trigger-challenge';
const RESUME = 'http://localhost:3000/oidc/auth/resume-linked';
const STATE: SocialLinkState = { linkToken: 'link-token-1', email: 'd***@example.com', authorizer: 'facebook', methods: ['password', 'code'] };

const posts = (requests: RecordedRequest[], path: string) => requests.filter((r) => r.method === 'POST' && r.path === path);

async function renderLink(answers: Answers = {}, state: unknown = STATE, locale = 'en') {
  const requests = stubFetch({ [REQUEST]: json(200, loginRequest()), ...answers });
  await renderApp(`/login/social-link?challenge=${CHALLENGE}&locale=${locale}`, state);
  return requests;
}

describe('SocialLink screen', () => {
  it('links by the password and follows redirectTo', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const requests = await renderLink({ [LINK]: json(200, { redirectTo: RESUME }) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Link with Facebook' })).toBeInTheDocument();
    expect(screen.getByText('An account with d***@example.com already exists. Prove it is yours to link your Facebook sign-in.')).toBeInTheDocument();
    expect(document.title).toBe('Link accounts · Demo App');

    const user = userEvent.setup();
    const password = screen.getByLabelText(/^Password/);
    expect(password).toHaveFocus();
    await enterText(user, password, 'Passw0rd!{Enter}');
    await waitFor(() => expect(assign).toHaveBeenCalledWith(RESUME));
    expect(posts(requests, '/api/v1/social/link')[0]?.body).toEqual({ challenge: CHALLENGE, link_token: 'link-token-1', password: 'Passw0rd!', client_id: 'demo-app' });
  });

  it('goes on to the 2-step screen when the linked account has it on, and does not leave for the relying party', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const requests = await renderLink({ [LINK]: json(200, { mfaRequired: true, tokenType: 'email', mfaToken: 't' }), [MFA_TRIGGER]: json(200, { resendAfter: 60 }) });
    const user = userEvent.setup();
    await enterText(user, await screen.findByLabelText(/^Password/), 'Passw0rd!{Enter}');

    expect(await screen.findByRole('heading', { level: 1, name: '2-Step Verification' })).toBeInTheDocument();
    expect(screen.getByText('We sent a 6-digit code by email to the address registered for d***@example.com.')).toBeInTheDocument();
    await waitFor(() => expect(posts(requests, '/api/v1/mfa/trigger-challenge')).toHaveLength(1));
    expect(posts(requests, '/api/v1/mfa/trigger-challenge')[0]?.body).toEqual({ token_type: 'email', mfa_token: 't', client_id: 'demo-app' });
    expect(assign).not.toHaveBeenCalled();
  });

  it('asks for the password before calling, and says when it is wrong', async () => {
    const requests = await renderLink({ [LINK]: apiError(401, 1017, 'wrong', 'password') });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Link accounts' }));
    expect(screen.getByText('Please enter your password')).toBeInTheDocument();
    expect(posts(requests, '/api/v1/social/link')).toEqual([]);

    await enterText(user, screen.getByLabelText(/^Password/), 'Wrong-pass1{Enter}');
    // Said once, beside the password, which takes the focus.
    const password = screen.getByLabelText(/^Password/);
    await waitFor(() => expect(password).toHaveAccessibleDescription('Username or password is not correct'));
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getAllByText('Username or password is not correct')).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
    await waitFor(() => expect(password).toHaveFocus());
    expect(screen.getByRole('button', { name: 'Link accounts' })).toBeEnabled();
  });

  it('links by a code sent to the e-mail, with the 60-second resend countdown', async () => {
    freezeClock();
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const requests = await renderLink({
      [SEND_CODE]: json(200, { channel: 'email', destination: 'd***@example.com', resendAfter: 60 }),
      [LINK]: json(200, { redirectTo: RESUME }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Send a code to d***@example.com' }));
    const code = await screen.findByLabelText(/^Verification code/);
    expect(posts(requests, '/api/v1/social/link/send-code')[0]?.body).toEqual({ challenge: CHALLENGE, link_token: 'link-token-1', client_id: 'demo-app' });
    expect(screen.getByText('We sent a verification code to d***@example.com. Enter it to link the accounts.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Resend code in 60s' })).toBeDisabled();
    expect(screen.queryByLabelText(/^Password/)).not.toBeInTheDocument();

    await user.type(code, '123 456{Enter}');
    await waitFor(() => expect(assign).toHaveBeenCalledWith(RESUME));
    expect(posts(requests, '/api/v1/social/link')[0]?.body).toEqual({ challenge: CHALLENGE, link_token: 'link-token-1', code: '123456', client_id: 'demo-app' });
  });

  it('says when the code is wrong or the link has expired, and can go back to the password', async () => {
    let answer = apiError(400, 1040, 'Verification code is not valid', 'code');
    await renderLink({ [SEND_CODE]: json(200, { channel: 'email', destination: 'd***@example.com', resendAfter: 60 }), [LINK]: () => answer }, STATE, 'vi');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Gửi mã tới d***@example.com' }));
    const code = await screen.findByLabelText(/^Mã xác minh/);
    await user.type(code, '000000{Enter}');
    await waitFor(() => expect(code).toHaveAccessibleDescription('Mã xác minh không hợp lệ'));
    expect(screen.getAllByText('Mã xác minh không hợp lệ')).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();

    answer = apiError(400, 1026, 'Your request has expired, please retry');
    await user.click(screen.getByRole('button', { name: 'Liên kết tài khoản' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Yêu cầu của bạn đã hết hạn, vui lòng thử lại'));
    expect(screen.getByRole('link', { name: 'Quay lại đăng nhập' })).toHaveAttribute('href', `/login?challenge=${CHALLENGE}&locale=vi`);

    await user.click(screen.getByRole('button', { name: 'Dùng mật khẩu thay thế' }));
    expect(screen.getByLabelText(/^Mật khẩu/)).toBeInTheDocument();
  });

  it('offers only the code to an account without a password', async () => {
    await renderLink({}, { ...STATE, methods: ['code'] });
    expect(await screen.findByRole('button', { name: 'Send a code to d***@example.com' })).toBeInTheDocument();
    expect(screen.queryByLabelText(/^Password/)).not.toBeInTheDocument();
  });

  it('returns to Login without the state from the sign-in', async () => {
    await renderLink({}, null);
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
  });
});
