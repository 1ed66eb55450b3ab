import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, stubFetch, type RecordedRequest } from '../../../test/fetch-stub.ts';
import { profile, signIn } from '../../../test/account.ts';
import { advanceClock, freezeClock } from '../../../test/clock.ts';
import { enterText } from '../../../test/enter-text.ts';
import { renderApp } from '../../../test/render.tsx';

async function openContacts(routes: Parameters<typeof stubFetch>[0], locale: 'vi' | 'en' = 'en') {
  signIn();
  const requests = stubFetch({ 'GET /api/v1/me': json(200, profile()), ...routes });
  await renderApp(`/user/profile?locale=${locale}`);
  const section = await screen.findByRole('region', { name: locale === 'en' ? 'Contact information' : 'Thông tin liên hệ' });
  return { requests, section, user: userEvent.setup() };
}

const posts = (requests: RecordedRequest[], path: string) => requests.filter((r) => r.method === 'POST' && r.path === path);

/** 1291: a code went to that address less than a minute ago; the wait comes in the body or, from a proxy, only in Retry-After. */
const tooSoon = (seconds: number, where: 'body' | 'header' = 'body') =>
  where === 'body'
    ? json(429, { error: { code: 1291, message: 'A code was sent a moment ago', retryAfter: seconds } })
    : new Response(JSON.stringify({ error: { code: 1291, message: 'A code was sent a moment ago' } }), {
        status: 429,
        headers: { 'content-type': 'application/json; charset=utf-8', 'retry-after': String(seconds) },
      });

