import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@passgate/contract/rules';
import { apiError, json, stubFetch } from '../../test/fetch-stub.ts';
import { loginRequest, publicClient } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const CHALLENGE = 'challenge-1';
const REQUEST = `GET /api/v1/requests/login/${CHALLENGE}`;
const CLIENT = 'GET /api/v1/clients/demo-app';
const gone = () => apiError(400, ErrorCode.RequestExpired, 'Request expired', 'challenge');

describe('a sign-in request that has finished or expired', () => {
  it('shows the client it belonged to and leads back to it, instead of a retry that can only fail', async () => {
    const calls = stubFetch({ [REQUEST]: gone(), [CLIENT]: json(200, publicClient({ i18n: { defaultLocale: 'en' } })) });
    await renderApp(`/login?challenge=${CHALLENGE}&client_id=demo-app`);
    expect(await screen.findByRole('heading', { level: 1, name: 'This sign-in is no longer open' })).toBeInTheDocument();
    expect(document.title).toBe('Sign-in no longer open · Demo App');
    expect(screen.getByText(/Go back to Demo App to start again/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Demo App' })).toHaveAttribute('href', 'http://localhost:3000/demo/login?client=demo-app&locale=en');
    expect(screen.getByRole('img', { name: /Demo App/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Retry|Thử lại/ })).not.toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'GET' && c.path === `/api/v1/requests/login/${CHALLENGE}`)).toHaveLength(1);
  });

  it('keeps the language of the address', async () => {
    stubFetch({ [REQUEST]: gone(), [CLIENT]: json(200, publicClient({ i18n: { defaultLocale: 'en' } })) });
    await renderApp(`/login?challenge=${CHALLENGE}&client_id=demo-app&locale=vi`);
    expect(await screen.findByRole('link', { name: 'Quay lại Demo App' })).toBeInTheDocument();
  });

  it('leads to the account area when the client is unknown or not in the address', async () => {
    stubFetch({ [REQUEST]: gone(), 'GET /api/v1/clients/nobody': apiError(404, ErrorCode.ClientNotFound, 'Client does not exist', 'client_id') });
    await renderApp(`/login?challenge=${CHALLENGE}&client_id=nobody&locale=en`);
    expect(await screen.findByRole('link', { name: 'Go to your account' })).toHaveAttribute('href', '/user/dashboard?locale=en');

    stubFetch({ [REQUEST]: gone() });
    await renderApp(`/register?challenge=${CHALLENGE}&locale=en`);
    expect(await screen.findByRole('heading', { level: 1, name: 'This sign-in is no longer open' })).toBeInTheDocument();
  });

  it('still offers Retry when the server could not be reached', async () => {
    stubFetch({ [REQUEST]: apiError(503, ErrorCode.ServiceUnavailable, 'Service unavailable') });
    await renderApp(`/login?challenge=${CHALLENGE}&client_id=demo-app&locale=en`);
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('goes to that screen when the request expires while the form is open', async () => {
    stubFetch({
      [REQUEST]: json(200, loginRequest()),
      'POST /api/v1/users/login': gone(),
      [CLIENT]: json(200, publicClient()),
    });
    await renderApp(`/login?challenge=${CHALLENGE}&client_id=demo-app&locale=en`);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/Email/), 'demo@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'Passw0rd!');
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('link', { name: 'Back to Demo App' })).toBeInTheDocument();
  });
});
