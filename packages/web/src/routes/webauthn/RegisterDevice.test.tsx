import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { apiError, json, stubFetch, type RecordedRequest } from '../../test/fetch-stub.ts';
import { profile, signIn } from '../../test/account.ts';
import { tenant } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';
import { webauthnBrowser } from './webauthn-browser.ts';

const OPTIONS = {
  rp: { name: 'Demo', id: 'localhost' },
  user: { id: 'dXNlcg', name: 'demo@example.com', displayName: 'Nguyễn Văn An' },
  challenge: 'cmVnaXN0ZXI',
  pubKeyCredParams: [{ alg: -7, type: 'public-key' as const }],
  excludeCredentials: [],
  attestation: 'none' as const,
};
const ATTESTATION = {
  id: 'bmV3LWNyZWQ',
  rawId: 'bmV3LWNyZWQ',
  type: 'public-key' as const,
  response: { clientDataJSON: 'e30', attestationObject: 'YXR0', transports: ['internal' as const] },
  clientExtensionResults: {},
};
const REGISTER = 'POST /api/v1/webauthn-credentials/register';
const posts = (requests: RecordedRequest[], path: string) => requests.filter((r) => r.method === 'POST' && r.path === path);

async function openRegister(routes: Parameters<typeof stubFetch>[0] = {}) {
  signIn();
  const requests = stubFetch({
    'GET /api/v1/me': json(200, profile()),
    'GET /api/v1/me/tenant': json(200, tenant()),
    'GET /api/v1/webauthn-credentials/me': json(200, { items: [] }),
    'GET /api/v1/webauthn-credentials/register': json(200, { challenge: 'ceremony-1', options: OPTIONS }),
    ...routes,
  });
  await renderApp('/user/webauthn/register?locale=en');
  await screen.findByRole('heading', { level: 1, name: 'Register a new device' });
  return { requests, user: userEvent.setup() };
}

async function register(user: ReturnType<typeof userEvent.setup>, name = '  Laptop công ty  ') {
  await user.type(screen.getByRole('textbox', { name: /Device name/ }), name);
  await user.click(screen.getByRole('button', { name: 'Register' }));
}

describe('registering a device', () => {
  it('keeps Personal information marked in the side menu', async () => {
    vi.spyOn(webauthnBrowser, 'supported').mockReturnValue(true);
    await openRegister();
    const [nav] = screen.getAllByRole('navigation', { name: 'Account navigation' });
    expect(within(nav!).getByRole('link', { name: 'Personal information' })).toHaveClass('active');
    expect(within(nav!).getByRole('link', { name: 'Dashboard' })).not.toHaveClass('active');
  });

  it('needs a name of at most 255 characters', async () => {
    vi.spyOn(webauthnBrowser, 'supported').mockReturnValue(true);
    const { requests, user } = await openRegister();
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getByText('Please enter the device name')).toBeInTheDocument();
    const name = screen.getByRole('textbox', { name: /Device name/ });
    await user.click(name);
    await user.paste('x'.repeat(256));
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getByText('The device name must be at most 255 characters')).toBeInTheDocument();
    expect(requests.filter((r) => r.path.startsWith('/api/v1/webauthn-credentials/register'))).toEqual([]);
  });

  it('creates the credential with the server’s options, posts it, and opens the activation page with the name', async () => {
    vi.spyOn(webauthnBrowser, 'supported').mockReturnValue(true);
    const create = vi.spyOn(webauthnBrowser, 'register').mockResolvedValue(ATTESTATION);
    const { requests, user } = await openRegister({ [REGISTER]: json(200, { webauthnCredentialId: 'cred-9', challenge: 'activation-9', channel: 'email', destination: 'd***@example.com' }) });
    await register(user);

    expect(await screen.findByRole('heading', { level: 1, name: 'Activate device' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Device name' })).toHaveValue('Laptop công ty');
    expect(create).toHaveBeenCalledWith(OPTIONS);
    const [post] = posts(requests, '/api/v1/webauthn-credentials/register');
    expect(post?.body).toEqual({ device_name: 'Laptop công ty', publickey_credential: ATTESTATION, registration_challenge: OPTIONS.challenge });
    expect(post?.headers.get('authorization')).toBe('Bearer access-token-1');
    // The ceremony id of the GET goes in the POST's query.
    const urls = vi.mocked(globalThis.fetch).mock.calls.map(([input]) => String(input));
    expect(urls).toContain('/api/v1/webauthn-credentials/register?challenge=ceremony-1');
    // Where the server says it sent the code, masked as it gives it.
    expect(screen.getByText('We sent a 6-digit code to d***@example.com.')).toBeInTheDocument();
  });

  it.each([
    ['the browser answers InvalidStateError', () => Promise.reject(Object.assign(new Error('The authenticator was previously registered'), { name: 'InvalidStateError' })), {}],
    ['the server answers 1028', () => Promise.resolve(ATTESTATION), { [REGISTER]: apiError(409, 1028, 'This device is already registered') }],
  ])('says "This device is already registered" when %s', async (_, answer, routes) => {
    vi.spyOn(webauthnBrowser, 'supported').mockReturnValue(true);
    vi.spyOn(webauthnBrowser, 'register').mockImplementation(answer);
    const { user } = await openRegister(routes);
    await register(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('This device is already registered');
    expect(screen.getByRole('heading', { level: 1, name: 'Register a new device' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Register' })).toBeEnabled();
  });

  it('says so when the browser prompt is cancelled, and lets the user try again', async () => {
    vi.spyOn(webauthnBrowser, 'supported').mockReturnValue(true);
    vi.spyOn(webauthnBrowser, 'register').mockRejectedValue(Object.assign(new Error('not allowed'), { name: 'NotAllowedError' }));
    const { requests, user } = await openRegister();
    await register(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('Your device did not confirm');
    expect(posts(requests, '/api/v1/webauthn-credentials/register')).toEqual([]);
  });

  it('without public-key credentials: "Your browser does not support, try with another browser", then the profile', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.spyOn(webauthnBrowser, 'supported').mockReturnValue(false);
    await openRegister();
    expect(screen.getByRole('alert')).toHaveTextContent('Your browser does not support, try with another browser');
    expect(screen.queryByRole('textbox', { name: /Device name/ })).toBeNull();
    await act(async () => {
      vi.advanceTimersByTime(5_000);
    });
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Personal information' })).toBeInTheDocument());
  });
});
