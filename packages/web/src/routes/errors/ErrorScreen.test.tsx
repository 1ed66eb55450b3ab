import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { changeLanguage } from '../../i18n/i18n.ts';
import { renderApp } from '../../test/render.tsx';
import { errorStatusOf } from './ErrorScreen.tsx';

describe('Error screen', () => {
  it.each([
    [500, 'Internal Server Error', 'Lỗi máy chủ'],
    [404, 'Page Not Found', 'Không tìm thấy trang'],
    [403, 'Forbidden', 'Không có quyền truy cập'],
    [400, 'Bad Request', 'Yêu cầu không hợp lệ'],
  ])('shows the heading of state %i in English and Vietnamese', async (status, english, vietnamese) => {
    await changeLanguage('en');
    const { unmount } = await renderApp('/error', { status });
    expect(await screen.findByRole('heading', { level: 1, name: english })).toBeInTheDocument();
    expect(document.title).toBe(english);
    unmount();

    await changeLanguage('vi');
    await renderApp('/error', { status });
    expect(await screen.findByRole('heading', { level: 1, name: vietnamese })).toBeInTheDocument();
  });

  it('shows Page Not Found without a state', async () => {
    await renderApp('/error?locale=en');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
  });

  it('has a Back button that goes home when there is no page to go back to', async () => {
    await renderApp('/error?locale=en', { status: 403 });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Back' }));
    // Home is the account area, which starts a sign-in; the Error screen is gone.
    expect(screen.queryByRole('heading', { name: 'Forbidden' })).not.toBeInTheDocument();
  });

  it('reads only the known statuses', () => {
    expect(errorStatusOf({ status: 500 })).toBe(500);
    expect(errorStatusOf({ status: 418 })).toBe(404);
    expect(errorStatusOf(null)).toBe(404);
  });
});

describe('routing of unknown and alert paths', () => {
  it('sends an unknown path to the Error screen with state 404', async () => {
    await renderApp('/no/such/page?locale=en');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
  });

  it('shows the session-expired alert, and sends any other /alert path to it', async () => {
    await renderApp('/alert/anything-else?locale=en');
    expect(await screen.findByRole('heading', { level: 1, name: 'Session expired' })).toBeInTheDocument();
    expect(screen.getByText('Please log in again')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log in again' })).toBeInTheDocument();
  });

  it('serves the privacy policy in Vietnamese, publicly', async () => {
    await renderApp('/privacy');
    expect(await screen.findByRole('heading', { level: 1, name: 'Chính sách quyền riêng tư' })).toBeInTheDocument();
    for (const heading of [/Dữ liệu chúng tôi thu thập/, /sử dụng dữ liệu/, /Thời gian lưu trữ/, /Quyền truy cập/, /Bảo mật và giữ bí mật/, /Liên hệ/]) {
      expect(screen.getByRole('heading', { level: 2, name: heading })).toBeInTheDocument();
    }
  });
});
