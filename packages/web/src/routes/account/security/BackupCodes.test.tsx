import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, stubFetch, type RecordedRequest } from '../../../test/fetch-stub.ts';
import { profile, signIn } from '../../../test/account.ts';
import { renderApp } from '../../../test/render.tsx';

type Routes = Parameters<typeof stubFetch>[0];
const CODES = ['abcde-23456', 'fghjk-34567', 'mnpqr-45678', 'stuvw-56789', 'xyz23-6789a', 'bcdef-789ab', 'ghjkm-89abc', 'npqrs-9abcd', 'tuvwx-abcde', 'yz234-bcdef'];
const posts = (requests: RecordedRequest[], path: string) => requests.filter((r) => r.method === 'POST' && r.path === path);

async function openSecurity(routes: Routes, locale: 'en' | 'vi' = 'en') {
  signIn();
  const requests = stubFetch({
    'GET /api/v1/me': json(200, profile({ enableMfa: true, authenticatorType: 'totp' })),
    'GET /api/v1/me/mfa/backup-codes': json(200, { remaining: 7, total: 10 }),
    ...routes,
  });
  await renderApp(`/user/security?locale=${locale}`);
  await screen.findByRole('heading', { level: 1, name: locale === 'en' ? 'Security' : 'Bảo mật' });
  return { requests, user: userEvent.setup() };
}

describe('backup codes on the Security page', () => {
  it('says how many are left, and generating new ones re-checks the password beside the field, then shows them once', async () => {
    let attempt = 0;
    const { requests, user } = await openSecurity({
      'POST /api/v1/me/mfa/backup-codes': () => (++attempt === 1 ? apiError(400, 1017, 'Username or password not correct', 'password') : json(200, { backupCodes: CODES, remaining: 10, total: 10 })),
    });
    expect(await screen.findByText('7 of 10 left')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Generate new backup codes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Generate new backup codes' });
    expect(within(dialog).getByText(/current backup codes will stop working/)).toBeInTheDocument();
    const field = within(dialog).getByLabelText(/Password/);
    await user.type(field, 'Wrong#1{Enter}');
    expect(await within(dialog).findByText('The password is not correct')).toBeInTheDocument();
    expect(field).toHaveValue('Wrong#1');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).queryByRole('alert')).toBeNull();

    await user.clear(field);
    await user.type(field, 'Secret#1{Enter}');
    const codes = await screen.findByRole('dialog', { name: 'Save your backup codes' });
    expect(posts(requests, '/api/v1/me/mfa/backup-codes').at(-1)?.body).toEqual({ password: 'Secret#1' });
    const items = within(within(codes).getByRole('list', { name: 'Backup codes' })).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual(CODES);
    expect(within(codes).getByText(/Keep these codes somewhere safe/)).toBeInTheDocument();
    const download = within(codes).getByRole('link', { name: 'Download (.txt)' });
    expect(download).toHaveAttribute('download', 'passgate-backup-codes.txt');
    const text = decodeURIComponent(download.getAttribute('href')!.replace(/^data:text\/plain;charset=utf-8,/, ''));
    for (const code of CODES) expect(text).toContain(code);

    await user.click(within(codes).getByRole('button', { name: 'I have saved my codes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText('10 of 10 left')).toBeInTheDocument();
  });

  it('speaks Vietnamese, and says when none are left', async () => {
    await openSecurity({ 'GET /api/v1/me/mfa/backup-codes': json(200, { remaining: 0, total: 10 }) }, 'vi');
    expect(await screen.findByText('Đã hết mã dự phòng: hãy tạo mã mới')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Tạo mã dự phòng mới' })).toBeInTheDocument();
  });
});
