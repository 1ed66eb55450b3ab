import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, stubFetch, type RecordedRequest } from '../../../test/fetch-stub.ts';
import { profile, signIn } from '../../../test/account.ts';
import { renderApp } from '../../../test/render.tsx';

const FEB_1_1990 = 633_830_400;

async function openProfile(routes: Parameters<typeof stubFetch>[0] = {}, path = '/user/profile'): Promise<RecordedRequest[]> {
  signIn();
  const requests = stubFetch({ 'GET /api/v1/me': json(200, profile({ birthday: FEB_1_1990, gender: 'Male' })), ...routes });
  await renderApp(path);
  // The card's heading in the language of the address: an English page has switched before the test reads it.
  await screen.findByRole('heading', { level: 2, name: new URL(path, 'http://localhost').searchParams.get('locale') === 'en' ? 'Profile' : 'Hồ sơ' });
  return requests;
}

const sent = (requests: RecordedRequest[], method: string, path: string) => requests.filter((r) => r.method === method && r.path === path);

describe('Personal information: the Profile card', () => {
  it('shows the birthday as DD/MM/YYYY and saves name, birthday and gender with PATCH /api/v1/me', async () => {
    const requests = await openProfile({
      'PATCH /api/v1/me': (request) => json(200, profile({ ...(request.body as object), name: 'Trần Thị Bình' })),
    });
    const user = userEvent.setup();
    const birthday = screen.getByLabelText('Ngày sinh');
    expect(birthday).toHaveValue('01/02/1990');
    expect(screen.getByRole('radio', { name: 'Nam' })).toBeChecked();

    const name = screen.getByRole('textbox', { name: /Họ và tên/ });
    await user.clear(name);
    await user.type(name, 'Trần Thị Bình');
    await user.clear(birthday);
    await user.type(birthday, '15081985');
    expect(birthday).toHaveValue('15/08/1985');
    await user.click(screen.getByRole('radio', { name: 'Nữ' }));
    await user.click(screen.getByRole('button', { name: 'Lưu' }));

    expect(await screen.findByText('Cập nhật thông tin thành công')).toBeInTheDocument();
    const [patch] = sent(requests, 'PATCH', '/api/v1/me');
    expect(patch?.body).toEqual({ name: 'Trần Thị Bình', birthday: Date.UTC(1985, 7, 15) / 1000, gender: 'Female' });
    expect(patch?.headers.get('authorization')).toBe('Bearer access-token-1');
    expect(patch?.headers.get('content-type')).toBe('application/json');
    // The header shows the new name at once.
    expect(screen.getByText('Xin chào, Trần Thị Bình')).toBeInTheDocument();
  });

  it('shows one notice at a time: the latest replaces the one before, wherever it came from', async () => {
    await openProfile(
      {
        'PATCH /api/v1/me': json(200, profile()),
        'POST /api/v1/me/phoneNumber/verify': json(200, { resendAfter: 60 }),
        'POST /api/v1/me/phoneNumber/update': json(200, profile({ phoneNumber: '0911222333', phoneNumberVerified: true })),
      },
      '/user/profile?locale=en',
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const card = screen.getByRole('region', { name: 'Profile' });
    expect(await within(card).findByRole('alert')).toHaveTextContent('Your information has been updated');

    const contacts = screen.getByRole('region', { name: 'Contact information' });
    await user.click(within(contacts).getByRole('button', { name: 'Add phone number' }));
    await user.type(within(contacts).getByRole('textbox', { name: /New phone number/ }), '0911222333{Enter}');
    await user.type(await within(contacts).findByRole('textbox', { name: /Verification code/ }), '123456{Enter}');

    expect(await within(contacts).findByRole('alert')).toHaveTextContent('Your information has been updated');
    // The Profile card's notice is gone: one message on the page, the latest.
    expect(within(card).queryByRole('alert')).toBeNull();
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });

  it('takes the success notice down when a field error comes after it', async () => {
    await openProfile({ 'PATCH /api/v1/me': json(200, profile()) }, '/user/profile?locale=en');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const card = screen.getByRole('region', { name: 'Profile' });
    expect(await within(card).findByRole('alert')).toHaveTextContent('Your information has been updated');

    await user.clear(screen.getByRole('textbox', { name: /Full name/ }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please enter your full name')).toBeInTheDocument();
    expect(screen.queryByText('Your information has been updated')).toBeNull();
    expect(screen.queryAllByRole('alert')).toHaveLength(0);
  });

  it('takes the notice of another section down when a contact field is refused', async () => {
    await openProfile({ 'PATCH /api/v1/me': json(200, profile()) }, '/user/profile?locale=en');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Your information has been updated')).toBeInTheDocument();
    const contacts = screen.getByRole('region', { name: 'Contact information' });
    await user.click(within(contacts).getByRole('button', { name: 'Add phone number' }));
    await user.type(within(contacts).getByRole('textbox', { name: /New phone number/ }), '12{Enter}');
    expect(await within(contacts).findByText('12 has an invalid format')).toBeInTheDocument();
    expect(screen.queryByText('Your information has been updated')).toBeNull();
  });

  it('clears the birthday and the gender with null', async () => {
    const requests = await openProfile({ 'PATCH /api/v1/me': json(200, profile()) });
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText('Ngày sinh'));
    await user.click(screen.getByRole('button', { name: 'Lưu' }));
    await screen.findByText('Cập nhật thông tin thành công');
    expect(sent(requests, 'PATCH', '/api/v1/me')[0]?.body).toEqual({ name: 'Nguyễn Văn An', birthday: null, gender: 'Male' });
  });

  it('refuses a day that does not exist, a blank name, and sends nothing', async () => {
    const requests = await openProfile({}, '/user/profile?locale=en');
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText('Birthday'));
    await user.type(screen.getByLabelText('Birthday'), '31021990');
    await user.clear(screen.getByRole('textbox', { name: /Full name/ }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please enter your full name')).toBeInTheDocument();
    expect(screen.getByText('Enter a real date as DD/MM/YYYY')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Full name/ })).toHaveFocus();
    expect(sent(requests, 'PATCH', '/api/v1/me')).toHaveLength(0);
  });

  it('shows a refusal of the server in the card', async () => {
    await openProfile({ 'PATCH /api/v1/me': apiError(400, 1002, 'Invalid field', 'birthday') }, '/user/profile?locale=en');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Some of the information you entered is not valid');
  });

  it('goes to the session-expired alert when a save answers 401', async () => {
    await openProfile({ 'PATCH /api/v1/me': apiError(401, 1102, 'User is not authenticated or credentials are invalid') }, '/user/profile?locale=en');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Session expired' })).toBeInTheDocument();
  });
});

describe('Personal information: the page', () => {
  it('is reached from the side menu, has no devices section yet, and names its sections', async () => {
    signIn();
    stubFetch({ 'GET /api/v1/me': json(200, profile()) });
    await renderApp('/user/dashboard');
    const user = userEvent.setup();
    const [nav] = await screen.findAllByRole('navigation', { name: 'Điều hướng tài khoản' });
    await user.click(within(nav!).getByRole('link', { name: 'Thông tin cá nhân' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Thông tin cá nhân' })).toBeInTheDocument();
    for (const name of ['Ảnh đại diện', 'Hồ sơ', 'Thông tin liên hệ', 'Xoá tài khoản']) {
      expect(await screen.findByRole('region', { name })).toBeInTheDocument();
    }
    expect(screen.queryByText(/thiết bị của tôi|my devices/i)).toBeNull();
  });
});

describe('Personal information: the avatar', () => {
  it('refuses a file that is not an image, and sends nothing', async () => {
    const requests = await openProfile({}, '/user/profile?locale=en');
    const input = screen.getByTestId('avatar-file');
    const pdf = new File(['%PDF-1.4'], 'photo.png', { type: 'application/pdf' });
    await userEvent.setup({ applyAccept: false }).upload(input, pdf);
    expect(await screen.findByRole('alert')).toHaveTextContent('The MIME type of the selected file is not allowed');
    expect(screen.queryByRole('dialog')).toBeNull();
    // Only reads (the profile, the tenant for My devices): nothing is uploaded.
    expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });
});
