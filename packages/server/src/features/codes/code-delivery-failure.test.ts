import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { postJson } from '../../../test/visitor.ts';

/**
 * Gateways quote the request they refuse: the number or address, and the message with the code in
 * it. What reaches the log and the audit trail of a failed delivery keeps the reason readable and
 * leaves the code, the number and the address out.
 */
describe('a refused code delivery in the log and the audit trail', () => {
  let server: TestServer;
  let sentCode = '';

  beforeAll(async () => {
    server = await startTestServer({ captureLogs: true, env: { CODE_SENDS_PER_IP_PER_HOUR: '1000' } });
    server.ctx.messaging.sms = {
      send: async ({ to, text, code }) => {
        sentCode = code ?? '';
        const e164 = `+84${to.slice(1)}`;
        throw new Error(`twilio: HTTP 400, code 21211: The 'To' number ${e164} (${to.slice(0, 4)} ${to.slice(4, 7)} ${to.slice(7)}) is not valid for "${text}"`);
      },
    };
    server.ctx.messaging.mail = {
      send: async ({ to, code }) => {
        sentCode = code ?? '';
        throw new Error(`Message failed: 550 5.1.1 <${to}>: Recipient address rejected; body began "Your code is ${code}"`);
      },
    };
  });
  afterAll(async () => {
    await server?.close();
  });

  const register = (username: string) => postJson(server.url, '/api/v1/users/register', { client_id: 'demo-app', username, password: 'Lantern-42', name: 'Lan' }, 'en');
  const failures = async (type: string) =>
    (await server.ctx.db.selectFrom('audit_events').select('details').where('type', '=', type).execute()).map((row) => JSON.parse(String(row.details)) as { reason: string });

  it('keeps an SMS gateway reason without the code or the phone number', async () => {
    expect(await register('0987654321')).toEqual({ status: 503, body: { error: { code: 1292, message: 'We could not send the code, please try again' } } });
    expect(sentCode).toMatch(/^\d{6}$/);
    const [failure] = await failures('sms.send_failed');
    expect(failure!.reason).toContain('HTTP 400, code 21211');
    expect(failure!.reason).toContain('[number]');
    const logged = server.logs.filter((line) => line.includes('could not be sent')).join('\n');
    expect(logged).toContain('code 21211');
    for (const text of [failure!.reason, logged]) {
      expect(text).not.toContain(sentCode);
      expect(text.replace(/\D/g, '')).not.toMatch(/987654321|0987|654321/);
    }
  });

  it('keeps an SMTP reason without the code or the address', async () => {
    expect(await register('bounce.me@example.com')).toMatchObject({ status: 503, body: { error: { code: 1292 } } });
    const [failure] = await failures('code.send_failed');
    expect(failure!.reason).toContain('550 5.1.1');
    expect(failure!.reason).toContain('[address]');
    const logged = server.logs.filter((line) => line.includes('could not be sent')).join('\n');
    for (const text of [failure!.reason, logged]) {
      expect(text).not.toContain(sentCode);
      expect(text).not.toContain('bounce.me');
    }
  });
});
