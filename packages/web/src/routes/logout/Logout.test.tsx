import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { browser } from '../../lib/browser.ts';
import { ErrorCode } from '@passgate/contract/rules';
import { apiError, json, stubFetch } from '../../test/fetch-stub.ts';
import { publicClient } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const READ = 'GET /api/v1/requests/logout/logout-1';
const DECIDE = 'POST /api/v1/requests/logout/logout-1';
const CONTINUE = 'http://localhost:3000/api/v1/requests/logout/logout-1/continue';

describe('Logout screen', () => {
  it('asks, and logs out with confirmed true', async () => {
    const requests = stubFetch({
      [READ]: json(200, { challenge: 'logout-1', autoConfirm: false, client: publicClient() }),
      [DECIDE]: json(200, { redirectTo: CONTINUE }),
    });
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    await renderApp('/logout?challenge=logout-1&locale=en');
    expect(await screen.findByText('Do you want to log out of Demo App?')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(CONTINUE));
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ confirmed: true });
  });

  it('goes back with confirmed false', async () => {
    const requests = stubFetch({
      [READ]: json(200, { challenge: 'logout-1', autoConfirm: false, client: null }),
      [DECIDE]: json(200, { redirectTo: 'http://localhost:3000/demo' }),
    });
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    await renderApp('/logout?challenge=logout-1');
    expect(await screen.findByText('Bạn có muốn đăng xuất không?')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Quay lại' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost:3000/demo'));
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ confirmed: false });
  });

  it('confirms at once, without asking, when autoConfirm', async () => {
    const requests = stubFetch({
      [READ]: json(200, { challenge: 'logout-1', autoConfirm: true, client: publicClient() }),
      [DECIDE]: json(200, { redirectTo: CONTINUE }),
    });
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    await renderApp('/logout?challenge=logout-1');
    await waitFor(() => expect(assign).toHaveBeenCalledWith(CONTINUE));
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([{ confirmed: true }]);
    expect(screen.queryByRole('button', { name: 'Đăng xuất' })).not.toBeInTheDocument();
  });

  describe('when the request has already been answered or has expired', () => {
    const gone = () => apiError(400, ErrorCode.RequestExpired, 'Request expired', 'challenge');

    it('says the sign-out request is gone, in the client\'s theme, and leads back to the client', async () => {
      const calls = stubFetch({ [READ]: gone(), 'GET /api/v1/clients/partner-shop': json(200, publicClient({ clientId: 'partner-shop', clientName: 'Partner Shop', homeUri: 'http://localhost:3000/demo/login?client=partner-shop' })) });
      await renderApp('/logout?challenge=logout-1&client_id=partner-shop&locale=en');
      expect(await screen.findByRole('heading', { level: 1, name: 'This sign-out request is no longer open' })).toBeInTheDocument();
      expect(document.title).toBe('Sign-out request no longer open · Partner Shop');
      expect(screen.getByText(/To log out, start again from Partner Shop/)).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Back to Partner Shop' })).toHaveAttribute('href', 'http://localhost:3000/demo/login?client=partner-shop&locale=en');
      expect(screen.getByRole('img', { name: /Partner Shop/ })).toBeInTheDocument();
      expect(screen.queryByText(/sign-in/i)).not.toBeInTheDocument();
      expect(screen.queryByRole('link', { name: 'Go to your account' })).not.toBeInTheDocument();
      expect(calls.filter((c) => c.method === 'GET' && c.path === '/api/v1/requests/logout/logout-1')).toHaveLength(1);
    });

    it('says it in Vietnamese, and leads to the account area without a client', async () => {
      stubFetch({ [READ]: gone() });
      await renderApp('/logout?challenge=logout-1&locale=vi');
      expect(await screen.findByRole('heading', { level: 1, name: 'Yêu cầu đăng xuất này không còn hiệu lực' })).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Đến tài khoản của bạn' })).toHaveAttribute('href', '/user/dashboard?locale=vi');
    });

    it('says so when the request goes while the question is open', async () => {
      stubFetch({
        [READ]: json(200, { challenge: 'logout-1', autoConfirm: false, client: publicClient() }),
        [DECIDE]: gone(),
        'GET /api/v1/clients/demo-app': json(200, publicClient()),
      });
      await renderApp('/logout?challenge=logout-1&client_id=demo-app&locale=en');
      await userEvent.setup().click(await screen.findByRole('button', { name: 'Log out' }));
      expect(await screen.findByRole('heading', { level: 1, name: 'This sign-out request is no longer open' })).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Back to Demo App' })).toBeInTheDocument();
    });
  });
});
