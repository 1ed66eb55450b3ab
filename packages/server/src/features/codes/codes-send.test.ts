import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { ErrorCode } from '@passgate/contract';
import type { Database } from '../../db/schema.ts';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { createAccount, userById } from '../../../test/account.ts';
import { ApiError } from '../../plugins/errors.ts';
import { createCodeService, type CodeService, type CodeTarget } from './codes.service.ts';

/** Sending a code (generate, deliver, store only once delivered), on the database the suite runs on. */
describe('sending one-time codes', () => {
  let server: TestServer;
  let codes: CodeService;
  let n = 0;
  const target = (): CodeTarget => ({ tenantId: 'demo', purpose: 'email_change', destination: `send-${(n += 1)}@example.com` });
  const stored = (t: CodeTarget) =>
    server.ctx.db.selectFrom('one_time_codes').selectAll().where('tenant_id', '=', t.tenantId).where('destination', '=', t.destination).where('purpose', '=', t.purpose).execute();
  const account = () => createAccount(server.ctx, { email: `send-owner-${(n += 1)}@example.com` });
  const senderDown = () => Promise.reject(new ApiError(ErrorCode.DeliveryFailed, 503));

  beforeAll(async () => {
    server = await startTestServer({ env: { CODE_SENDS_PER_IP_PER_HOUR: '3' } });
    codes = createCodeService(server.ctx);
  });
  afterAll(() => server?.close());

  it('stores the code it delivered, for the account and with its payload', async () => {
    const userId = await account();
    const t = target();
    let sent = '';
    await codes.sendToAccount({ ...t, userId, payload: '{"x":1}' }, '10.1.0.1', { deliver: async (code) => { sent = code; } });
    expect(sent).toMatch(/^\d{6}$/);
    expect(await codes.verify(t, sent)).toMatchObject({ result: 'ok', userId, payload: '{"x":1}' });
  });

  it('stores nothing when the message could not be sent, keeps the earlier code, and lets the visitor retry at once', async () => {
    const userId = await account();
    const t = target();
    let first = '';
    await codes.sendToAccount({ ...t, userId }, '10.1.0.2', { deliver: async (code) => { first = code; } });
    await codes.releaseSend(t);

    const failed = await codes.sendToAccount({ ...t, userId }, '10.1.0.2', { deliver: senderDown }).catch((error: unknown) => error);
    expect(failed).toMatchObject({ code: ErrorCode.DeliveryFailed, status: 503 });
    expect(await stored(t)).toHaveLength(1);
    expect(await codes.verify(t, first, { keep: true })).toMatchObject({ result: 'ok' });

    // The cooldown was given back: the retry is not refused with 1291.
    let retry = '';
    await codes.sendToAccount({ ...t, userId }, '10.1.0.2', { deliver: async (code) => { retry = code; } });
    expect(await codes.verify(t, first)).toMatchObject({ result: 'wrong' });
    expect(await codes.verify(t, retry)).toMatchObject({ result: 'ok' });
  });

  it('writes the code and the caller’s changes in one transaction: a failed change stores no code', async () => {
    const userId = await account();
    const t = target();
    const rename = (name: string) => async (trx: Kysely<Database>) => {
      await trx.updateTable('users').set({ name }).where('id', '=', userId).execute();
    };

    const refused = await codes.sendToAccount({ ...t, userId }, '10.1.0.3', {
      deliver: async () => undefined,
      saveWith: async (trx) => {
        await rename('Not Kept')(trx);
        throw new Error('the change failed');
      },
    }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ message: 'the change failed' });
    expect(await stored(t)).toHaveLength(0);
    expect((await userById(server.ctx, userId))?.name).toBe('Test User');

    await codes.releaseSend(t);
    let sent = '';
    await codes.sendToAccount({ ...t, userId }, '10.1.0.3', { deliver: async (code) => { sent = code; }, saveWith: rename('Kept') });
    expect((await userById(server.ctx, userId))?.name).toBe('Kept');
    expect(await codes.verify(t, sent)).toMatchObject({ result: 'ok', userId });
  });

  it('keeps the destination out of the cooldown in clear: in Redis its key is a keyed hash, and the cooldown still holds per destination', async () => {
    // What people type where a username goes is at times their password; the cooldown is spent before the account is looked up.
    const typed: CodeTarget = { tenantId: 'demo', purpose: 'recovery', destination: 'Typed.Secret-Passw0rd@example.com' };
    await codes.reserveSend(typed, '10.0.1.1');
    expect(await codes.reserveSend(typed, '10.0.1.1').catch((error: unknown) => error)).toMatchObject({ code: 1291, status: 429 });
    await codes.reserveSend({ ...typed, purpose: 'activation' }, '10.0.1.1');
    if (server.ctx.redis) {
      const prefix = server.ctx.config.redisKeyPrefix;
      const keys = (await server.ctx.redis.keys(`${prefix}*`)).join('\n').toLowerCase();
      expect(keys).toContain('code-resend');
      expect(keys).not.toContain(typed.destination.toLowerCase());
      expect(keys).not.toContain('typed.secret-passw0rd');
    }
  });

  it('counts every send against the account as well, from any address, before the cooldown is spent', async () => {
    const userId = await account();
    // CODE_SENDS_PER_IP_PER_HOUR=3 is the account's budget too.
    for (const ip of ['10.2.0.1', '10.2.0.2', '10.2.0.3']) await codes.sendToAccount({ ...target(), userId }, ip, { deliver: async () => undefined });
    const t = target();
    const refused = await codes.sendToAccount({ ...t, userId }, '10.2.0.4', { deliver: async () => undefined }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 1290, status: 429 });
    expect(await stored(t)).toHaveLength(0);
    // Refused by the account's budget, the destination's cooldown and the address's budget were not spent.
    await codes.reserveSend(t, '10.2.0.4');
  });
});
