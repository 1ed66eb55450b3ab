import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { UserManager } from 'oidc-client-ts';
import { describe, expect, it, vi } from 'vitest';
import { apiError, json, stubFetch } from '../../test/fetch-stub.ts';
import { USER_KEY, profile, signIn } from '../../test/account.ts';
import { advanceClock, freezeClock } from '../../test/clock.ts';
import { renderApp } from '../../test/render.tsx';
import { initials } from './use-profile.ts';
import { changeLanguage } from '../../i18n/i18n.ts';
import { preloadFirstScreen } from '../../App.tsx';
import { accountSession } from './auth.ts';

/** Every text the page showed from now on, also those a later render took away again. */
function recordTextsShown(): { texts: string[]; stop: () => void } {
  const texts: string[] = [];
  const observer = new MutationObserver(() => texts.push(document.body.textContent ?? ''));
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  return { texts, stop: () => observer.disconnect() };
}

describe('account area', () => {
  it('shows the dashboard of the signed-in user, read with the bearer token', async () => {
    signIn();
    const requests = stubFetch({ 'GET /api/v1/me': json(200, profile()) });
    await renderApp('/user/dashboard');
    expect(await screen.findByText('Chào mừng, Nguyễn Văn An')).toBeInTheDocument();
    expect(screen.getAllByText('demo@example.com').length).toBeGreaterThan(0);
    expect(screen.getByText('Xin chào, Nguyễn Văn An')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Ảnh đại diện của Nguyễn Văn An' })).toHaveTextContent('NA');
    expect(requests.find((r) => r.path === '/api/v1/me')?.headers.get('authorization')).toBe('Bearer access-token-1');
  });

  it('asks for the profile once, as soon as the session is known, before the area has rendered', async () => {
    signIn();
    let areaOnScreen: boolean | undefined;
    const requests = stubFetch({
      'GET /api/v1/me': () => {
        areaOnScreen ??= screen.queryByRole('heading', { level: 1 }) !== null;
        return json(200, profile());
      },
    });
    await renderApp('/user/dashboard');
    expect(await screen.findByText('Chào mừng, Nguyễn Văn An')).toBeInTheDocument();
    expect(areaOnScreen).toBe(false);
    expect(requests.filter((r) => r.path === '/api/v1/me')).toHaveLength(1);
  });

  it('renders signed in at once when the page looked the session up while its code loaded (main.tsx), never the signing-in spinner', async () => {
    signIn();
    const requests = stubFetch({ 'GET /api/v1/me': json(200, profile()) });
    await preloadFirstScreen('/user/dashboard', Promise.resolve());
    const shown = recordTextsShown();
    try {
      await renderApp('/user/dashboard');
      // In the same render: the signed-in area's header, the profile already asked for; the page
      // itself comes a task later (useNextTask in AccountLayout), and the spinner never.
      expect(screen.getByRole('banner')).toBeInTheDocument();
      expect(requests.filter((r) => r.path === '/api/v1/me')).toHaveLength(1);
      expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
      expect(await screen.findByText('Chào mừng, Nguyễn Văn An')).toBeInTheDocument();
      expect(shown.texts.some((text) => text.includes('Đang đăng nhập…'))).toBe(false);
    } finally {
      shown.stop();
    }
  });

  it('starts a sign-in at once when the lookup before the render found no session', async () => {
    const signinRedirect = vi.spyOn(UserManager.prototype, 'signinRedirect').mockResolvedValue(undefined);
    stubFetch({});
    await preloadFirstScreen('/user/dashboard', Promise.resolve());
    await renderApp('/user/dashboard');
    await waitFor(() => expect(signinRedirect).toHaveBeenCalledTimes(1));
  });

  it('uses a session found before the render once: a later guard of the page looks it up again', async () => {
    signIn();
    await accountSession.lookUpBeforeRender();
    expect(accountSession.takeFoundBeforeRender()?.access_token).toBe('access-token-1');
    expect(accountSession.takeFoundBeforeRender()).toBeUndefined();

    await accountSession.lookUpBeforeRender();
    await accountSession.forgetUser();
    // Signed out meanwhile: what the page found when it loaded is not handed out any more.
    expect(accountSession.takeFoundBeforeRender()).toBeUndefined();
  });

  it('looks no session up on the sign-in callback, which completes one instead', async () => {
    const getUser = vi.spyOn(UserManager.prototype, 'getUser');
    await preloadFirstScreen('/user/callback', Promise.resolve());
    expect(getUser).not.toHaveBeenCalled();
    expect(accountSession.takeFoundBeforeRender()).toBeUndefined();
  });

  it("speaks the user's own language (the account's locale) unless the address or the switcher chose one", async () => {
    signIn();
    stubFetch({ 'GET /api/v1/me': json(200, profile({ locale: 'en' })) });
    await renderApp('/user/dashboard');
    expect(await screen.findByText('Welcome, Nguyễn Văn An')).toBeInTheDocument();

    cleanup();
    // The browser's own address says vi, as it does in the app (the router here is in memory).
    window.history.replaceState(null, '', '/user/dashboard?locale=vi');
    try {
      stubFetch({ 'GET /api/v1/me': json(200, profile({ locale: 'en' })) });
      await renderApp('/user/dashboard?locale=vi');
      expect(await screen.findByText('Chào mừng, Nguyễn Văn An')).toBeInTheDocument();
      // The profile (locale en) has arrived: the address's choice still holds once everything settled.
      await act(() => new Promise((settled) => setTimeout(settled, 20)));
      expect(screen.getByText('Chào mừng, Nguyễn Văn An')).toBeInTheDocument();
    } finally {
      window.history.replaceState(null, '', '/');
    }
  });

  it('shows the phone number when there is no e-mail', async () => {
    signIn();
    stubFetch({ 'GET /api/v1/me': json(200, profile({ email: null, phoneNumber: '0912345678' })) });
    await renderApp('/user/dashboard?locale=en');
    expect(await screen.findByText('Welcome, Nguyễn Văn An')).toBeInTheDocument();
    expect(screen.getAllByText('0912345678').length).toBeGreaterThan(0);
  });

  it('starts a sign-in, returning to the wanted page, when nobody is signed in', async () => {
    const signinRedirect = vi.spyOn(UserManager.prototype, 'signinRedirect').mockResolvedValue(undefined);
    stubFetch({});
    await renderApp('/user/dashboard');
    await waitFor(() => expect(signinRedirect).toHaveBeenCalledTimes(1));
    expect(signinRedirect.mock.calls[0]?.[0]).toMatchObject({ state: { returnTo: '/user/dashboard' } });
  });

  it('goes to the session-expired alert when GET /api/v1/me answers 401', async () => {
    signIn();
    stubFetch({ 'GET /api/v1/me': apiError(401, 1102, 'User is not authenticated or credentials are invalid') });
    await renderApp('/user/dashboard?locale=en');
    expect(await screen.findByRole('heading', { level: 1, name: 'Session expired' })).toBeInTheDocument();
    expect(window.sessionStorage.getItem(USER_KEY)).toBeNull();
  });

  it('goes to the session-expired alert when the access token has expired', async () => {
    signIn(-60);
    stubFetch({});
    await renderApp('/user/dashboard?locale=en');
    expect(await screen.findByRole('heading', { level: 1, name: 'Session expired' })).toBeInTheDocument();
  });

  it("shows the session-expired alert in the account's language (the ID token's locale), carried in its address", async () => {
    await changeLanguage('vi');
    signIn(-60, { locale: 'en' });
    stubFetch({});
    await renderApp('/user/dashboard');
    expect(await screen.findByRole('heading', { level: 1, name: 'Session expired' })).toBeInTheDocument();
    expect(screen.getByText('Please log in again')).toBeInTheDocument();
  });

  it('sends unknown account paths to the dashboard, and / too', async () => {
    signIn();
    stubFetch({ 'GET /api/v1/me': json(200, profile()) });
    await renderApp('/user/no-such-page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Trang chủ' })).toBeInTheDocument();
  });

  it('logs out through the provider with the id token as hint', async () => {
    signIn();
    stubFetch({ 'GET /api/v1/me': json(200, profile()) });
    const signoutRedirect = vi.spyOn(UserManager.prototype, 'signoutRedirect').mockResolvedValue(undefined);
    await renderApp('/');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Mở menu tài khoản' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Nguyễn Văn An')).toBeInTheDocument();
    await user.click(within(menu).getByRole('menuitem', { name: 'Đăng xuất' }));
    expect(signoutRedirect).toHaveBeenCalledWith({ id_token_hint: 'id-token-1', extraQueryParams: { ui_locales: 'vi' } });
  });
});