describe('the inline e-mail editor', () => {
  it('sends a code to the new address (Next), then confirms it with the code (Save)', async () => {
    freezeClock();
    const { requests, section, user } = await openContacts({
      'POST /api/v1/me/email/verify': json(200, { resendAfter: 60 }),
      'POST /api/v1/me/email/update': json(200, profile({ email: 'new@example.com' })),
    });
    expect(within(section).getByText('demo@example.com')).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Change email' }));

    // Step 1: the new address, checked before anything is sent.
    const input = within(section).getByRole('textbox', { name: /New email/ });
    expect(input).toHaveFocus();
    await enterText(user, input, 'not-an-address');
    await user.click(within(section).getByRole('button', { name: 'Next' }));
    expect(within(section).getByText('not-an-address has an invalid format')).toBeInTheDocument();
    expect(posts(requests, '/api/v1/me/email/verify')).toHaveLength(0);
    await user.clear(input);
    await enterText(user, input, ' new@example.com {Enter}');

    // Step 2: the address (read only), a code field, Save, and a Resend that waits 60 s.
    const code = await within(section).findByRole('textbox', { name: /Verification code/ });
    expect(posts(requests, '/api/v1/me/email/verify')[0]?.body).toEqual({ email: 'new@example.com' });
    expect(within(section).getByRole('textbox', { name: 'Email' })).toHaveAttribute('readonly');
    expect(within(section).getByRole('textbox', { name: 'Email' })).toHaveValue('new@example.com');
    expect(within(section).getByText('Enter the 6-digit code we sent to new@example.com')).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Resend code in 60s' })).toBeDisabled();
    expect(code).toHaveFocus();

    await user.type(code, '12a3');
    await user.click(within(section).getByRole('button', { name: 'Save' }));
    expect(within(section).getByText('The code must have 6 digits')).toBeInTheDocument();
    await user.type(code, '456');
    expect(code).toHaveValue('123456');
    await user.click(within(section).getByRole('button', { name: 'Save' }));

    expect(await within(section).findByText('Your information has been updated')).toBeInTheDocument();
    expect(posts(requests, '/api/v1/me/email/update')[0]?.body).toEqual({ email: 'new@example.com', code: '123456' });
    expect(within(section).getByText('new@example.com')).toBeInTheDocument();
    expect(within(section).queryByRole('textbox')).toBeNull();
    // The header's user menu reads the same profile.
    await user.click(screen.getByRole('button', { name: 'Open account menu' }));
    expect(within(await screen.findByRole('menu')).getByText('new@example.com')).toBeInTheDocument();
  });

  it.each([
    ['en', 'Change email', /New email/, 'Email is already registered'],
    ['vi', 'Thay đổi email', /Email mới/, 'Email này đã được đăng ký'],
  ] as const)('says when the address belongs to another account (1020), in %s', async (locale, change, field, message) => {
    const { section, user } = await openContacts({ 'POST /api/v1/me/email/verify': apiError(409, 1020, 'Email is already registered') }, locale);
    await user.click(within(section).getByRole('button', { name: change }));
    await enterText(user, within(section).getByRole('textbox', { name: field }), 'taken@example.com{Enter}');
    expect(await within(section).findByRole('alert')).toHaveTextContent(message);
    // Still on step 1, the address kept for a correction.
    expect(within(section).getByRole('textbox', { name: field })).toHaveValue('taken@example.com');
  });

  it('asks for the password beside the field when the sign-in is old (1001), says when it is wrong (1017), and sends it with the address', async () => {
    let sends = 0;
    const { requests, section, user } = await openContacts({
      'POST /api/v1/me/email/verify': () =>
        ++sends === 1 ? apiError(400, 1001, 'Enter your password', 'password') : sends === 2 ? apiError(400, 1017, 'Username or password not correct', 'password') : json(200, { resendAfter: 60 }),
    });
    await user.click(within(section).getByRole('button', { name: 'Change email' }));
    await enterText(user, within(section).getByRole('textbox', { name: /New email/ }), 'new@example.com{Enter}');
    const password = await within(section).findByLabelText(/Current password/);
    expect(within(section).getByText('Enter your password to change your contact details')).toBeInTheDocument();
    expect(within(section).queryByRole('alert')).toBeNull();
    await enterText(user, password, 'Wrong-1{Enter}');
    expect(await within(section).findByText('The password is not correct')).toBeInTheDocument();
    await user.clear(password);
    await enterText(user, password, 'Passw0rd!{Enter}');
    await within(section).findByRole('textbox', { name: /Verification code/ });
    expect(posts(requests, '/api/v1/me/email/verify').map((r) => r.body)).toEqual([
      { email: 'new@example.com' },
      { email: 'new@example.com', password: 'Wrong-1' },
      { email: 'new@example.com', password: 'Passw0rd!' },
    ]);
  });

  it('offers a new sign-in to an account without a password whose sign-in is old (403, 1100)', async () => {
    const { section, user } = await openContacts({ 'POST /api/v1/me/email/verify': apiError(403, 1100, 'Sign in again') });
    await user.click(within(section).getByRole('button', { name: 'Change email' }));
    await enterText(user, within(section).getByRole('textbox', { name: /New email/ }), 'new@example.com{Enter}');
    expect(await within(section).findByText('For your security, sign in again to change your contact details.')).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Sign in again' })).toBeInTheDocument();
  });

  it('shows a wrong (1040) or expired (1026) code, and a failed send (1292), inline', async () => {
    let updates = 0;
    const { section, user } = await openContacts({
      'POST /api/v1/me/email/verify': json(200, { resendAfter: 60 }),
      'POST /api/v1/me/email/update': () => (++updates === 1 ? apiError(400, 1040, 'Verification code is not valid') : apiError(400, 1026, 'Request expired')),
    });
    await user.click(within(section).getByRole('button', { name: 'Change email' }));
    await enterText(user, within(section).getByRole('textbox', { name: /New email/ }), 'new@example.com{Enter}');
    await enterText(user, await within(section).findByRole('textbox', { name: /Verification code/ }), '000000{Enter}');
    expect(await within(section).findByRole('alert')).toHaveTextContent('Verification code is not valid');
    await user.click(within(section).getByRole('button', { name: 'Save' }));
    expect(await within(section).findByText('Your request has expired, please retry')).toBeInTheDocument();
  });

  it('takes a refused send (a code went to that address under a minute ago, 1291) as sent: the code field, where it went, the countdown left', async () => {
    freezeClock();
    const { requests, section, user } = await openContacts({
      'POST /api/v1/me/email/verify': tooSoon(42),
      'POST /api/v1/me/email/update': json(200, profile({ email: 'new@example.com' })),
    });
    await user.click(within(section).getByRole('button', { name: 'Change email' }));
    await enterText(user, within(section).getByRole('textbox', { name: /New email/ }), 'new@example.com{Enter}');

    const code = await within(section).findByRole('textbox', { name: /Verification code/ });
    expect(code).toHaveAccessibleDescription('Enter the 6-digit code we sent to new@example.com');
    expect(within(section).getByRole('textbox', { name: 'Email' })).toHaveValue('new@example.com');
    expect(within(section).getByRole('button', { name: 'Resend code in 42s' })).toBeDisabled();
    expect(within(section).queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/A code was sent a moment ago/)).toBeNull();

    advanceClock(41_000);
    expect(await within(section).findByRole('button', { name: 'Resend code in 1s' })).toBeDisabled();
    advanceClock(1_000);
    expect(await within(section).findByRole('button', { name: 'Resend code' })).toBeEnabled();

    // The code that went out earlier confirms the address.
    await enterText(user, code, '123456{Enter}');
    expect(await within(section).findByText('Your information has been updated')).toBeInTheDocument();
    expect(posts(requests, '/api/v1/me/email/update')[0]?.body).toEqual({ email: 'new@example.com', code: '123456' });
  });

  it('counts down what is left when Resend is refused because another tab sent a code moments ago (1291), without an error', async () => {
    freezeClock();
    let sends = 0;
    const { section, user } = await openContacts({
      'POST /api/v1/me/email/verify': () => (++sends === 1 ? json(200, { resendAfter: 60 }) : tooSoon(20)),
    });
    await user.click(within(section).getByRole('button', { name: 'Change email' }));
    await enterText(user, within(section).getByRole('textbox', { name: /New email/ }), 'new@example.com{Enter}');
    expect(await within(section).findByRole('button', { name: 'Resend code in 60s' })).toBeDisabled();
    advanceClock(60_000);
    await user.click(await within(section).findByRole('button', { name: 'Resend code' }));

    expect(await within(section).findByRole('button', { name: 'Resend code in 20s' })).toBeDisabled();
    expect(sends).toBe(2);
    expect(within(section).queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/A code was sent a moment ago/)).toBeNull();
    expect(within(section).getByRole('textbox', { name: /Verification code/ })).toBeInTheDocument();
  });

  it('says when the code could not be sent (503, 1292) without leaving the page, and Cancel closes the editor', async () => {
    const { section, user, requests } = await openContacts({ 'POST /api/v1/me/email/verify': apiError(503, 1292, 'We could not send the code') });
    await user.click(within(section).getByRole('button', { name: 'Change email' }));
    await enterText(user, within(section).getByRole('textbox', { name: /New email/ }), 'new@example.com{Enter}');
    expect(await within(section).findByRole('alert')).toHaveTextContent('We could not send the code, please try again');
    expect(screen.getByRole('heading', { level: 1, name: 'Personal information' })).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Cancel' }));
    expect(within(section).queryByRole('textbox')).toBeNull();
    expect(within(section).getByText('demo@example.com')).toBeInTheDocument();
    expect(posts(requests, '/api/v1/me/email/update')).toHaveLength(0);
  });
});

