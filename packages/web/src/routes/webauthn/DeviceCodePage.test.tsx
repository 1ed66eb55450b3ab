import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, stubFetch, type RecordedRequest } from '../../test/fetch-stub.ts';
import { profile, signIn } from '../../test/account.ts';
import { tenant } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';
import { advanceClock, freezeClock } from '../../test/clock.ts';

const ID = 'cred-1';
const LIST = 'GET /api/v1/webauthn-credentials/me';
const RESOLVE = 'POST /api/v2/resolve-challenge';
const RESEND = 'POST /api/v2/resend-challenge';
const device = (active: boolean) => ({ id: ID, deviceName: 'Laptop công ty', active, createdAt: 1_763_700_000, lastUsedAt: null });
const posts = (requests: RecordedRequest[], path: string) => requests.filter((r) => r.method === 'POST' && r.path === path);

async function open(path: string, state: unknown, routes: Parameters<typeof stubFetch>[0] = {}) {
  signIn();
  const requests = stubFetch({
    'GET /api/v1/me': json(200, profile()),
    'GET /api/v1/me/tenant': json(200, tenant()),
    [LIST]: json(200, { items: [device(false)] }),
    ...routes,
  });
  await renderApp(path, state);
  return { requests, user: userEvent.setup() };
}

describe('the device activation and deletion pages', () => {
  it.each([
    ['/user/webauthn/activation?challenge=ch-1&webauthnCredentialId=cred-1&locale=en', null],
    ['/user/webauthn/activation?webauthnCredentialId=cred-1&locale=en', { deviceName: 'Laptop' }],
    ['/user/webauthn/activation?challenge=ch-1&locale=en', { deviceName: 'Laptop' }],
    ['/user/webauthn/deletion?challenge=ch-1&webauthnCredentialId=cred-1&locale=en', {}],
    ['/user/webauthn/deletion?challenge=ch-1&locale=en', { deviceName: 'Laptop' }],
  ])('%s with state %j goes to Error 400, a request that is not valid', async (path, state) => {
    await open(path, state);
    expect(await screen.findByRole('heading', { name: 'Bad Request' })).toBeInTheDocument();
  });

  it('goes to Error 403 when the tenant does not allow devices', async () => {
    await open('/user/webauthn/activation?challenge=ch-1&webauthnCredentialId=cred-1&locale=en', { deviceName: 'Laptop' }, { 'GET /api/v1/me/tenant': json(200, tenant({ webauthnAllowed: false })) });
    expect(await screen.findByRole('heading', { name: 'Forbidden' })).toBeInTheDocument();
  });

  it('activates: the read-only name, where the code went, 1040 on the code, then "Your device is now active" on the refreshed list', async () => {
    let activated = false;
    let wrongOnce = true;
    const { requests, user } = await open(
      '/user/webauthn/activation?challenge=ch-1&webauthnCredentialId=cred-1&locale=en',
      { deviceName: 'Laptop công ty' },
      {
        [LIST]: () => json(200, { items: [device(activated)] }),
        [RESOLVE]: () => {
          if (wrongOnce) {
            wrongOnce = false;
            return apiError(400, 1040, 'bad code', 'code');
          }
          activated = true;
          return json(200, { webauthnCredentialId: ID, active: true });
        },
      },
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Activate device' })).toBeInTheDocument();
    const name = screen.getByRole('textbox', { name: 'Device name' });
    expect(name).toHaveValue('Laptop công ty');
    expect(name).toHaveAttribute('readonly');
    expect(await screen.findByText('We sent a 6-digit code to demo@example.com.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Resend code in \d+s$/ })).toBeDisabled();

    const code = screen.getByRole('textbox', { name: /Activation code/ });
    await user.type(code, '12ab3');
    await user.click(screen.getByRole('button', { name: 'Verify device' }));
    expect(screen.getByText('The code must have 6 digits')).toBeInTheDocument();
    expect(posts(requests, '/api/v2/resolve-challenge')).toEqual([]);

    await user.type(code, '456');
    await user.click(screen.getByRole('button', { name: 'Verify device' }));
    expect(await screen.findByText('Verification code is not valid', { selector: 'p' })).toBeInTheDocument();
    await user.clear(code);
    await user.type(code, '654321{Enter}');

    expect(await screen.findByText('Your device is now active')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Personal information' })).toBeInTheDocument();
    expect(posts(requests, '/api/v2/resolve-challenge').map((r) => r.body)).toEqual([
      { challenge_type: 'ACTIVATION_WEBAUTHN', challenge: 'ch-1', webauthn_credential_id: ID, code: '123456' },
      { challenge_type: 'ACTIVATION_WEBAUTHN', challenge: 'ch-1', webauthn_credential_id: ID, code: '654321' },
    ]);
    const item = await screen.findByRole('listitem', { name: 'Laptop công ty' });
    await waitFor(() => expect(within(item).getByText('Active')).toBeInTheDocument());
    // The list was read again after the change.
    await waitFor(() => expect(requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/webauthn-credentials/me')).toHaveLength(1));
    expect(within(item).queryByRole('button', { name: 'Activate Laptop công ty' })).toBeNull();
  });

  it('resends the code with /api/v2/resend-challenge once the 60 s are over', async () => {
    freezeClock();
    const { requests, user } = await open(
      '/user/webauthn/deletion?challenge=ch-9&webauthnCredentialId=cred-1&locale=en',
      { deviceName: 'Laptop công ty', destination: 'd***@example.com' },
      { [RESEND]: json(200, { challenge: 'ch-9', channel: 'email', destination: 'd***@example.com', resendAfter: 60 }) },
    );
    expect(await screen.findByText('We sent a 6-digit code to d***@example.com.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resend code in 60s' })).toBeDisabled();
    advanceClock(60_000);
    await user.click(await screen.findByRole('button', { name: 'Resend code' }));
    expect(await screen.findByText('A new code has been sent.')).toBeInTheDocument();
    expect(posts(requests, '/api/v2/resend-challenge').map((r) => r.body)).toEqual([{ challenge: 'ch-9' }]);
    expect(screen.getByRole('button', { name: 'Resend code in 60s' })).toBeDisabled();
  });

  it('deletes: the code, "Delete device", then "Your device is now deleted" and the device gone', async () => {
    let deleted = false;
    const { requests, user } = await open(
      '/user/webauthn/deletion?challenge=ch-2&webauthnCredentialId=cred-1&locale=en',
      { deviceName: 'Laptop công ty', destination: 'd***@example.com' },
      {
        [LIST]: () => json(200, { items: deleted ? [] : [device(true)] }),
        [RESOLVE]: () => {
          deleted = true;
          return json(200, { webauthnCredentialId: ID, deleted: true });
        },
      },
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Delete device' })).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /Deletion code/ }), '111222');
    await user.click(screen.getByRole('button', { name: 'Delete device' }));
    expect(await screen.findByText('Your device is now deleted')).toBeInTheDocument();
    expect(posts(requests, '/api/v2/resolve-challenge')[0]?.body).toEqual({ challenge_type: 'DELETION_WEBAUTHN', challenge: 'ch-2', webauthn_credential_id: ID, code: '111222' });
    expect(await screen.findByText('You have not registered any device yet.')).toBeInTheDocument();
  });
});