describe('navigation', () => {
  it('has Dashboard and Personal information active, the current one marked, the others shown inactive', async () => {
    signIn();
    stubFetch({ 'GET /api/v1/me': json(200, profile()) });
    await renderApp('/user/dashboard?locale=en');
    const [nav] = await screen.findAllByRole('navigation', { name: 'Account navigation' });
    const menu = within(nav!);
    expect(menu.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/user/dashboard');
    expect(menu.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    expect(menu.getByRole('link', { name: 'Personal information' })).toHaveAttribute('href', '/user/profile');
    expect(menu.getByRole('link', { name: 'Personal information' })).not.toHaveAttribute('aria-current');
    for (const name of ['Data and personalization', 'Security', 'People and sharing', 'Help', 'Send feedback']) {
      const item = menu.getByRole('button', { name });
      expect(item).toHaveAttribute('aria-disabled', 'true');
      expect(item).toHaveAttribute('tabindex', '-1');
    }
    expect(menu.getByRole('button', { name: 'Log out' })).not.toHaveAttribute('aria-disabled');
  });

  it('opens the side menu in a drawer from the hamburger on a 375 px screen, and closes it on the way', async () => {
    vi.stubGlobal('innerWidth', 375);
    signIn();
    stubFetch({ 'GET /api/v1/me': json(200, profile()) });
    await renderApp('/user/dashboard');
    const user = userEvent.setup();
    expect(document.querySelector('.MuiDrawer-paper')).toBeNull();
    await user.click(await screen.findByRole('button', { name: 'Mở menu điều hướng' }));
    const drawer = await waitFor(() => {
      const paper = document.querySelector<HTMLElement>('.MuiDrawer-paper');
      expect(paper).not.toBeNull();
      return paper!;
    });
    const nav = within(drawer).getByRole('navigation', { name: 'Điều hướng tài khoản' });
    await user.click(within(nav).getByRole('link', { name: 'Thông tin cá nhân' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeInTheDocument();
    await waitFor(() => expect(document.querySelector('.MuiDrawer-paper')).toBeNull());
  });

  it("mounts a phone's closed drawer once the browser is idle, not in the first render, so its first opening slides in", async () => {
    vi.stubGlobal('innerWidth', 375);
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => idle.push(callback));
    vi.stubGlobal('cancelIdleCallback', () => undefined);
    signIn();
    stubFetch({ 'GET /api/v1/me': json(200, profile()) });
    await renderApp('/user/dashboard');
    const user = userEvent.setup();
    const hamburger = await screen.findByRole('button', { name: 'Mở menu điều hướng' });
    expect(idle).toHaveLength(1);
    act(() => idle.forEach((callback) => callback()));
    await user.click(hamburger);
    const paper = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('.MuiDrawer-paper');
      expect(found).not.toBeNull();
      return found!;
    });
    // MUI's Slide sets the transition only when it animates an opening (not for a drawer mounted open).
    expect(paper.style.transition).toContain('transform');
    expect(within(paper).getByRole('navigation', { name: 'Điều hướng tài khoản' })).toBeInTheDocument();
  });

  it('goes to the session-expired alert when the access token expires while the page is open', async () => {
    freezeClock();
    signIn(1);
    stubFetch({ 'GET /api/v1/me': json(200, profile()) });
    await renderApp('/user/dashboard?locale=en');
    expect(await screen.findByText('Welcome, Nguyễn Văn An')).toBeInTheDocument();
    // oidc-client-ts raises accessTokenExpired a second after expires_at, checking the clock every second.
    advanceClock(3_000);
    expect(await screen.findByRole('heading', { level: 1, name: 'Session expired' })).toBeInTheDocument();
    expect(window.sessionStorage.getItem(USER_KEY)).toBeNull();
  });
});

describe('initials', () => {
  it('takes the first letters of the first and last words', () => {
    expect(initials('Nguyễn Văn An')).toBe('NA');
    expect(initials('Ánh')).toBe('Á');
    expect(initials('an.nguyen@example.com')).toBe('AN');
    expect(initials('')).toBe('?');
  });
});
