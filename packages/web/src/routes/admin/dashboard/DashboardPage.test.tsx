import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminSignInStats } from '@passgate/contract';
import { operatorMe, signInAdmin, tenantPage } from '../../../test/admin-fixtures.ts';
import { json, stubFetch } from '../../../test/fetch-stub.ts';
import { renderApp } from '../../../test/render.tsx';

const zero = { password: 0, passwordless: 0, google: 0, facebook: 0, device: 0, other: 0 };

const stats: AdminSignInStats = {
  tenantId: null,
  methods: ['password', 'google'],
  days: [
    { date: '2026-11-23', signIns: { ...zero, password: 4, google: 1 }, total: 5, failures: 2, lockouts: 0 },
    { date: '2026-11-24', signIns: { ...zero, password: 7 }, total: 7, failures: 6, lockouts: 1 },
  ],
};

describe('admin console: dashboard', () => {
  it('sums the window and gives each chart’s numbers as a table to screen readers', async () => {
    signInAdmin();
    stubFetch({
      'GET /api/admin/v1/me': json(200, operatorMe),
      'GET /api/admin/v1/tenants': json(200, tenantPage([{ id: 'demo', name: 'Demo' }])),
      'GET /api/admin/v1/stats/sign-ins': json(200, stats),
    });
    await renderApp('/admin/dashboard?locale=en');

    const byMethod = await screen.findByRole('table', { name: 'Sign-ins per day by method' });
    expect(within(byMethod).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Day', 'Password', 'Google']);
    const monday = within(byMethod).getByRole('row', { name: /Monday, 23 November 2026/ });
    expect(within(monday).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['4', '1']);

    const failures = screen.getByRole('table', { name: 'Failed attempts and lockouts per day' });
    const tuesday = within(failures).getByRole('row', { name: /Tuesday, 24 November 2026/ });
    expect(within(tuesday).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['6', '1']);
    // The figures above the charts: 12 sign-ins, 8 failures, 1 lockout.
    expect(screen.getByText('12')).toBeInTheDocument();
    expect(screen.getByText('8')).toBeInTheDocument();
  });
});
