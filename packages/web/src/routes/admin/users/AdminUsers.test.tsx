import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AdminUserDetail } from '@passgate/contract';
import { adminUser, requestedUrls, signInAdmin, tenantAdminMe, tenantPage } from '../../../test/admin-fixtures.ts';
import { apiError, json, stubFetch, type RecordedRequest } from '../../../test/fetch-stub.ts';
import { renderApp } from '../../../test/render.tsx';

const USERS = '/api/admin/v1/tenants/sen-vang/users';
const AN = `${USERS}/user-an`;

/** The console of a tenant admin of sen-vang, with the routes of one user's page (`user` first, then `after` once an action ran). */
function consoleOf(user: AdminUserDetail, extra: Record<string, Parameters<typeof stubFetch>[0][string]> = {}): RecordedRequest[] {
  return stubFetch({
    'GET /api/admin/v1/me': json(200, tenantAdminMe),
    'GET /api/admin/v1/tenants': json(200, tenantPage([{ id: 'sen-vang', name: 'Sen Vàng' }])),
    [`GET ${AN}`]: json(200, user),
    ...extra,
  });
}

const posts = (requests: RecordedRequest[]) => requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

describe('admin console: users', () => {
  it('searches the picked tenant by what is typed (after a pause) and by status, from page 1', async () => {
    signInAdmin();
    stubFetch({
      'GET /api/admin/v1/me': json(200, tenantAdminMe),
      'GET /api/admin/v1/tenants': json(200, tenantPage([{ id: 'sen-vang', name: 'Sen Vàng' }])),
      [`GET ${USERS}`]: json(200, { items: [adminUser({ locked: true })], page: 1, pageSize: 20, total: 1 }),
    });
    await renderApp('/admin/users?locale=en');
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(within(table).getByRole('link', { name: 'an@example.com' })).toHaveAttribute('href', '/admin/tenants/sen-vang/users/user-an');
    expect(within(table).getByText('Locked')).toBeInTheDocument();
    expect(screen.getByText('The accounts of tenant Sen Vàng.')).toBeInTheDocument();

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search users' }), 'an@');
    await waitFor(() => expect(requestedUrls(USERS).at(-1)?.searchParams.get('q')).toBe('an@'));
    await userEvent.click(screen.getByRole('combobox', { name: /^Status/ }));
    await userEvent.click(screen.getByRole('option', { name: 'Disabled' }));
    await waitFor(() => expect(requestedUrls(USERS).at(-1)?.searchParams.get('status')).toBe('disabled'));
    const last = requestedUrls(USERS).at(-1)!;
    expect(Object.fromEntries(last.searchParams)).toMatchObject({ q: 'an@', status: 'disabled', page: '1', page_size: '20' });
  });

  it('unlocks a locked account only after a confirmation, and says so', async () => {
    signInAdmin();
    let unlocked = false;
    const requests = consoleOf(adminUser({ locked: true, lockedUntil: '2026-11-24T10:00:00.000Z', failedLoginCount: 5 }), {
      [`GET ${AN}`]: () => json(200, unlocked ? adminUser() : adminUser({ locked: true, lockedUntil: '2026-11-24T10:00:00.000Z', failedLoginCount: 5 })),
      [`POST ${AN}/unlock`]: () => ((unlocked = true), json(200, adminUser())),
    });
    await renderApp('/admin/tenants/sen-vang/users/user-an?locale=en');
    expect(await screen.findByRole('heading', { level: 1, name: 'an@example.com' })).toBeInTheDocument();

    // Cancel: nothing is sent.
    await userEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    let dialog = screen.getByRole('dialog', { name: 'Unlock' });
    expect(dialog).toHaveTextContent('The account can sign in again at once, and its count of wrong passwords starts over.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posts(requests)).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    dialog = screen.getByRole('dialog', { name: 'Unlock' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByRole('status')).toHaveTextContent('The account is unlocked.');
    expect(posts(requests)).toEqual([`POST ${AN}/unlock`]);
    expect(requests.find((r) => r.method === 'POST')?.headers.get('authorization')).toBe('Bearer admin-token-1');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Unlock' })).not.toBeInTheDocument());
  });

  it('disables an account after a confirmation; a refusal is said in the dialog, which stays open', async () => {
    signInAdmin();
    let tries = 0;
    const requests = consoleOf(adminUser(), {
      [`POST ${AN}/disable`]: () => (++tries === 1 ? apiError(409, 1305, 'Only an active account can be disabled (this one is pending)') : json(200, adminUser({ status: 'disabled' }))),
    });
    await renderApp('/admin/tenants/sen-vang/users/user-an?locale=en');
    await userEvent.click(await screen.findByRole('button', { name: 'Disable account' }));
    const dialog = screen.getByRole('dialog', { name: 'Disable account' });
    expect(dialog).toHaveTextContent('The user is signed out everywhere and cannot sign in until the account is enabled again.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disable account' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This no longer applies to the account as it is now (someone may have changed it meanwhile). Reload the page to see its current state');
    expect(screen.getByRole('dialog', { name: 'Disable account' })).toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Disable account' }));
    expect(await screen.findByRole('status')).toHaveTextContent('The account is disabled.');
    expect(posts(requests)).toEqual([`POST ${AN}/disable`, `POST ${AN}/disable`]);
  });

  it('enables a disabled account at once (it is undone by disabling again)', async () => {
    signInAdmin();
    const requests = consoleOf(adminUser({ status: 'disabled' }), { [`POST ${AN}/enable`]: json(200, adminUser()) });
    await renderApp('/admin/tenants/sen-vang/users/user-an?locale=en');
    await userEvent.click(await screen.findByRole('button', { name: 'Enable account' }));
    expect(await screen.findByRole('status')).toHaveTextContent('The account is enabled.');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(posts(requests)).toEqual([`POST ${AN}/enable`]);
  });

  it('deletes an account only once its e-mail address is typed, then goes back to the list', async () => {
    signInAdmin();
    const requests = consoleOf(adminUser(), {
      [`DELETE ${AN}`]: new Response(null, { status: 204 }),
      [`GET ${USERS}`]: json(200, { items: [], page: 1, pageSize: 20, total: 0 }),
    });
    await renderApp('/admin/tenants/sen-vang/users/user-an?locale=en');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete account' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete account' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete account' });
    expect(confirm).toBeDisabled();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Type an@example.com to confirm' }), 'an@example.co');
    expect(confirm).toBeDisabled();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Type an@example.com to confirm' }), 'm');
    await userEvent.click(confirm);
    expect(await screen.findByRole('heading', { level: 1, name: 'Users' })).toBeInTheDocument();
    expect(posts(requests)).toEqual([`DELETE ${AN}`]);
  });

  it('sends a password reset code at once and says where it went', async () => {
    signInAdmin();
    const requests = consoleOf(adminUser(), { [`POST ${AN}/password-reset`]: json(200, { channel: 'email', destination: 'an@example.com', resendAfter: 60 }) });
    await renderApp('/admin/tenants/sen-vang/users/user-an?locale=en');
    await userEvent.click(await screen.findByRole('button', { name: 'Send a password reset code' }));
    expect(await screen.findByRole('status')).toHaveTextContent('A password reset code was sent to an@example.com.');
    expect(posts(requests)).toEqual([`POST ${AN}/password-reset`]);
  });
});
