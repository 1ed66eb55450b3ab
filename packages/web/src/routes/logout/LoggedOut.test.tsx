import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@passgate/contract/rules';
import { apiError, json, stubFetch } from '../../test/fetch-stub.ts';
import { publicClient } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const CLIENT = 'GET /api/v1/clients/demo-app';

describe('the screen after a logout (/logged-out)', () => {
  it('says so in Vietnamese, in the client\'s theme, and leads back to the client', async () => {
    stubFetch({ [CLIENT]: json(200, publicClient()) });
    await renderApp('/logged-out?client_id=demo-app&locale=vi');
    expect(await screen.findByRole('heading', { level: 1, name: 'Bạn đã đăng xuất' })).toBeInTheDocument();
    expect(document.title).toBe('Đã đăng xuất · Demo App');
    expect(screen.getByRole('img', { name: /Demo App/ })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Quay lại Demo App' })).toHaveAttribute('href', 'http://localhost:3000/demo/login?client=demo-app&locale=vi');
    expect(screen.queryByText(/Sign-out Success/i)).not.toBeInTheDocument();
  });

  it('says so in English and leads back to the client', async () => {
    stubFetch({ [CLIENT]: json(200, publicClient()) });
    await renderApp('/logged-out?client_id=demo-app&locale=en');
    expect(await screen.findByRole('heading', { level: 1, name: 'You have logged out' })).toBeInTheDocument();
    expect(screen.getByText('You are no longer signed in to Passgate in this browser.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Demo App' })).toHaveAttribute('href', 'http://localhost:3000/demo/login?client=demo-app&locale=en');
  });

  it('offers a sign-in when the client has no home address', async () => {
    stubFetch({ [CLIENT]: json(200, publicClient({ homeUri: null })) });
    await renderApp('/logged-out?client_id=demo-app&locale=en');
    expect(await screen.findByRole('heading', { level: 1, name: 'You have logged out' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: /Demo App/ })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/user/dashboard?locale=en');
    expect(screen.queryByRole('link', { name: /Back to/ })).not.toBeInTheDocument();
  });

  it('offers a sign-in without a client', async () => {
    stubFetch({});
    await renderApp('/logged-out?locale=vi');
    expect(await screen.findByRole('heading', { level: 1, name: 'Bạn đã đăng xuất' })).toBeInTheDocument();
    expect(document.title).toBe('Đã đăng xuất');
    expect(screen.getByRole('link', { name: 'Đăng nhập' })).toHaveAttribute('href', '/user/dashboard?locale=vi');
  });

  it('offers a sign-in when the client cannot be read', async () => {
    stubFetch({ 'GET /api/v1/clients/nobody': apiError(404, ErrorCode.ClientNotFound, 'Client does not exist', 'client_id') });
    await renderApp('/logged-out?client_id=nobody&locale=en');
    expect(await screen.findByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/user/dashboard?locale=en');
  });
});
