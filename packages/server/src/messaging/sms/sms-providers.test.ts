import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSmsGateway, type FakeSmsGateway } from '../../../test/fake-sms.ts';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { postJson, userRow } from '../../../test/visitor.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { esmsSmsSender } from './esms.ts';
import { twilioSmsSender } from './twilio.ts';
import { toE164, toVietnameseNational } from './phone.ts';

const SID = 'AC0123456789abcdef0123456789abcdef';
const TEXT = 'Passgate: Mã đăng nhập của bạn là 123456';

describe('SMS provider adapters against a fake gateway', () => {
  let gateway: FakeSmsGateway;
  beforeAll(async () => {
    gateway = await startFakeSmsGateway({ status: 201, body: {} });
  });
  afterEach(() => {
    gateway.requests.length = 0;
  });
  afterAll(() => gateway?.close());

  it('converts phone numbers', () => {
    expect(toE164('0987654321')).toBe('+84987654321');
    expect(toE164('+14155550100')).toBe('+14155550100');
    expect(toVietnameseNational('+84987654321')).toBe('0987654321');
    expect(toVietnameseNational('0987654321')).toBe('0987654321');
  });

  it('Twilio: posts the form with HTTP Basic and accepts 201 with a sid', async () => {
    gateway.answer = { status: 201, body: { sid: 'SM123', status: 'queued' } };
    await twilioSmsSender({ baseUrl: gateway.url, accountSid: SID, authToken: 'tok3n', from: '+15005550006' }).send({ to: '0987654321', text: TEXT, code: '123456' });
    expect(gateway.requests).toHaveLength(1);
    const [request] = gateway.requests;
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(request!.headers.authorization).toBe(`Basic ${Buffer.from(`${SID}:tok3n`).toString('base64')}`);
    expect(request!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(request!.body))).toEqual({ To: '+84987654321', Body: TEXT, From: '+15005550006' });
  });

  it('Twilio: a Messaging Service SID goes as MessagingServiceSid', async () => {
    gateway.answer = { status: 201, body: { sid: 'SM124' } };
    const service = `MG${'a'.repeat(32)}`;
    await twilioSmsSender({ baseUrl: gateway.url, accountSid: SID, authToken: 't', from: service }).send({ to: '0912345678', text: 'hi' });
    expect(Object.fromEntries(new URLSearchParams(gateway.requests[0]!.body))).toEqual({ To: '+84912345678', Body: 'hi', MessagingServiceSid: service });
  });

  it('Twilio: an error answer throws with its code and message, never the text', async () => {
    gateway.answer = { status: 400, body: { code: 21211, message: "The 'To' number is not a valid phone number.", status: 400 } };
    const sending = twilioSmsSender({ baseUrl: gateway.url, accountSid: SID, authToken: 'secret-token', from: '+15005550006' }).send({ to: '0987654321', text: TEXT });
    await expect(sending).rejects.toThrow(/twilio: HTTP 400, code 21211: The 'To' number is not a valid phone number\./);
    const error = await twilioSmsSender({ baseUrl: gateway.url, accountSid: SID, authToken: 'secret-token', from: '+1' }).send({ to: '0987654321', text: TEXT }).catch((e: Error) => e);
    expect(String((error as Error).message)).not.toContain('123456');
    expect(String((error as Error).message)).not.toContain('secret-token');
  });

  it('Twilio: an unreachable gateway throws', async () => {
    await expect(twilioSmsSender({ baseUrl: 'http://127.0.0.1:1', accountSid: SID, authToken: 't', from: '+1' }).send({ to: '0987654321', text: 'x' })).rejects.toThrow(/twilio: request failed/);
  });

  it('eSMS: posts the JSON body and accepts CodeResult 100', async () => {
    gateway.answer = { status: 200, body: { CodeResult: '100', CountRegenerate: 0, SMSID: 'abc' } };
    await esmsSmsSender({ baseUrl: gateway.url, apiKey: 'KEY', secretKey: 'SECRET', brandname: 'Passgate' }).send({ to: '0987654321', text: TEXT });
    expect(gateway.requests).toHaveLength(1);
    const [request] = gateway.requests;
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/MainService.svc/json/SendMultipleMessage_V4_post_json/');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request!.body)).toEqual({ ApiKey: 'KEY', SecretKey: 'SECRET', Phone: '0987654321', Content: TEXT, Brandname: 'Passgate', SmsType: '2', IsUnicode: '1' });
  });

  it('eSMS: plain ASCII text is sent with IsUnicode 0', async () => {
    gateway.answer = { status: 200, body: { CodeResult: '100' } };
    await esmsSmsSender({ baseUrl: gateway.url, apiKey: 'K', secretKey: 'S', brandname: 'B' }).send({ to: '0987654321', text: 'code 123456' });
    expect(JSON.parse(gateway.requests[0]!.body)).toMatchObject({ IsUnicode: '0' });
  });

  it('eSMS: CodeResult 99 throws with CodeResult and ErrorMessage', async () => {
    gateway.answer = { status: 200, body: { CodeResult: '99', ErrorMessage: 'Unknown error' } };
    await expect(esmsSmsSender({ baseUrl: gateway.url, apiKey: 'K', secretKey: 'S', brandname: 'B' }).send({ to: '0987654321', text: TEXT })).rejects.toThrow(
      'esms: HTTP 200, CodeResult 99: Unknown error',
    );
  });
});

