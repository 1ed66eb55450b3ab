import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIRTHDAY_MIN } from '@passgate/contract';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { accountSignIn, call, createAccount, userById } from '../../../test/account.ts';

/** PATCH /api/v1/me over real HTTP. */
describe('PATCH /api/v1/me', () => {
  let server: TestServer;
  let userId: string;
  let token: string;
  const patch = (body: unknown) => call(server.url, 'PATCH', '/api/v1/me', { token, body });

  beforeAll(async () => {
    server = await startTestServer();
    userId = await createAccount(server.ctx, { email: 'profile@example.com', name: 'Pat' });
    token = (await accountSignIn(server.url, 'profile@example.com')).token;
  });
  afterAll(() => server?.close());

  it('changes name, birthday and gender, answers the profile, and GET /api/v1/me shows them', async () => {
    const birthday = Date.UTC(1990, 4, 17) / 1000;
    const answer = await patch({ name: '  Nguyễn Văn A ', birthday, gender: 'Male' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: userId, name: 'Nguyễn Văn A', birthday, gender: 'Male', email: 'profile@example.com' });
    expect((await call(server.url, 'GET', '/api/v1/me', { token })).body).toEqual(answer.body);
    expect(await userById(server.ctx, userId)).toMatchObject({ name: 'Nguyễn Văn A', birthday, gender: 'Male' });
  });

  it('changes only the fields sent; null clears birthday and gender', async () => {
    await patch({ name: 'Pat', birthday: 0, gender: 'Female' });
    expect((await patch({ gender: 'Other' })).body).toMatchObject({ name: 'Pat', birthday: 0, gender: 'Other' });
    expect((await patch({ birthday: null })).body).toMatchObject({ name: 'Pat', birthday: null, gender: 'Other' });
    expect((await patch({ gender: null })).body).toMatchObject({ name: 'Pat', birthday: null, gender: null });
    expect((await patch({})).body).toMatchObject({ name: 'Pat', birthday: null, gender: null });
    // The earliest birthday allowed, 1900-01-01.
    expect((await patch({ birthday: BIRTHDAY_MIN })).body).toMatchObject({ birthday: BIRTHDAY_MIN });
  });

  it('refuses bad input with 400 naming the field, and changes nothing', async () => {
    await patch({ name: 'Pat', birthday: 631152000, gender: 'Female' });
    const before = await userById(server.ctx, userId);
    const tomorrow = Math.floor(Date.now() / 1000) + 86_400;
    const cases: [unknown, number, string | undefined][] = [
      [{ name: 'x'.repeat(10_000) }, 1002, 'name'],
      [{ name: '   ' }, 1002, 'name'],
      [{ name: null }, 1002, 'name'],
      [{ birthday: '1990-05-17' }, 1002, 'birthday'],
      [{ birthday: '17/05/1990' }, 1002, 'birthday'],
      [{ birthday: 12.5 }, 1002, 'birthday'],
      [{ birthday: BIRTHDAY_MIN - 1 }, 1002, 'birthday'],
      [{ birthday: tomorrow }, 1002, 'birthday'],
      [{ gender: 'Unknown' }, 1002, 'gender'],
      [{ gender: 'male' }, 1002, 'gender'],
      [{ name: 'Valid', gender: 'Robot' }, 1002, 'gender'],
      ['{"name":', 1000, undefined],
      ['[]', 1000, 'body'],
    ];
    for (const [body, code, field] of cases) {
      const answer = await patch(body);
      expect([body, answer.status, answer.body.error.code, answer.body.error.field]).toEqual([body, 400, code, field]);
    }
    expect(await userById(server.ctx, userId)).toEqual(before);
  });

  it("changes the signed-in user's own account only", async () => {
    const otherId = await createAccount(server.ctx, { email: 'bystander@example.com', name: 'By Stander' });
    const before = await userById(server.ctx, otherId);
    await patch({ name: 'Only Me', id: otherId, tenant_id: 'other' });
    expect(await userById(server.ctx, otherId)).toEqual(before);
    expect(await userById(server.ctx, userId)).toMatchObject({ name: 'Only Me', tenant_id: 'demo' });
  });
});
