import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { otherCode } from '../../../test/visitor.ts';
import { ApiError } from '../../plugins/errors.ts';
import { createCodeService, type CodeService, type CodeTarget } from './codes.service.ts';

/** One-time codes (DESIGN.md section 7), on the database the suite runs on (SQLite, or PostgreSQL and Redis). */
describe('one-time codes', () => {
  let server: TestServer;
  let codes: CodeService;
  let n = 0;
  const target = (purpose: CodeTarget['purpose'] = 'activation'): CodeTarget => ({ tenantId: 'demo', purpose, destination: `codes-${(n += 1)}@example.com` });
  const row = (t: CodeTarget) =>
    server.ctx.db.selectFrom('one_time_codes').selectAll().where('tenant_id', '=', t.tenantId).where('destination', '=', t.destination).where('purpose', '=', t.purpose).execute();

  beforeAll(async () => {
    server = await startTestServer({ env: { CODE_SENDS_PER_IP_PER_HOUR: '3' } });
    codes = createCodeService(server.ctx);
  });
  afterAll(() => server?.close());

  it('are 6 random digits, stored only as a keyed hash, valid for 10 minutes', async () => {
    const generated = new Set(Array.from({ length: 300 }, () => codes.generate()));
    for (const code of generated) expect(code).toMatch(/^\d{6}$/);
    expect(generated.size).toBeGreaterThan(290);

    const t = target();
    const before = Date.now();
    const code = await codes.issue({ ...t, userId: null, payload: '{"x":1}' });
    const [stored, ...more] = await row(t);
    expect(more).toEqual([]);
    expect(stored).toMatchObject({ attempts: 0, consumed_at: null, payload: '{"x":1}', user_id: null });
    expect(stored!.code_hash).not.toContain(code);
    expect(stored!.code_hash).toBe(server.ctx.keys.hmac(`code:activation:${t.destination}`, code));
    expect(Number(stored!.expires_at) - before).toBeGreaterThanOrEqual(10 * 60_000 - 5);
    expect(Number(stored!.expires_at) - Date.now()).toBeLessThanOrEqual(10 * 60_000);
  });

  it('work once: a used code is refused', async () => {
    const t = target();
    const code = await codes.issue({ ...t, userId: null });
    expect(await codes.verify(t, code)).toMatchObject({ result: 'ok' });
    expect(await codes.verify(t, code)).toEqual({ result: 'expired' });
  });

  it('die after 5 wrong tries, even for the right code on the sixth', async () => {
    const t = target();
    const code = await codes.issue({ ...t, userId: null });
    for (let i = 0; i < 5; i += 1) expect(await codes.verify(t, otherCode(code))).toEqual({ result: 'wrong' });
    expect(await codes.verify(t, code)).toEqual({ result: 'expired' });
    expect((await row(t))[0]).toMatchObject({ attempts: 5, consumed_at: null });
  });

  it('accept the right code on the fifth try', async () => {
    const t = target();
    const code = await codes.issue({ ...t, userId: null });
    for (let i = 0; i < 4; i += 1) expect(await codes.verify(t, otherCode(code))).toEqual({ result: 'wrong' });
    expect(await codes.verify(t, code)).toMatchObject({ result: 'ok' });
  });

  it('expire: a code past its time is refused even when right', async () => {
    const t = target();
    const code = await codes.issue({ ...t, userId: null });
    await server.ctx.db.updateTable('one_time_codes').set({ expires_at: Date.now() - 1 }).where('destination', '=', t.destination).execute();
    expect(await codes.verify(t, code)).toEqual({ result: 'expired' });

    const shortLived = createCodeService({ ...server.ctx, ttlMs: 50 });
    const t2 = target();
    const code2 = await shortLived.issue({ ...t2, userId: null });
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await shortLived.verify(t2, code2)).toEqual({ result: 'expired' });
  });

  it('are replaced by a new code for the same tenant, purpose and destination, and kept apart otherwise', async () => {
    const t = target();
    const first = await codes.issue({ ...t, userId: null });
    const second = await codes.issue({ ...t, userId: null });
    expect((await row(t)).length).toBe(1);
    if (first !== second) expect(await codes.verify(t, first)).toEqual({ result: 'wrong' });
    const recovery = await codes.issue({ ...t, purpose: 'recovery', userId: null });
    expect(await codes.verify({ ...t, tenantId: 'other' }, second)).toEqual({ result: 'expired' });
    expect(await codes.verify({ ...t, purpose: 'recovery' }, recovery)).toMatchObject({ result: 'ok' });
    expect(await codes.verify(t, second)).toMatchObject({ result: 'ok' });
  });

  it('let one of many simultaneous uses of the right code pass, and at most 5 of many simultaneous guesses be compared', async () => {
    const t = target();
    const code = await codes.issue({ ...t, userId: null });
    const results = await Promise.all(Array.from({ length: 8 }, () => codes.verify(t, code)));
    expect(results.filter((r) => r.result === 'ok')).toHaveLength(1);

    const t2 = target();
    const code2 = await codes.issue({ ...t2, userId: null });
    const guesses = await Promise.allSettled(Array.from({ length: 12 }, () => codes.verify(t2, otherCode(code2))));
    expect(guesses.filter((r) => r.status === 'fulfilled' && r.value.result === 'wrong')).toHaveLength(5);
    expect(await codes.verify(t2, code2)).toEqual({ result: 'expired' });
  });

  it('count wrong codes against the destination across new codes and purposes: the 11th try in 15 minutes is refused (429), even with the right code', async () => {
    const t = target('recovery');
    // 4 + 4 + 2 wrong tries, each code still open (fewer than its 5).
    for (const [purpose, tries] of [['recovery', 4], ['recovery', 4], ['mfa', 2]] as const) {
      const code = await codes.issue({ ...t, purpose, userId: null });
      for (let i = 0; i < tries; i += 1) expect(await codes.verify({ ...t, purpose }, otherCode(code))).toEqual({ result: 'wrong' });
    }
    const fresh = await codes.issue({ ...t, userId: null });
    const refused = await codes.verify(t, fresh).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 429, code: 1290 });
    // Another destination is not touched.
    const other = target('recovery');
    const otherFresh = await codes.issue({ ...other, userId: null });
    expect(await codes.verify(other, otherFresh)).toMatchObject({ result: 'ok' });
  });

  it('do not count right codes: an account that signs in with codes many times is never refused', async () => {
    const t = target('passwordless');
    for (let i = 0; i < 15; i += 1) {
      const code = await codes.issue({ ...t, userId: null });
      expect(await codes.verify(t, code)).toMatchObject({ result: 'ok' });
    }
  });

  it('can be checked first and consumed later, once', async () => {
    const t = target('recovery');
    const demo = await server.ctx.users.findByEmail('demo', 'demo@example.com');
    const code = await codes.issue({ ...t, userId: demo!.id });
    const check = await codes.verify(t, code, { keep: true });
    expect(check).toMatchObject({ result: 'ok', userId: demo!.id });
    if (check.result !== 'ok') throw new Error('expected ok');
    expect((await row(t))[0]).toMatchObject({ attempts: 0, consumed_at: null });
    const [a, b] = await Promise.all([codes.consume(check.codeId), codes.consume(check.codeId)]);
    expect([a, b].sort()).toEqual([false, true]);
    expect(await codes.verify(t, code)).toEqual({ result: 'expired' });
  });

  it('may be sent once per 60 s per destination (429, 1291, try again in N s), and a set number per address (429, 1290)', async () => {
    const t = target();
    await codes.reserveSend(t, '10.0.0.1');
    const refused = await codes.reserveSend(t, '10.0.0.1').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: 1291, status: 429, message: expect.stringMatching(/try again in (60|59) s/) });
    await codes.releaseSend(t);
    await codes.reserveSend(t, '10.0.0.1');

    // CODE_SENDS_PER_IP_PER_HOUR=3: the refused resend spent none of it, so one more send is left.
    await codes.reserveSend(target(), '10.0.0.1');
    const fourth = target();
    expect(await codes.reserveSend(fourth, '10.0.0.1').catch((error: unknown) => error)).toMatchObject({ code: 1290, status: 429 });
    // Refused by the address budget, the destination's cooldown was not spent.
    await codes.reserveSend(fourth, '10.0.0.2');
  });
});
