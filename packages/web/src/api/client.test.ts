import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@passgate/contract/rules';
import { changeLanguage, i18n } from '../i18n/i18n.ts';
import { errorText } from '../i18n/error-message.ts';
import { apiError, json, stubFetch } from '../test/fetch-stub.ts';
import { api } from './client.ts';
import { ApiError, NetworkError, classifyError } from './errors.ts';

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('API client', () => {
  it('sends JSON in snake_case with the current language, and reads the camelCase answer', async () => {
    const requests = stubFetch({ 'POST /api/v1/users/login': json(200, { redirectTo: '/oidc/resume' }) });
    await changeLanguage('en');
    const answer = await api.post('/v1/users/login', { challenge: 'c1', username: 'a@b.co', password: 'Passw0rd!', clientId: 'demo-app' });
    expect(answer).toEqual({ redirectTo: '/oidc/resume' });
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.body).toEqual({ challenge: 'c1', username: 'a@b.co', password: 'Passw0rd!', client_id: 'demo-app' });
    expect(request?.headers.get('content-type')).toBe('application/json');
    expect(request?.headers.get('accept')).toBe('application/json');
    expect(request?.headers.get('accept-language')).toBe('en');
  });

  it('sends the bearer token of signed-in calls', async () => {
    const requests = stubFetch({ 'GET /api/v1/me': json(200, { id: 'u1' }) });
    await api.get('/v1/me', { token: 'tok-123' });
    expect(requests[0]?.headers.get('authorization')).toBe('Bearer tok-123');
    expect(requests[0]?.headers.get('accept-language')).toBe('vi');
  });

  it('maps a 4xx error envelope to an ApiError with its code, message and field', async () => {
    stubFetch({ 'POST /api/v1/users/login': apiError(400, ErrorCode.InvalidField, 'Invalid field', 'username') });
    const error = await failure(api.post('/v1/users/login', { username: '' }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 1002, message: 'Invalid field', field: 'username' });
    expect(classifyError(error)).toEqual({ kind: 'message', code: 1002, serverMessage: 'Invalid field' });
  });

  it('treats a 5xx as a server error, with or without an envelope', async () => {
    stubFetch({
      'GET /api/v1/a': apiError(500, ErrorCode.Internal, 'Internal Server Error'),
      'GET /api/v1/b': new Response('<html>Bad Gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    });
    const withEnvelope = await failure(api.get('/v1/a'));
    const withoutEnvelope = await failure(api.get('/v1/b'));
    expect(withEnvelope).toMatchObject({ status: 500, code: 1500 });
    expect(withoutEnvelope).toMatchObject({ status: 502, code: 1500, message: 'Bad Gateway' });
    expect(classifyError(withEnvelope)).toEqual({ kind: 'server-error' });
    expect(classifyError(withoutEnvelope)).toEqual({ kind: 'server-error' });
  });

  it('says a failed e-mail or SMS (503, 1292) on the screen, so the user can try again', async () => {
    stubFetch({ 'POST /api/v1/users/register': apiError(503, ErrorCode.DeliveryFailed, 'We could not send the code, please try again') });
    const error = await failure(api.post('/v1/users/register', {}));
    expect(classifyError(error)).toEqual({ kind: 'message', code: 1292, serverMessage: 'We could not send the code, please try again' });
  });

  it('reports a request that got no answer as a NetworkError', async () => {
    stubFetch({ 'GET /api/v1/me': 'network-error' });
    const error = await failure(api.get('/v1/me'));
    expect(error).toBeInstanceOf(NetworkError);
    expect(classifyError(error)).toEqual({ kind: 'network' });
  });

  it('passes over the pending code silently', async () => {
    stubFetch({ 'GET /api/v1/poll': apiError(400, ErrorCode.Pending, 'Pending') });
    expect(classifyError(await failure(api.get('/v1/poll')))).toEqual({ kind: 'silent' });
  });
});

describe('error messages (SPEC.md section 8)', () => {
  it('shows the message mapped to a 4xx code in the current language', async () => {
    const error = new ApiError(401, 1017, 'Username or password is not correct');
    expect(errorText(i18n.t, error)).toBe('Tên đăng nhập hoặc mật khẩu không đúng');
    await changeLanguage('en');
    expect(errorText(i18n.t, error)).toBe('Username or password is not correct');
  });

  it("falls back to the server's message for a code it does not know", () => {
    expect(errorText(i18n.t, new ApiError(400, 4242, 'Something specific'))).toBe('Something specific');
  });

  it('reads the wait from Retry-After when the body does not say it', async () => {
    stubFetch({ 'POST /api/v1/mfa/trigger-challenge': new Response(JSON.stringify({ error: { code: 1291, message: 'soon' } }), { status: 429, headers: { 'retry-after': '17' } }) });
    const error = await failure(api.post('/v1/mfa/trigger-challenge', {}));
    expect(error).toMatchObject({ code: 1291, retryAfter: 17 });
  });

  it('says how long to wait for a 429 with retryAfter, in whole minutes rounded up, in both languages', async () => {
    await changeLanguage('en');
    const error = new ApiError(429, 1290, 'Too many requests (try again in 61 s)', undefined, 61);
    expect(errorText(i18n.t, error)).toBe('Too many attempts; try again in 2 minutes.');
    expect(errorText(i18n.t, new ApiError(429, 1290, 'Too many requests', undefined, 30))).toBe('Too many attempts; try again in 1 minute.');
    // Without a wait, the plain message.
    expect(errorText(i18n.t, new ApiError(429, 1290, 'Too many requests'))).toBe('Too many requests, please try again later');
    await changeLanguage('vi');
    expect(errorText(i18n.t, error)).toBe('Bạn đã thử quá nhiều lần, vui lòng thử lại sau 2 phút.');
  });

  it("shows 'Cannot connect to Server' when there was no answer", async () => {
    await changeLanguage('en');
    expect(errorText(i18n.t, new NetworkError('offline'))).toBe('Cannot connect to Server');
  });

  it('shows nothing for pending (silent) and for a 5xx (the Error screen instead)', () => {
    expect(errorText(i18n.t, new ApiError(400, 1200, 'Pending'))).toBeNull();
    expect(errorText(i18n.t, new ApiError(500, 1500, 'Internal Server Error'))).toBeNull();
  });
});
