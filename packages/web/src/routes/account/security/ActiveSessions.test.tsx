import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ActiveSession } from '@passgate/contract';
import { apiError, json, stubFetch } from '../../../test/fetch-stub.ts';
import { profile, signIn } from '../../../test/account.ts';
import { freezeClock } from '../../../test/clock.ts';
import { renderApp } from '../../../test/render.tsx';

type Routes = Parameters<typeof stubFetch>[0];

const NOW = Date.parse('2026-11-24T10:00:00.000Z');
const minutesAgo = (m: number) => new Date(NOW - m * 60_000).toISOString();

const here: ActiveSession = {
  id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  browser: 'Chrome 131',
  os: 'Windows 10',
  ip: '203.0.113.5',
  place: 'Hanoi, Vietnam',
  signedInAt: minutesAgo(120),
  lastActiveAt: minutesAgo(0),
  applications: [{ clientId: 'account', name: 'Passgate account' }],
  current: true,
};
const phone: ActiveSession = {
  id: 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
  browser: 'Safari 17',
  os: 'iOS 17.5',
  ip: '198.51.100.7',
  signedInAt: minutesAgo(3 * 24 * 60),
  lastActiveAt: minutesAgo(5),
  applications: [
    { clientId: 'account', name: 'Passgate account' },
    { clientId: 'demo-app', name: 'Demo App' },
  ],
  current: false,
};
const tablet: ActiveSession = { ...phone, id: 'cccccccccccccccccccccccccccccccc', browser: 'Firefox 133', os: 'Linux', ip: '192.0.2.9', lastActiveAt: minutesAgo(180), applications: [] };

async function openSecurity(routes: Routes, locale: 'en' | 'vi' = 'en') {
  freezeClock();
  vi.setSystemTime(NOW);
  signIn();
  const requests = stubFetch({ 'GET /api/v1/me': json(200, profile()), ...routes });
  await renderApp(`/user/security?locale=${locale}`);
  return { requests, user: userEvent.setup() };
}

describe('Where you’re signed in', () => {
  it('lists each session with its browser, place and address, applications and times, this one marked', async () => {
    await openSecurity({ 'GET /api/v1/me/sessions': json(200, { items: [here, phone] }) });
    const list = await screen.findByRole('list', { name: 'Signed-in sessions' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(within(first!).getByRole('heading', { name: 'Chrome 131 · Windows 10' })).toBeInTheDocument();
    expect(within(first!).getByText('This session')).toBeInTheDocument();
    expect(within(first!).getByText('Hanoi, Vietnam · 203.0.113.5')).toBeInTheDocument();
    expect(within(first!).queryByRole('button')).toBeNull();
    expect(within(second!).getByText('198.51.100.7')).toBeInTheDocument();
    expect(within(second!).getByText('Signed in to: Passgate account, Demo App')).toBeInTheDocument();
    expect(within(second!).getByText(/Last active 5 minutes ago/)).toBeInTheDocument();
    // The button says which session it signs out (its sign-in time tells two alike apart; the time zone is the machine's).
    expect(within(second!).getByRole('button', { name: /^Sign out Safari 17 · iOS 17\.5 \(signed in \d{1,2} Nov 2026, \d\d:\d\d\)$/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign out all other sessions' })).toBeInTheDocument();
  });

  it('signs one other session out after a confirmation, and lists again', async () => {
    let signedOut = false;
    const { requests, user } = await openSecurity({
      'GET /api/v1/me/sessions': () => json(200, { items: signedOut ? [here] : [here, phone] }),
      [`DELETE /api/v1/me/sessions/${phone.id}`]: () => {
        signedOut = true;
        return new Response(null, { status: 204 });
      },
    });
    await user.click(await screen.findByRole('button', { name: /^Sign out Safari 17/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out this session?' });
    expect(within(dialog).getByText(/Safari 17 · iOS 17\.5 will be signed out/)).toBeInTheDocument();
    // Cancel changes nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: /^Sign out Safari 17/ }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText('Safari 17 · iOS 17.5 was signed out')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Safari 17 · iOS 17.5' })).toBeNull());
    expect(screen.getByText('You are signed in only here.')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([`/api/v1/me/sessions/${phone.id}`]);
  });

  it('signs out all the others at once, in Vietnamese', async () => {
    let signedOut = false;
    const { requests, user } = await openSecurity(
      {
        'GET /api/v1/me/sessions': () => json(200, { items: signedOut ? [here] : [here, phone, tablet] }),
        'POST /api/v1/me/sessions/sign-out-others': () => {
          signedOut = true;
          return json(200, { signedOut: 2 });
        },
      },
      'vi',
    );
    expect(await screen.findByRole('heading', { name: 'Phiên đăng nhập' })).toBeInTheDocument();
    expect(await screen.findByText('Phiên này')).toBeInTheDocument();
    expect(screen.getByText(/Hoạt động lần cuối 3 giờ trước/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Đăng xuất Firefox 133 · Linux \(đăng nhập lúc / })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Đăng xuất tất cả phiên khác' }));
    const dialog = await screen.findByRole('dialog', { name: 'Đăng xuất tất cả phiên khác?' });
    await user.click(within(dialog).getByRole('button', { name: 'Đăng xuất tất cả phiên khác' }));
    expect(await screen.findByText('Đã đăng xuất 2 phiên khác')).toBeInTheDocument();
    expect(await screen.findByText('Bạn chỉ đang đăng nhập ở đây.')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/api/v1/me/sessions/sign-out-others']);
  });

  it('says why the current session cannot be signed out here', async () => {
    const { user } = await openSecurity({
      'GET /api/v1/me/sessions': json(200, { items: [here, phone] }),
      [`DELETE /api/v1/me/sessions/${phone.id}`]: apiError(400, 1110, 'current', 'id'),
    });
    await user.click(await screen.findByRole('button', { name: /^Sign out Safari 17/ }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This is the session you are using: to end it, sign out');
  });
});
