import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Profile } from '@passgate/contract';
import { apiError, json, stubFetch, type RecordedRequest } from '../../../test/fetch-stub.ts';
import { profile, signIn } from '../../../test/account.ts';
import { tenant } from '../../../test/fixtures.ts';
import { enterText } from '../../../test/enter-text.ts';
import { renderApp } from '../../../test/render.tsx';

type Routes = Parameters<typeof stubFetch>[0];
const passwordPosts = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/me/password');

async function openSecurity(routes: Routes = {}, me: Partial<Profile> = {}, locale: 'en' | 'vi' = 'en') {
  signIn();
  const requests = stubFetch({
    'GET /api/v1/me': json(200, profile(me)),
    'GET /api/v1/me/tenant': json(200, tenant({ passwordPolicy: { minLength: 8, uppercase: 0, number: 1, special: 0 } })),
    ...routes,
  });
  await renderApp(`/user/security?locale=${locale}`);
  await screen.findByRole('heading', { level: 1, name: locale === 'en' ? 'Security' : 'Bảo mật' });
  await screen.findByText('••••••••');
  return { requests, user: userEvent.setup() };
}

async function openDialog(user: ReturnType<typeof userEvent.setup>, row = /^Change password/, title = 'Change password') {
  await user.click(await screen.findByRole('button', { name: row }));
  return screen.findByRole('dialog', { name: title });
}

describe('Change password on the Security page', () => {
  it('is offered only to accounts with a password', async () => {
    await openSecurity({}, { hasPassword: false, registrationMethod: 'google' });
    expect(screen.queryByRole('button', { name: /^Change password/ })).toBeNull();
  });

  it('checks the fields before sending: the current password, the policy, the confirmation, beside each field', async () => {
    const { requests, user } = await openSecurity();
    const dialog = await openDialog(user);
    const current = within(dialog).getByLabelText(/^Current password/);
    expect(current).toHaveFocus();

    await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect(within(dialog).getByText('Please enter your current password')).toBeInTheDocument();
    expect(current).toHaveFocus();

    await enterText(user, current, 'Old-pass-1');
    await enterText(user, within(dialog).getByLabelText(/^New password/), 'short');
    await enterText(user, within(dialog).getByLabelText(/^Confirm new password/), 'other');
    await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect(within(dialog).getByText(/at least 8 characters/)).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^New password/)).toHaveFocus();
    expect(passwordPosts(requests)).toHaveLength(0);
  });

  it('sends the change snake_case, and says a wrong current password beside that field', async () => {
    const { requests, user } = await openSecurity({ 'POST /api/v1/me/password': apiError(400, 1017, 'Username or password is not correct', 'current_password') });
    const dialog = await openDialog(user);
    await enterText(user, within(dialog).getByLabelText(/^Current password/), 'Wrong-pass-1');
    await enterText(user, within(dialog).getByLabelText(/^New password/), 'Brand-new-pass-7');
    await enterText(user, within(dialog).getByLabelText(/^Confirm new password/), 'Brand-new-pass-7{Enter}');
    await waitFor(() => expect(passwordPosts(requests)).toHaveLength(1));
    expect(passwordPosts(requests)[0]!.body).toEqual({ current_password: 'Wrong-pass-1', new_password: 'Brand-new-pass-7' });
    expect(await within(dialog).findByText('The password is not correct')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Current password/)).toHaveFocus();
    expect(within(dialog).getByLabelText(/^Current password/)).toHaveValue('Wrong-pass-1');
  });

  it('says a breached new password beside the new password, in Vietnamese', async () => {
    const { user } = await openSecurity({ 'POST /api/v1/me/password': apiError(400, 1104, 'This password is too common', 'new_password') }, {}, 'vi');
    const dialog = await openDialog(user, /^Đổi mật khẩu/, 'Đổi mật khẩu');
    await enterText(user, within(dialog).getByLabelText(/^Mật khẩu hiện tại/), 'Old-pass-1');
    await enterText(user, within(dialog).getByLabelText(/^Mật khẩu mới/), 'password123');
    await enterText(user, within(dialog).getByLabelText(/^Xác nhận mật khẩu mới/), 'password123{Enter}');
    expect(await within(dialog).findByText(/Mật khẩu này quá phổ biến/)).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Mật khẩu mới/)).toHaveFocus();
  });

  it('shows a refusal that is not about one field above the form (too many tries)', async () => {
    const { user } = await openSecurity({ 'POST /api/v1/me/password': apiError(429, 1290, 'Too many requests') });
    const dialog = await openDialog(user);
    await enterText(user, within(dialog).getByLabelText(/^Current password/), 'Old-pass-1');
    await enterText(user, within(dialog).getByLabelText(/^New password/), 'Brand-new-pass-7');
    await enterText(user, within(dialog).getByLabelText(/^Confirm new password/), 'Brand-new-pass-7{Enter}');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/Too many|try again/i);
  });

  it('closes on success and says the password was changed and the other sessions signed out', async () => {
    const { user } = await openSecurity({ 'POST /api/v1/me/password': json(200, { ok: true, otherSessionsSignedOut: 2 }) });
    const dialog = await openDialog(user);
    await enterText(user, within(dialog).getByLabelText(/^Current password/), 'Old-pass-1');
    await enterText(user, within(dialog).getByLabelText(/^New password/), 'Brand-new-pass-7');
    await enterText(user, within(dialog).getByLabelText(/^Confirm new password/), 'Brand-new-pass-7{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('Your password has been changed. You have been signed out everywhere else.')).toBeInTheDocument();
  });
});
