import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { postJson, userRow } from '../../../test/visitor.ts';
import { startSmtpServer, type TestSmtpServer } from '../../../test/smtp.ts';

/** Activation codes delivered by real SMTP (nodemailer) to a local SMTP server. */
describe('activation e-mail over SMTP', () => {
  let smtp: TestSmtpServer;
  let server: TestServer;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startTestServer({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Passgate Demo <no-reply@passgate.test>', CODE_SENDS_PER_IP_PER_HOUR: '1000' } });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  const register = (username: string, language: string) =>
    postJson(server.url, '/api/v1/users/register', { client_id: 'demo-app', username, password: 'Lantern-42', name: 'Lan <b>Anh</b>' }, language);

  it('sends a Vietnamese, branded, text and HTML message whose code activates the account', async () => {
    expect(await register('lan@example.com', 'vi')).toEqual({ status: 200, body: { username: 'lan@example.com', channel: 'email' } });
    expect(smtp.messages).toHaveLength(1);
    const mail = smtp.messages[0]!;
    expect(mail.to).toEqual(['lan@example.com']);
    expect(mail.from).toBe('no-reply@passgate.test');
    expect(mail.headers.to).toBe('lan@example.com');
    expect(mail.subject).toBe('[Passgate Demo] Mã kích hoạt tài khoản của bạn');
    expect(mail.text).toContain('Xin chào Lan <b>Anh</b>,');
    expect(mail.text).toContain('Cảm ơn bạn đã đăng ký tài khoản Passgate Demo.');
    expect(mail.text).toContain('Mã có hiệu lực trong 10 phút');
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
    expect(code).toBeDefined();
    expect(mail.html).toContain('<html lang="vi">');
    expect(mail.html).toContain(`>${code}</span>`);
    expect(mail.html).toContain('Xin chào Lan &lt;b&gt;Anh&lt;/b&gt;,');
    expect(mail.html).toContain('Passgate Demo');
    // The code is in the message, never in the database or the dev outbox.
    expect(await server.ctx.messaging.outbox?.list({ to: 'lan@example.com', limit: 10 })).toEqual([]);

    const confirm = await postJson(server.url, '/api/v1/users/confirm', { client_id: 'demo-app', username: 'lan@example.com', code });
    expect(confirm).toEqual({ status: 200, body: {} });
    expect(await userRow(server.ctx, 'demo', 'lan@example.com')).toMatchObject({ status: 'active', email_verified: 1 });
  });

  it('writes in English for an English visitor', async () => {
    expect(await register('ann@example.com', 'en')).toMatchObject({ status: 200 });
    const mail = smtp.messages.at(-1)!;
    expect(mail.to).toEqual(['ann@example.com']);
    expect(mail.subject).toBe('[Passgate Demo] Your account activation code');
    expect(mail.text).toContain('Thank you for signing up for Passgate Demo.');
    expect(mail.html).toContain('<html lang="en">');
    expect(mail.html).toMatch(/>\d{6}<\/span>/);
  });

  it('answers 503 and keeps no account when the SMTP server refuses the message', async () => {
    smtp.refuse.add('bounce@example.com');
    expect(await register('bounce@example.com', 'vi')).toEqual({ status: 503, body: { error: { code: 1292, message: 'We could not send the code, please try again' } } });
    expect(await userRow(server.ctx, 'demo', 'bounce@example.com')).toBeUndefined();
    const failures = await server.ctx.db.selectFrom('audit_events').select('details').where('type', '=', 'code.send_failed').execute();
    expect(failures).toHaveLength(1);
  });
});
