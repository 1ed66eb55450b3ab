import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { browser } from '../../lib/browser.ts';
import { json, stubFetch } from '../../test/fetch-stub.ts';
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
});
