import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, stubFetch, type RecordedRequest } from '../../../test/fetch-stub.ts';
import { profile, signIn } from '../../../test/account.ts';
import { tenant } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/render.tsx';

const LIST = 'GET /api/v1/webauthn-credentials/me';
const CHALLENGE = 'POST /api/v2/get-challenge';
const items = [
  { id: 'cred-1', deviceName: 'Điện thoại', active: true, createdAt: 1_763_700_000, lastUsedAt: 1_763_710_000 },
  { id: 'cred-2', deviceName: 'Laptop công ty', active: false, createdAt: 1_763_720_000, lastUsedAt: null },
];
const sent = { challenge: 'ch-1', channel: 'email', destination: 'd***@example.com', resendAfter: 60 };
const posts = (requests: RecordedRequest[], path: string) => requests.filter((r) => r.method === 'POST' && r.path === path);

async function openProfile(routes: Parameters<typeof stubFetch>[0] = {}) {
  signIn();
  const requests = stubFetch({ 'GET /api/v1/me': json(200, profile()), 'GET /api/v1/me/tenant': json(200, tenant()), [LIST]: json(200, { items }), ...routes });
  await renderApp('/user/profile?locale=en');
  await screen.findByRole('heading', { level: 1, name: 'Personal information' });
  return { requests, user: userEvent.setup() };
}

describe('Personal information: My devices', () => {
  it('lists the devices with their state, and links to the registration page', async () => {
    const { user } = await openProfile();
    const card = await screen.findByRole('region', { name: 'My devices' });
    const phone = await within(card).findByRole('listitem', { name: 'Điện thoại' });
    expect(within(phone).getByText('Active')).toBeInTheDocument();
    expect(within(phone).queryByRole('button', { name: 'Activate Điện thoại' })).toBeNull();
    const laptop = within(card).getByRole('listitem', { name: 'Laptop công ty' });
    expect(within(laptop).getByText('Inactive')).toBeInTheDocument();
    expect(within(laptop).getByRole('button', { name: 'Activate Laptop công ty' })).toBeInTheDocument();

    await user.click(within(card).getByRole('link', { name: 'Register a new device' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Register a new device' })).toBeInTheDocument();
  });

  it('is not shown when the tenant does not allow devices, and the list is not read', async () => {
    const { requests } = await openProfile({ 'GET /api/v1/me/tenant': json(200, tenant({ webauthnAllowed: false })) });
    await screen.findByRole('region', { name: 'Delete account' });
    await waitFor(() => expect(requests.some((r) => r.path === '/api/v1/me/tenant')).toBe(true));
    expect(screen.queryByRole('region', { name: 'My devices' })).toBeNull();
    expect(requests.filter((r) => r.path === '/api/v1/webauthn-credentials/me')).toEqual([]);
  });

  it('Activate asks for an activation challenge and opens the activation page with the name and where the code went', async () => {
    const { requests, user } = await openProfile({ [CHALLENGE]: json(200, sent) });
    await user.click(await screen.findByRole('button', { name: 'Activate Laptop công ty' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Activate device' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Device name' })).toHaveValue('Laptop công ty');
    expect(screen.getByText('We sent a 6-digit code to d***@example.com.')).toBeInTheDocument();
    expect(posts(requests, '/api/v2/get-challenge')[0]?.body).toEqual({ challenge_type: 'ACTIVATION_WEBAUTHN', client_id: 'account', webauthn_credential_id: 'cred-2' });
  });

  it('Delete asks "Do you want to delete device X?", then sends the deletion code and opens the deletion page', async () => {
    const { requests, user } = await openProfile({ [CHALLENGE]: json(200, sent) });
    await user.click(await screen.findByRole('button', { name: 'Delete Điện thoại' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete device' });
    expect(within(dialog).getByText('Do you want to delete device Điện thoại?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts(requests, '/api/v2/get-challenge')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete Điện thoại' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete device' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Delete device' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Device name' })).toHaveValue('Điện thoại');
    expect(posts(requests, '/api/v2/get-challenge')[0]?.body).toEqual({ challenge_type: 'DELETION_WEBAUTHN', client_id: 'account', webauthn_credential_id: 'cred-1' });
  });

  it('shows a refused challenge in the dialog', async () => {
    const { user } = await openProfile({ [CHALLENGE]: apiError(503, 1292, 'We could not send the code, please try again') });
    await user.click(await screen.findByRole('button', { name: 'Delete Laptop công ty' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete device' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('We could not send the code, please try again');
  });
});
