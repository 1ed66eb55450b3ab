import Fastify from 'fastify';
import { ErrorCode } from '@passgate/contract';
import { describe, expect, it } from 'vitest';
import { ApiError, registerErrorHandling } from './errors.ts';

async function appThrowing(error: unknown, logs: string[] = []) {
  const app = Fastify({ logger: { level: 'trace', stream: { write: (line: string) => void logs.push(line) } } });
  registerErrorHandling(app);
  app.get('/', async () => {
    throw error;
  });
  await app.ready();
  return app;
}

describe('error answers', () => {
  it.each([
    ['an e-mail or SMS not sent (1292)', new ApiError(ErrorCode.DeliveryFailed, 503), ErrorCode.DeliveryFailed],
    ['a sign-in provider unreachable (1293)', new ApiError(ErrorCode.ProviderUnavailable, 503), ErrorCode.ProviderUnavailable],
    ['PostgreSQL gone (1294)', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }), ErrorCode.ServiceUnavailable],
    ['Redis gone (1294)', Object.assign(new Error('Reached the max retries per request limit (which is 2).'), { name: 'MaxRetriesPerRequestError' }), ErrorCode.ServiceUnavailable],
    ['SQLite locked (1294)', Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }), ErrorCode.ServiceUnavailable],
  ])('%s: 503 with Retry-After', async (_name, error, code) => {
    const app = await appThrowing(error);
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.json()).toMatchObject({ error: { code } });
    await app.close();
  });

  it('says a dependency failure once as a warning without a stack, not once per request as an error', async () => {
    const logs: string[] = [];
    const app = await appThrowing(new Error('Connection is closed.'), logs);
    for (let i = 0; i < 5; i++) expect((await app.inject({ method: 'GET', url: '/' })).statusCode).toBe(503);
    const warnings = logs.filter((line) => line.includes('cannot serve'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('"level":40');
    expect(warnings[0]).not.toContain('"stack"');
    expect(logs.filter((line) => line.includes('"level":50'))).toEqual([]);
    await app.close();
  });

  it('keeps 500 (no detail, no Retry-After) for a failure of Passgate itself', async () => {
    const app = await appThrowing(new TypeError("Cannot read properties of undefined (reading 'id')"));
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(500);
    expect(response.headers['retry-after']).toBeUndefined();
    expect(response.json()).toEqual({ error: { code: ErrorCode.Internal, message: 'Internal Server Error', requestId: expect.any(String) } });
    await app.close();
  });
});
