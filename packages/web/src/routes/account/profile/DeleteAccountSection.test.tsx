import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Profile } from '@passgate/contract';
import { describe, expect, it } from 'vitest';
import { apiError, json, stubFetch, type RecordedRequest } from '../../../test/fetch-stub.ts';
import { USER_KEY, profile, signIn } from '../../../test/account.ts';
import { advanceClock, freezeClock } from '../../../test/clock.ts';
import { enterText } from '../../../test/enter-text.ts';
import { renderApp } from '../../../test/render.tsx';

type Handler = Response | ((request: RecordedRequest) => Response);

async function openDeleteDialog(answer: Handler, locale: 'vi' | 'en' = 'vi', account: Partial<Profile> = {}, more: Record<string, Handler> = {}) {
  signIn();
  const requests = stubFetch({ 'GET /api/v1/me': json(200, profile(account)), 'DELETE /api/v1/me': answer, ...more });
  await renderApp(`/user/profile?locale=${locale}`);
  const section = await screen.findByRole('region', { name: locale === 'vi' ? 'Xoá tài khoản' : 'Delete account' });
  const user = userEvent.setup();
  await user.click(within(section).getByRole('button', { name: locale === 'vi' ? 'Xoá tài khoản' : 'Delete account' }));
  const dialog = await screen.findByRole('dialog', { name: locale === 'vi' ? 'Xoá tài khoản của bạn?' : 'Delete your account?' });
  return { requests, dialog, user };
}

const deletions = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'DELETE' && r.path === '/api/v1/me');

