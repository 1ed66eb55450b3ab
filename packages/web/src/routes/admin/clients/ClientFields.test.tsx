import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { adminClient, adminTenant, operatorMe, signInAdmin, tenantPage } from '../../../test/admin-fixtures.ts';
import { enterText } from '../../../test/enter-text.ts';
import { json, stubFetch } from '../../../test/fetch-stub.ts';
import { renderApp } from '../../../test/render.tsx';

const CLIENT = '/api/admin/v1/tenants/demo/clients/shop';

describe("admin console: a client's form", () => {
  it('gives every field an id of its own, so each is named by its label (the theme Title included) and saved', async () => {
    signInAdmin();
    const requests = stubFetch({
      'GET /api/admin/v1/me': json(200, operatorMe),
      'GET /api/admin/v1/tenants': json(200, tenantPage([{ id: 'demo', name: 'Demo' }])),
      'GET /api/admin/v1/tenants/demo': json(200, adminTenant()),
      [`GET ${CLIENT}`]: json(200, adminClient()),
      [`PATCH ${CLIENT}`]: json(200, adminClient({ theme: { ...adminClient().theme, title: 'Shop Plus' } })),
    });
    const { container } = await renderApp('/admin/tenants/demo/clients/shop?locale=en');
    await screen.findByRole('heading', { level: 1, name: 'Shop' });

    const ids = [...container.ownerDocument.querySelectorAll('[id]')].map((element) => element.id);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    // The theme section's heading is 'client-theme-title': the Title field is still its own.
    expect(screen.getByRole('heading', { level: 2, name: 'Sign-in page theme' })).toBeInTheDocument();
    const user = userEvent.setup();
    await enterText(user, screen.getByRole('textbox', { name: 'Title' }), 'Shop Plus');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(requests.find((r) => r.method === 'PATCH')?.body).toMatchObject({ theme: { title: 'Shop Plus' } }));
  });
});
