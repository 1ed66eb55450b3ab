import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { UserManager } from 'oidc-client-ts';
import { describe, expect, it, vi } from 'vitest';
import type { AdminMe } from '@passgate/contract';
import { adminClient, adminTenant, signInAdmin } from '../../test/admin-fixtures.ts';
import { enterText } from '../../test/enter-text.ts';
import { apiError, json, stubFetch, type RecordedRequest } from '../../test/fetch-stub.ts';
import { renderApp } from '../../test/render.tsx';

const me: AdminMe = { userId: 'u1', email: 'demo@example.com', name: 'Demo', operator: true, tenantAdminOf: [] };

const tenant = adminTenant();
const client = adminClient();

const CLIENT_PATH = '/api/admin/v1/tenants/demo/clients/shop';

function consoleRoutes(extra: Record<string, Parameters<typeof stubFetch>[0][string]> = {}): RecordedRequest[] {
  return stubFetch({
    'GET /api/admin/v1/me': json(200, me),
    'GET /api/admin/v1/tenants': json(200, { items: [tenant], page: 1, pageSize: 100, total: 1 }),
    'GET /api/admin/v1/tenants/demo': json(200, tenant),
    [`GET ${CLIENT_PATH}`]: json(200, client),
    ...extra,
  });
}

/** The preview's document: the real Login screen, rendered into the frame. */
async function previewBody(): Promise<HTMLElement> {
  const frame = await screen.findByTitle('Preview of the sign-in screen of Shop');
  const body = (frame as HTMLIFrameElement).contentDocument?.body;
  if (!body) throw new Error('the preview frame has no document');
  await waitFor(() => expect(within(body).getByRole('heading', { level: 1 })).toBeInTheDocument());
  return body;
}

function previewButtonColour(body: HTMLElement): string {
  const button = within(body).getByRole('button', { name: 'Log in' });
  const frameWindow = body.ownerDocument.defaultView;
  if (!frameWindow) throw new Error('no window');
  return frameWindow.getComputedStyle(button).backgroundColor;
}

describe('admin console: a client and the live preview of its Login screen', () => {
  it('renders the client Login screen with the real components, and typing a colour or a name changes it at once', async () => {
    signInAdmin();
    consoleRoutes();
    await renderApp('/admin/tenants/demo/clients/shop?locale=en');
    const body = await previewBody();
    expect(within(body).getByText(/to continue to Shop/)).toBeInTheDocument();
    expect(previewButtonColour(body)).toBe('rgb(21, 101, 192)');

    const buttonColour = screen.getByRole('textbox', { name: 'Button colour' });
    fireEvent.change(buttonColour, { target: { value: '#B71C1C' } });
    await waitFor(() => expect(previewButtonColour(body)).toBe('rgb(183, 28, 28)'));

    // At once, as a paste: key by key, each key re-rendered the page and its whole preview (seconds in all).
    const user = userEvent.setup();
    await user.clear(screen.getByRole('textbox', { name: 'Name' }));
    await enterText(user, screen.getByRole('textbox', { name: 'Name' }), 'Shop Plus');
    await waitFor(() => expect(within(body).getByText(/to continue to Shop Plus/)).toBeInTheDocument());
  });

  it('switches the preview to Vietnamese without changing the console language', async () => {
    signInAdmin();
    consoleRoutes();
    await renderApp('/admin/tenants/demo/clients/shop?locale=en');
    const body = await previewBody();
    expect(within(body).getByRole('heading', { level: 1 })).toHaveTextContent('Log in');
    await userEvent.click(within(screen.getByRole('group', { name: 'Preview language' })).getByRole('button', { name: /^VI/ }));
    await waitFor(() => expect(within(body).getByRole('heading', { level: 1 })).toHaveTextContent('Đăng nhập'));
    expect(screen.getByRole('heading', { level: 2, name: 'Live preview' })).toBeInTheDocument();
  });

  it('refuses a half-typed colour and a redirect address with a fragment before asking the server, naming the fields', async () => {
    signInAdmin();
    const requests = consoleRoutes();
    await renderApp('/admin/tenants/demo/clients/shop?locale=en');
    await previewBody();
    fireEvent.change(screen.getByRole('textbox', { name: 'Main colour' }), { target: { value: '#12' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Redirect addresses' }), { target: { value: 'https://shop.example/callback#x' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('Colours are written #RRGGBB, for example #1F5FBF')).toBeInTheDocument();
    expect(screen.getByText('A redirect address may not contain a # fragment: https://shop.example/callback#x')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('2 fields need attention');
    expect(requests.some((r) => r.method === 'PATCH')).toBe(false);
  });

  it('saves the form as the admin API wants it (snake_case top-level keys, theme kept) and shows the field the server refused', async () => {
    signInAdmin();
    const requests = consoleRoutes({
      [`PATCH ${CLIENT_PATH}`]: apiError(400, 1002, 'logo_uri: must be an https address', 'logo_uri'),
    });
    await renderApp('/admin/tenants/demo/clients/shop?locale=en');
    await previewBody();
    fireEvent.change(screen.getByRole('textbox', { name: 'Background colour' }), { target: { value: '#FFFFFF' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(requests.some((r) => r.method === 'PATCH')).toBe(true));
    const patch = requests.find((r) => r.method === 'PATCH');
    expect(patch?.headers.get('authorization')).toBe('Bearer admin-token-1');
    expect(patch?.body).toMatchObject({
      name: 'Shop',
      redirect_uris: ['https://shop.example/callback'],
      theme: { primaryColor: '#1565C0', buttonColor: '#1565C0', backgroundColor: '#FFFFFF' },
      token_endpoint_auth_method: 'client_secret_basic',
    });
    expect(patch?.body).not.toHaveProperty('facebook_app_secret');
    expect(await screen.findByText('logo_uri: must be an https address')).toBeInTheDocument();
  });

  it('sends an admin without 2-step verification to set it up (403/1304)', async () => {
    signInAdmin();
    stubFetch({ 'GET /api/admin/v1/me': apiError(403, 1304, 'Set up 2-step verification to use the admin console') });
    await renderApp('/admin/dashboard?locale=en');
    expect(await screen.findByRole('heading', { level: 1, name: 'Set up 2-step verification first' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Set up 2-step verification' })).toHaveAttribute('href', '/user/security/mfa');
  });

  it('asks an admin whose sign-in did not use the app or the device to sign in again, with the credentials asked anew (403/1307)', async () => {
    signInAdmin();
    stubFetch({ 'GET /api/admin/v1/me': apiError(403, 1307, 'Sign in again with your authenticator app, or with your device') });
    const signinRedirect = vi.spyOn(UserManager.prototype, 'signinRedirect').mockResolvedValue(undefined);
    await renderApp('/admin/users?locale=en');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in again with 2-step verification' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Set up 2-step verification' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Sign in again' }));
    await waitFor(() => expect(signinRedirect).toHaveBeenCalledTimes(1));
    // prompt=login: the provider's live session (the password-only sign-in) must not answer at once.
    expect(signinRedirect.mock.calls[0]?.[0]).toMatchObject({ prompt: 'login', state: { returnTo: '/admin/users?locale=en' } });
    signinRedirect.mockRestore();
  });
});