describe('deleting the account', () => {
  it('asks first, and Cancel deletes nothing', async () => {
    const { requests, dialog, user } = await openDeleteDialog(new Response(null, { status: 204 }), 'en');
    expect(dialog).toHaveTextContent('deleted permanently');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(deletions(requests)).toEqual([]);
  });

  it('keeps Delete disabled until the e-mail address is typed, then sends the password and the confirmation once', async () => {
    const { requests, dialog, user } = await openDeleteDialog(new Response(null, { status: 204 }));
    const remove = within(dialog).getByRole('button', { name: 'Xoá vĩnh viễn' });
    const confirmation = within(dialog).getByLabelText(/Nhập demo@example.com để xác nhận/);
    await enterText(user, within(dialog).getByLabelText(/Mật khẩu hiện tại/), 'Passw0rd!');
    expect(remove).toBeDisabled();
    await user.type(confirmation, 'demo@example.co');
    expect(remove).toBeDisabled();
    await user.type(confirmation, 'm');
    expect(remove).toBeEnabled();
    await user.dblClick(remove);

    expect(await screen.findByRole('heading', { level: 1, name: 'Tài khoản của bạn đã được xoá' })).toBeInTheDocument();
    const sent = deletions(requests);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.headers.get('authorization')).toBe('Bearer access-token-1');
    expect(sent[0]?.body).toEqual({ password: 'Passw0rd!', confirmation: 'demo@example.com' });
    expect(window.sessionStorage.getItem(USER_KEY)).toBeNull();
    // Nothing of the account was asked for after the deletion.
    expect(requests.slice(requests.indexOf(sent[0]!) + 1)).toEqual([]);
  });

  it('says a wrong password beside the password field only, keeps what was typed and the account', async () => {
    const { dialog, user } = await openDeleteDialog(apiError(400, 1017, 'Username or password not correct', 'password'), 'en');
    const password = within(dialog).getByLabelText(/Current password/);
    await enterText(user, password, 'Wrong-pass');
    await enterText(user, within(dialog).getByLabelText(/Type demo@example.com to confirm/), 'DEMO@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Delete permanently' }));

    await waitFor(() => expect(password).toHaveAttribute('aria-invalid', 'true'));
    const message = document.getElementById(password.getAttribute('aria-describedby')!.split(' ')[0]!);
    expect(message).toHaveTextContent('The password is not correct');
    expect(password).toHaveValue('Wrong-pass');
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(window.sessionStorage.getItem(USER_KEY)).not.toBeNull();
  });

  it('shows a failure without a field once, above the form', async () => {
    const { dialog, user } = await openDeleteDialog(apiError(403, 1303, 'The tenant does not allow this action'), 'en');
    await enterText(user, within(dialog).getByLabelText(/Current password/), 'Passw0rd!');
    await enterText(user, within(dialog).getByLabelText(/Type demo@example.com to confirm/), 'demo@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Delete permanently' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The tenant does not allow this action');
    expect(within(dialog).getAllByText('The tenant does not allow this action')).toHaveLength(1);
    expect(window.sessionStorage.getItem(USER_KEY)).not.toBeNull();
  });

  it('takes that failure away on a new try with the password left empty, saying only what is missing', async () => {
    const { requests, dialog, user } = await openDeleteDialog(apiError(403, 1303, 'The tenant does not allow this action'), 'en');
    const password = within(dialog).getByLabelText(/Current password/);
    await enterText(user, password, 'Passw0rd!');
    await enterText(user, within(dialog).getByLabelText(/Type demo@example.com to confirm/), 'demo@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Delete permanently' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The tenant does not allow this action');

    await user.clear(password);
    await user.click(within(dialog).getByRole('button', { name: 'Delete permanently' }));
    expect(await within(dialog).findByText('Please enter your password to confirm it is you')).toBeInTheDocument();
    expect(within(dialog).queryByText('The tenant does not allow this action')).toBeNull();
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(password).toHaveFocus();
    expect(deletions(requests)).toHaveLength(1);
  });

  it('sends a code to an account without a password and deletes with it', async () => {
    const { requests, dialog, user } = await openDeleteDialog(
      new Response(null, { status: 204 }),
      'en',
      { hasPassword: false, registrationMethod: 'passwordless', email: null, emailVerified: false, phoneNumber: '0911222333', phoneNumberVerified: true },
      { 'POST /api/v1/me/deletion/code': json(200, { resendAfter: 60 }) },
    );
    expect(within(dialog).queryByLabelText(/password/i)).toBeNull();
    expect(dialog).toHaveTextContent('we will send a code to 0911222333');
    const remove = within(dialog).getByRole('button', { name: 'Delete permanently' });
    await enterText(user, within(dialog).getByLabelText(/Type 0911222333 to confirm/), '0911222333');
    expect(remove).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Send confirmation code' }));
    await enterText(user, await within(dialog).findByLabelText(/Confirmation code/), '123456');
    expect(within(dialog).getByRole('button', { name: /Resend code in/ })).toBeDisabled();
    await user.click(remove);
    expect(await screen.findByRole('heading', { level: 1, name: 'Your account has been deleted' })).toBeInTheDocument();
    expect(deletions(requests)[0]?.body).toEqual({ code: '123456', confirmation: '0911222333' });
  });

  it.each([
    ['en', 'Send confirmation code', /Confirmation code/, 'The code was sent to 0911222333', 'Resend code in 33s', 'Resend code in 1s', 'Resend code', /A code was sent a moment ago/],
    ['vi', 'Gửi mã xác nhận', /Mã xác nhận/, 'Mã đã được gửi tới 0911222333', 'Gửi lại mã sau 33 giây', 'Gửi lại mã sau 1 giây', 'Gửi lại mã', /Mã vừa được gửi/],
  ] as const)(
    'takes a refused send (a code went out under a minute ago, 1291) as sent: the code field, where it went, the countdown left, in %s',
    async (locale, send, codeLabel, sentTo, waiting, lastSecond, resend, refusal) => {
      freezeClock();
      const { requests, dialog, user } = await openDeleteDialog(
        new Response(null, { status: 204 }),
        locale,
        { hasPassword: false, registrationMethod: 'passwordless', email: null, emailVerified: false, phoneNumber: '0911222333', phoneNumberVerified: true },
        { 'POST /api/v1/me/deletion/code': json(429, { error: { code: 1291, message: 'A code was sent a moment ago', retryAfter: 33 } }) },
      );
      await user.click(within(dialog).getByRole('button', { name: send }));

      const code = await within(dialog).findByLabelText(codeLabel);
      expect(code).toHaveAccessibleDescription(sentTo);
      expect(within(dialog).getByRole('button', { name: waiting })).toBeDisabled();
      expect(within(dialog).queryByRole('alert')).toBeNull();
      expect(within(dialog).queryByText(refusal)).toBeNull();
      advanceClock(32_000);
      expect(await within(dialog).findByRole('button', { name: lastSecond })).toBeDisabled();
      advanceClock(1_000);
      expect(await within(dialog).findByRole('button', { name: resend })).toBeEnabled();

      // The code that went out earlier deletes the account.
      await enterText(user, code, '123456');
      await enterText(user, within(dialog).getByRole('textbox', { name: locale === 'en' ? /Type 0911222333 to confirm/ : /Nhập 0911222333 để xác nhận/ }), '0911222333');
      await user.click(within(dialog).getByRole('button', { name: locale === 'en' ? 'Delete permanently' : 'Xoá vĩnh viễn' }));
      await waitFor(() => expect(deletions(requests)[0]?.body).toEqual({ code: '123456', confirmation: '0911222333' }));
    },
  );
});