describe('SMS configuration', () => {
  it('requires the chosen provider settings, naming the missing variables', () => {
    expect(() => loadConfig({ SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: SID })).toThrow(ConfigError);
    expect(() => loadConfig({ SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: SID })).toThrow(/TWILIO_AUTH_TOKEN, TWILIO_FROM/);
    expect(() => loadConfig({ SMS_PROVIDER: 'esms', ESMS_API_KEY: 'k' })).toThrow(/ESMS_SECRET_KEY, ESMS_BRANDNAME/);
    expect(loadConfig({ SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: 't', TWILIO_FROM: '+1' }).sms.twilio).toEqual({
      baseUrl: 'https://api.twilio.com',
      accountSid: SID,
      authToken: 't',
      from: '+1',
    });
    expect(loadConfig({ SMS_PROVIDER: 'esms', ESMS_API_KEY: 'k', ESMS_SECRET_KEY: 's', ESMS_BRANDNAME: 'b' }).sms.esms).toMatchObject({ baseUrl: 'https://rest.esms.vn' });
  });
});

describe('Passgate sending SMS through Twilio (fake gateway)', () => {
  let gateway: FakeSmsGateway;
  let server: TestServer;
  const userCount = async () => Number((await server.ctx.db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    gateway = await startFakeSmsGateway({ status: 201, body: { sid: 'SM1' } });
    server = await startTestServer({
      env: { SMS_PROVIDER: 'twilio', TWILIO_BASE_URL: gateway.url, TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: 'tok', TWILIO_FROM: '+15005550006' },
    });
  });
  afterAll(async () => {
    await server?.close();
    await gateway?.close();
  });

  it('registers by phone: the activation SMS in Vietnamese with the code reaches the provider', async () => {
    const answer = await postJson(server.url, '/api/v1/users/register', { client_id: 'demo-app', username: '0911222333', password: 'Lantern-Quay7', name: 'Lan' }, 'vi');
    expect(answer).toEqual({ status: 200, body: { username: '0911222333', channel: 'sms' } });
    expect(gateway.requests).toHaveLength(1);
    const form = Object.fromEntries(new URLSearchParams(gateway.requests[0]!.body));
    expect(form.To).toBe('+84911222333');
    expect(form.Body).toMatch(/^Passgate Demo: Mã kích hoạt tài khoản của bạn là (\d{6}), hiệu lực 10 phút\./);
    const code = /(\d{6})/.exec(form.Body!)![1]!;
    // The outbox got nothing: SMS went to the provider.
    expect(await server.ctx.messaging.outbox!.list({ to: '0911222333', limit: 5 })).toEqual([]);
    expect(await postJson(server.url, '/api/v1/users/confirm', { client_id: 'demo-app', username: '0911222333', code })).toEqual({ status: 200, body: {} });
  });

  it('answers 503/1292 when the provider refuses, writing nothing, with one sms.send_failed record', async () => {
    gateway.answer = { status: 400, body: { code: 21614, message: "'To' number is not a valid mobile number" } };
    const before = await userCount();
    const answer = await postJson(server.url, '/api/v1/users/register', { client_id: 'demo-app', username: '0911222444', password: 'Lantern-Quay7', name: 'Minh' });
    expect(answer).toEqual({ status: 503, body: { error: { code: 1292, message: 'We could not send the code, please try again' } } });
    expect(await userCount()).toBe(before);
    expect(await userRow(server.ctx, 'demo', '0911222444')).toBeUndefined();
    expect(await server.ctx.db.selectFrom('one_time_codes').select('id').where('destination', '=', '0911222444').execute()).toEqual([]);
    const failures = await server.ctx.db.selectFrom('audit_events').select(['type', 'details']).where('type', 'in', ['sms.send_failed', 'code.send_failed']).execute();
    expect(failures).toHaveLength(1);
    expect(failures[0]!.type).toBe('sms.send_failed');
    expect(JSON.parse(failures[0]!.details!)).toMatchObject({ purpose: 'activation', channel: 'sms', reason: expect.stringContaining('21614') });
    expect(failures[0]!.details).not.toMatch(/Mã kích hoạt/);
  });
});
