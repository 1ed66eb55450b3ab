import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { allowThirdParties, registerSecurityHeaders } from './security-headers.ts';

async function appServing(https: boolean) {
  const app = Fastify();
  await registerSecurityHeaders(app, https);
  app.get('/plain', async () => ({ ok: true }));
  app.get('/with-google', async (_request, reply) => {
    allowThirdParties(reply, https, ['google']);
    return { ok: true };
  });
  // What the provider does: it answers on the raw response, past Fastify's reply.
  app.get('/raw', (_request, reply) => {
    reply.hijack();
    reply.raw.end('raw');
  });
  return app;
}

describe('security headers', () => {
  it('behind https: HSTS for a year with subdomains, and insecure requests upgraded', async () => {
    const app = await appServing(true);
    for (const url of ['/plain', '/raw']) {
      const response = await app.inject({ url });
      expect(response.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
      expect(response.headers['content-security-policy'], url).toContain('upgrade-insecure-requests');
      expect(response.headers['x-frame-options'], url).toBe('DENY');
    }
    await app.close();
  });

  it('a page that needs a third party gets its widened policy in place of the strict one, not beside it', async () => {
    const app = await appServing(false);
    const response = await app.inject({ url: '/with-google' });
    const policies = ([] as string[]).concat(response.headers['content-security-policy'] ?? []);
    expect(policies).toHaveLength(1);
    expect(policies[0]).toContain('script-src \'self\' https://accounts.google.com/gsi/client');
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    expect(response.headers['strict-transport-security']).toBeUndefined();
    // The next answer is strict again: nothing of one request's policy stays for the next.
    const next = await app.inject({ url: '/plain' });
    expect(next.headers['content-security-policy']).toContain("script-src 'self';");
    expect(next.headers['cross-origin-opener-policy']).toBe('same-origin');
    await app.close();
  });
});
