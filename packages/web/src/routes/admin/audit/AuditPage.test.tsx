import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { AdminAuditEvent, AdminMe } from '@passgate/contract';
import { operatorMe, requestedUrls, signInAdmin, tenantAdminMe, tenantPage } from '../../../test/admin-fixtures.ts';
import { json, stubFetch } from '../../../test/fetch-stub.ts';
import { renderApp } from '../../../test/render.tsx';

const AUDIT = '/api/admin/v1/audit';
const TENANTS = [
  { id: 'demo', name: 'Demo' },
  { id: 'sen-vang', name: 'Sen Vàng' },
];

const disabled: AdminAuditEvent = {
  id: 'e1',
  createdAt: '2026-11-24T09:30:00.000Z',
  type: 'user.disabled',
  tenantId: 'sen-vang',
  userId: 'user-binh',
  clientId: null,
  ip: '203.0.113.9',
  userAgent: null,
  details: { by: 'admin', actorUserId: 'u2' },
  userLabel: 'binh@example.com',
  actorLabel: 'quan@example.com',
};
const gone: AdminAuditEvent = { ...disabled, id: 'e2', type: 'account.deleted', userId: 'user-gone', userLabel: null, actorLabel: null, details: { by: 'admin', actorUserId: 'u9' } };

function consoleOf(me: AdminMe, tenants = TENANTS) {
  stubFetch({
    'GET /api/admin/v1/me': json(200, me),
    'GET /api/admin/v1/tenants': json(200, tenantPage(tenants)),
    [`GET ${AUDIT}`]: json(200, { items: [disabled, gone], page: 1, pageSize: 50, total: 2 }),
    [`GET ${AUDIT}.csv`]: new Response('\uFEFFid\r\n', { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8' } }),
  });
}

const filters = () => within(screen.getByRole('main'));
const lastQuery = () => Object.fromEntries(requestedUrls(AUDIT).at(-1)?.searchParams ?? []);

afterEach(() => vi.unstubAllGlobals());

describe('admin console: audit log', () => {
  it("names each record's user and acting admin, and falls back to their ids once the accounts are gone", async () => {
    signInAdmin();
    consoleOf(operatorMe);
    await renderApp('/admin/audit?locale=en');
    const table = await screen.findByRole('table', { name: 'Audit log' });
    expect(within(table).getByRole('columnheader', { name: 'Tenant' })).toBeInTheDocument();
    const [, first, second] = within(table).getAllByRole('row');
    expect(first).toHaveTextContent('user.disabled');
    expect(within(first!).getByRole('cell', { name: 'binh@example.com' })).toHaveAttribute('title', 'user-binh');
    expect(within(first!).getByRole('cell', { name: 'Admin quan@example.com' })).toBeInTheDocument();
    expect(within(second!).getByRole('cell', { name: 'user-gone' })).toBeInTheDocument();
    expect(within(second!).getByRole('cell', { name: 'Admin u9' })).toBeInTheDocument();
  });

  it('lets an operator read every tenant, then sends the filters as the API names them, from page 1', async () => {
    signInAdmin();
    consoleOf(operatorMe);
    await renderApp('/admin/audit?locale=en');
    await screen.findByRole('table', { name: 'Audit log' });
    expect(lastQuery()).toEqual({ page: '1', page_size: '50' });
    expect(filters().getByRole('combobox', { name: /^Tenant/ })).toHaveTextContent('All tenants');

    await userEvent.click(filters().getByRole('combobox', { name: /^Tenant/ }));
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['All tenants', 'Demo', 'Sen Vàng']);
    await userEvent.click(screen.getByRole('option', { name: 'Sen Vàng' }));
    await userEvent.type(filters().getByRole('textbox', { name: 'Event type' }), ' user.disabled ');
    await userEvent.type(filters().getByRole('textbox', { name: 'User id' }), 'user-binh');
    fireEvent.change(filters().getByLabelText('From'), { target: { value: '2026-11-01' } });
    fireEvent.change(filters().getByLabelText('To'), { target: { value: '2026-11-30' } });
    // Nothing is asked before Filter.
    const asked = requestedUrls(AUDIT).length;
    expect(lastQuery()).toEqual({ page: '1', page_size: '50' });
    await userEvent.click(filters().getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(requestedUrls(AUDIT).length).toBe(asked + 1));
    expect(lastQuery()).toEqual({ tenant_id: 'sen-vang', type: 'user.disabled', user_id: 'user-binh', from: '2026-11-01', to: '2026-11-30', page: '1', page_size: '50' });
  });

  it('refuses an event type that cannot be one before asking the server', async () => {
    signInAdmin();
    consoleOf(operatorMe);
    await renderApp('/admin/audit?locale=en');
    await screen.findByRole('table', { name: 'Audit log' });
    const asked = requestedUrls(AUDIT).length;
    await userEvent.type(filters().getByRole('textbox', { name: 'Event type' }), 'Login Failure');
    expect(screen.getByText('An event type such as login.failure')).toBeInTheDocument();
    expect(filters().getByRole('textbox', { name: 'Event type' })).toHaveAttribute('aria-invalid', 'true');
    await userEvent.click(filters().getByRole('button', { name: 'Filter' }));
    expect(requestedUrls(AUDIT)).toHaveLength(asked);
  });

  it("keeps a tenant admin to their tenant: no 'all tenants', and the first request already names it", async () => {
    signInAdmin();
    consoleOf(tenantAdminMe, [{ id: 'sen-vang', name: 'Sen Vàng' }]);
    await renderApp('/admin/audit?locale=en');
    await screen.findByRole('table', { name: 'Audit log' });
    expect(requestedUrls(AUDIT).every((url) => url.searchParams.get('tenant_id') === 'sen-vang')).toBe(true);
    // One tenant: no column repeating it.
    expect(within(screen.getByRole('table', { name: 'Audit log' })).queryByRole('columnheader', { name: 'Tenant' })).not.toBeInTheDocument();
    await userEvent.click(filters().getByRole('combobox', { name: /^Tenant/ }));
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Sen Vàng']);
  });

  it('exports the filters applied as CSV with the bearer token', async () => {
    signInAdmin();
    consoleOf(operatorMe);
    // jsdom has no object URLs: the file handed to the browser is stood in for.
    const objectUrls = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:audit'), revokeObjectURL: vi.fn() });
    onTestFinished(() => void Object.assign(URL, objectUrls));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await renderApp('/admin/audit?locale=en');
    await screen.findByRole('table', { name: 'Audit log' });
    await userEvent.type(filters().getByRole('textbox', { name: 'Event type' }), 'user.unlocked');
    await userEvent.click(filters().getByRole('button', { name: 'Filter' }));
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    const [csv] = requestedUrls(`${AUDIT}.csv`);
    expect(Object.fromEntries(csv!.searchParams)).toEqual({ type: 'user.unlocked' });
    const call = vi.mocked(fetch).mock.calls.find(([input]) => String(input).includes('/audit.csv'));
    expect(new Headers(call?.[1]?.headers).get('authorization')).toBe('Bearer admin-token-1');
    click.mockRestore();
  });
});
