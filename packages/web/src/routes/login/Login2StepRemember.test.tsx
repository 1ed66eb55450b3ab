import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../i18n/i18n.ts';
import { browser } from '../../lib/browser.ts';
import { json, stubFetch, type RecordedRequest } from '../../test/fetch-stub.ts';
import { loginRequest, tenant } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const CHALLENGE = 'challenge-1';
const MFA_TOKEN = 'mfa-token-0123456789abcdef';

/** The 2-step screen of a tenant that offers 'Remember this browser' for `days` (null: it does not). */
async function renderMfa(days: number | null, locale: 'en' | 'vi' = 'en', step: { rememberBrowser?: false } = {}) {
  await changeLanguage(locale);
  const requests = stubFetch({
    [`GET /api/v1/requests/login/${CHALLENGE}`]: json(200, loginRequest({}, { tenant: tenant({ rememberBrowserDays: days }) })),
    'POST /api/v1/mfa/login': json(200, { redirectTo: 'http://localhost:3000/oidc/auth/resume-1' }),
  });
  await renderApp(`/login/mfa?challenge=${CHALLENGE}&locale=${locale}`, { tokenType: 'totp', mfaToken: MFA_TOKEN, username: 'demo@example.com', challenge: CHALLENGE, ...step });
  await screen.findByRole('heading', { level: 1 });
  return requests;
}

const loginBody = (requests: RecordedRequest[]) => requests.find((r) => r.method === 'POST' && r.path === '/api/v1/mfa/login')?.body;

describe("Login2Step: 'Remember this browser'", () => {
  it('offers the box with the tenant\'s days, unticked; ticked, the second step asks to remember the browser', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const requests = await renderMfa(30);
    const box = screen.getByRole('checkbox', { name: "Don't ask again on this browser for 30 days" });
    expect(box).not.toBeChecked();
    const user = userEvent.setup();
    await user.click(box);
    expect(box).toBeChecked();
    await user.type(screen.getByLabelText(/^Verification code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(assign).toHaveBeenCalled());
    expect(loginBody(requests)).toEqual({ token_type: 'totp', mfa_token: MFA_TOKEN, otp: '123456', remember_browser: true, challenge: CHALLENGE, client_id: 'demo-app' });
  });

  it('left unticked, nothing is asked', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const requests = await renderMfa(7);
    expect(screen.getByRole('checkbox', { name: "Don't ask again on this browser for 7 days" })).not.toBeChecked();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Verification code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(assign).toHaveBeenCalled());
    expect(loginBody(requests)).not.toHaveProperty('remember_browser');
  });

  it('says it in Vietnamese', async () => {
    await renderMfa(30, 'vi');
    expect(screen.getByRole('checkbox', { name: 'Không hỏi lại trên trình duyệt này trong 30 ngày' })).toBeInTheDocument();
  });

  it('says one day in the singular', async () => {
    await renderMfa(1, 'en');
    expect(screen.getByRole('checkbox', { name: "Don't ask again on this browser for 1 day" })).toBeInTheDocument();
  });

  it('is not offered to an account the server never remembers (an administrator), though the tenant allows it', async () => {
    await renderMfa(30, 'en', { rememberBrowser: false });
    expect(screen.getByLabelText(/^Verification code/)).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it('is not offered when the tenant does not allow it', async () => {
    await renderMfa(null);
    expect(screen.getByLabelText(/^Verification code/)).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });
});
