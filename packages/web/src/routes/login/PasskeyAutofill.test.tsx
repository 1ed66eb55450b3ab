import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { LoginRequestInfo } from '@passgate/contract';
import { browser } from '../../lib/browser.ts';
import { apiError, json, stubFetch, type RecordedRequest } from '../../test/fetch-stub.ts';
import { loginRequest, tenant } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';
import { webauthnBrowser } from '../webauthn/webauthn-browser.ts';
import { passkeyAutofillSupport } from './use-passkey-autofill.ts';

const CHALLENGE = 'challenge-1';
const REQUEST = `GET /api/v1/requests/login/${CHALLENGE}`;
const OPTIONS = 'POST /api/v2/passkey-login/options';
const PASSKEY_LOGIN = 'POST /api/v2/passkey-login';
const LOGIN = 'POST /api/v1/users/login';
const RESUME = 'http://localhost:3000/oidc/auth/resume-1';
const REQUEST_OPTIONS = { challenge: 'cGFzc2tleQ', rpId: 'localhost', allowCredentials: [], userVerification: 'required' };
const ASSERTION = {
  id: 'Y3JlZA',
  rawId: 'Y3JlZA',
  type: 'public-key' as const,
  response: { clientDataJSON: 'e30', authenticatorData: 'YXV0aA', signature: 'c2ln', userHandle: 'dXNlcg' },
  clientExtensionResults: {},
};
const options = () => json(200, { expiresIn: 300, publickeyCredentialRequestOptions: REQUEST_OPTIONS });
const posts = (requests: RecordedRequest[], path: string) => requests.filter((r) => r.method === 'POST' && r.path === path);

/** A browser that offers passkeys in autofill; `picks` is what its conditional request answers (never settles when omitted). */
function passkeyBrowser(picks?: () => Promise<typeof ASSERTION>) {
  vi.spyOn(browser, 'supportsPublicKeyCredential').mockReturnValue(true);
  vi.spyOn(passkeyAutofillSupport, 'available').mockResolvedValue(true);
  const cancel = vi.spyOn(webauthnBrowser, 'cancel').mockImplementation(() => {});
  const autofill = vi.spyOn(webauthnBrowser, 'autofill').mockImplementation(picks ?? (() => new Promise(() => {})));
  return { autofill, cancel };
}

async function renderLogin(info: LoginRequestInfo, answers: Parameters<typeof stubFetch>[0] = {}, locale = 'en') {
  const requests = stubFetch({ [REQUEST]: json(200, info), [OPTIONS]: options(), ...answers });
  await renderApp(`/login?challenge=${CHALLENGE}&locale=${locale}`);
  const username = await screen.findByLabelText(/^Email or phone number|^Email hoặc số điện thoại/);
  return { requests, username };
}

describe('Login screen: passkeys with autofill', () => {
  it('offers the passkeys in the username field and signs in with the one picked, following redirectTo', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const { autofill } = passkeyBrowser(() => Promise.resolve(ASSERTION));
    const { requests, username } = await renderLogin(loginRequest(), { [PASSKEY_LOGIN]: json(200, { redirectTo: RESUME }) });
    await waitFor(() => expect(username).toHaveAttribute('autocomplete', 'username webauthn'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(RESUME));
    expect(posts(requests, '/api/v2/passkey-login/options')[0]?.body).toEqual({ challenge: CHALLENGE, client_id: 'demo-app' });
    expect(autofill).toHaveBeenCalledWith(REQUEST_OPTIONS);
    expect(posts(requests, '/api/v2/passkey-login')[0]?.body).toEqual({ challenge: CHALLENGE, client_id: 'demo-app', publickey_credential: ASSERTION });
    expect(posts(requests, '/api/v1/users/login')).toEqual([]);
    expect(screen.getByRole('button', { name: 'Logging in…' })).toBeDisabled();
  });

  it.each([
    ['the client lacks webauthn:login', loginRequest({}, { permissions: ['users:email:login', 'users:phoneNumber:login'] }), true],
    ["the tenant does not allow devices", loginRequest({}, { tenant: tenant({ webauthnAllowed: false }) }), true],
    ['the browser has no passkey autofill', loginRequest(), false],
  ])('offers nothing when %s', async (_case, info, supported) => {
    vi.spyOn(browser, 'supportsPublicKeyCredential').mockReturnValue(true);
    vi.spyOn(passkeyAutofillSupport, 'available').mockResolvedValue(supported);
    const autofill = vi.spyOn(webauthnBrowser, 'autofill');
    const { requests, username } = await renderLogin(info);
    // Give the availability check its turn.
    await new Promise((settle) => setTimeout(settle, 0));
    expect(username).toHaveAttribute('autocomplete', 'username');
    expect(posts(requests, '/api/v2/passkey-login/options')).toEqual([]);
    expect(autofill).not.toHaveBeenCalled();
  });

  it.each([
    ['en', 'This passkey is not registered here: log in another way'],
    ['vi', 'Khóa truy cập này chưa được đăng ký ở đây: hãy đăng nhập bằng cách khác'],
  ])('shows a refused passkey in the error banner (%s) and offers the passkeys again', async (locale, message) => {
    let picked = 0;
    const { autofill } = passkeyBrowser(() => (picked++ === 0 ? Promise.resolve(ASSERTION) : new Promise(() => {})));
    const { requests } = await renderLogin(loginRequest(), { [PASSKEY_LOGIN]: apiError(400, 1029, 'This passkey is not registered here', 'publickey_credential') }, locale);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(message);
    await waitFor(() => expect(autofill).toHaveBeenCalledTimes(2));
    expect(posts(requests, '/api/v2/passkey-login/options')).toHaveLength(2);
    // The password form is still there, and enabled.
    expect(screen.getByRole('button', { name: locale === 'en' ? 'Log in' : 'Đăng nhập' })).toBeEnabled();
  });

  it('aborts the background request when the password form is sent, and offers passkeys again after a wrong password', async () => {
    const { autofill, cancel } = passkeyBrowser();
    const { requests, username } = await renderLogin(loginRequest(), { [LOGIN]: apiError(401, 1017, 'wrong credentials') });
    await waitFor(() => expect(autofill).toHaveBeenCalledTimes(1));
    const user = userEvent.setup();
    await user.type(username, 'demo@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'Wrong-pass1');
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Username or password is not correct');
    await waitFor(() => expect(cancel).toHaveBeenCalled());
    await waitFor(() => expect(autofill).toHaveBeenCalledTimes(2));
    expect(posts(requests, '/api/v2/passkey-login/options')).toHaveLength(2);
  });

  it('aborts it when the screen is left', async () => {
    const { autofill, cancel } = passkeyBrowser();
    await renderLogin(loginRequest());
    await waitFor(() => expect(autofill).toHaveBeenCalledTimes(1));
    const user = userEvent.setup();
    await user.click(screen.getByRole('link', { name: 'Log in without a password' }));
    await screen.findByRole('heading', { level: 1, name: 'Log in with a phone number' });
    // The Login screen's effects are cleaned up after the new screen is committed, not with it.
    await waitFor(() => expect(cancel).toHaveBeenCalled());
  });
});
