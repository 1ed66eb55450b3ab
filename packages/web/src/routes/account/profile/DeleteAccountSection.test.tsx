import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, stubFetch } from '../../../test/fetch-stub.ts';
import { USER_KEY, profile, signIn } from '../../../test/account.ts';
import { renderApp } from '../../../test/render.tsx';

async function openDeleteDialog(answer: Response, locale: 'vi' | 'en' = 'vi') {
  signIn();
  const requests = stubFetch({ 'GET /api/v1/me': json(200, profile()), 'DELETE /api/v1/me': answer });
  await renderApp(`/user/profile?locale=${locale}`);
  const section = await screen.findByRole('region', { name: locale === 'vi' ? 'Xoá tài khoản' : 'Delete account' });
  const user = userEvent.setup();
  await user.click(within(section).getByRole('button', { name: locale === 'vi' ? 'Xoá tài khoản' : 'Delete account' }));
  const dialog = await screen.findByRole('dialog', { name: locale === 'vi' ? 'Xoá tài khoản của bạn?' : 'Delete your account?' });
  return { requests, dialog, user };
}

describe('deleting the account', () => {
  it('asks first, and Cancel deletes nothing', async () => {
    const { requests, dialog, user } = await openDeleteDialog(new Response(null, { status: 204 }), 'en');
    expect(dialog).toHaveTextContent('deleted permanently');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requests.filter((r) => r.method === 'DELETE')).toEqual([]);
  });

  it('sends DELETE /api/v1/me once confirmed, forgets the session and shows the public farewell page', async () => {
    const { requests, dialog, user } = await openDeleteDialog(new Response(null, { status: 204 }));
    await user.click(within(dialog).getByRole('button', { name: 'Xoá vĩnh viễn' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Tài khoản của bạn đã được xoá' })).toBeInTheDocument();
    const deletion = requests.filter((r) => r.method === 'DELETE' && r.path === '/api/v1/me');
    expect(deletion).toHaveLength(1);
    expect(deletion[0]?.headers.get('authorization')).toBe('Bearer access-token-1');
    expect(window.sessionStorage.getItem(USER_KEY)).toBeNull();
    // Nothing of the account was asked for after the deletion.
    expect(requests.slice(requests.indexOf(deletion[0]!) + 1)).toEqual([]);
  });

  it('shows a failure in the dialog and keeps the account', async () => {
    const { dialog, user } = await openDeleteDialog(apiError(403, 1303, 'The tenant does not allow this action'), 'en');
    await user.click(within(dialog).getByRole('button', { name: 'Delete permanently' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The tenant does not allow this action');
    expect(window.sessionStorage.getItem(USER_KEY)).not.toBeNull();
  });
});