describe('the inline phone editor', () => {
  it('takes at most 10 characters, sends phone_number in snake_case, and resends after the countdown', async () => {
    const { requests, section, user } = await openContacts(
      {
        'POST /api/v1/me/phoneNumber/verify': json(200, { resendAfter: 0 }),
        'POST /api/v1/me/phoneNumber/update': json(200, profile({ phoneNumber: '0912345678' })),
      },
      'vi',
    );
    expect(within(section).getByText('Chưa có')).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Thêm số điện thoại' }));
    const input = within(section).getByRole('textbox', { name: /Số điện thoại mới/ });
    expect(input).toHaveAttribute('maxlength', '10');
    await user.type(input, '091234567');
    await user.click(within(section).getByRole('button', { name: 'Tiếp theo' }));
    expect(within(section).getByText('091234567 không đúng định dạng')).toBeInTheDocument();
    await user.type(input, '8{Enter}');

    await enterText(user, await within(section).findByRole('textbox', { name: /Mã xác minh/ }), '654321');
    expect(posts(requests, '/api/v1/me/phoneNumber/verify')[0]?.body).toEqual({ phone_number: '0912345678' });
    await user.click(within(section).getByRole('button', { name: 'Lưu' }));
    expect(await within(section).findByText('Cập nhật thông tin thành công')).toBeInTheDocument();
    expect(posts(requests, '/api/v1/me/phoneNumber/update')[0]?.body).toEqual({ phone_number: '0912345678', code: '654321' });
    expect(within(section).getByText('0912345678')).toBeInTheDocument();
  });

  it('opens the code field with the countdown left when an SMS went to that number moments ago (1291, the wait in Retry-After), in Vietnamese', async () => {
    freezeClock();
    const { section, user } = await openContacts({ 'POST /api/v1/me/phoneNumber/verify': tooSoon(37, 'header') }, 'vi');
    await user.click(within(section).getByRole('button', { name: 'Thêm số điện thoại' }));
    await enterText(user, within(section).getByRole('textbox', { name: /Số điện thoại mới/ }), '0912345678{Enter}');

    const code = await within(section).findByRole('textbox', { name: /Mã xác minh/ });
    expect(code).toHaveAccessibleDescription('Nhập mã gồm 6 chữ số chúng tôi đã gửi đến 0912345678');
    expect(within(section).getByRole('button', { name: 'Gửi lại mã sau 37 giây' })).toBeDisabled();
    expect(within(section).queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/Mã vừa được gửi/)).toBeNull();
  });
});
