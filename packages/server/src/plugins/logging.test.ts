import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createAppContext, type AppContext } from '../context.ts';
import { buildApp } from '../app.ts';
import { seedDemo } from '../seed/demo-seed.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { TestBrowser } from '../../test/browser.ts';

/** Request logs at debug level never carry a password, a challenge, a code or a token. */
describe('logs', () => {
  let dir: string;
  let ctx: AppContext;
  let app: FastifyInstance;
  let url: string;
  const lines: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'passgate-logs-'));
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'trace', DATABASE_URL: `sqlite:${join(dir, 'l.sqlite')}`, PORT: '0', PUBLIC_URL: 'http://127.0.0.1:1' });
    ctx = await createAppContext(config);
    await seedDemo(ctx);
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
    app = await buildApp(ctx, { logStream: stream });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await app?.close();
    await ctx?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps passwords, challenges and authorization headers out of the log', async () => {
    const browser = new TestBrowser();
    await browser.postJson(`${url}/api/v1/users/login`, { challenge: 'Secret-Challenge-Value', username: 'demo@example.com', password: 'Very-Secret-Pa55!' });
    await fetch(`${url}/api/v1/me`, { headers: { authorization: 'Bearer Secret-Token-Value' } });
    await fetch(`${url}/api/v1/requests/login/Another-Secret-Challenge`);
    await fetch(`${url}/demo/callback?code=Secret-Code-Value&state=Secret-State-Value`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const log = lines.join('');
    expect(log).toContain('/api/v1/users/login');
    for (const secret of ['Very-Secret-Pa55!', 'Secret-Challenge-Value', 'Secret-Token-Value', 'Another-Secret-Challenge', 'Secret-Code-Value', 'Secret-State-Value']) {
      expect(log).not.toContain(secret);
    }
  });
});
