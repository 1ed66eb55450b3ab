import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  const { mail, sms } = server.ctx.messaging;
  await mail.send({ to: 'Ann@Example.com', subject: 'Your code', text: 'Your activation code is 123456', html: '<p>Your code is <b>123456</b></p>', code: '123456' });
  await sms.send({ to: '0912345678', text: 'Passgate code 654321', code: '654321' });
  await mail.send({ to: 'ann@example.com', subject: 'Welcome <script>alert(1)</script>', text: 'Hello & welcome' });
  await mail.send({ to: 'bob@example.com', subject: 'For Bob', text: 'Hi Bob', code: '111111' });
});

afterAll(async () => {
  await server?.close();
});

interface Items {
  items: { id: string; channel: string; to: string; subject: string | null; text: string; code: string | null; createdAt: string }[];
}

async function outboxJson(query = ''): Promise<Items> {
  const response = await fetch(`${server.url}/dev/outbox${query}`, { headers: { accept: 'application/json' } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return (await response.json()) as Items;
}

describe('GET /dev/outbox', () => {
  it('answers the JSON shape, newest first, filtered by recipient', async () => {
    const ann = await outboxJson('?to=ann@example.com');
    expect(ann.items.map((i) => i.subject)).toEqual(['Welcome <script>alert(1)</script>', 'Your code']);
    const [latest, first] = ann.items;
    expect(Object.keys(first ?? {}).sort()).toEqual(['channel', 'code', 'createdAt', 'id', 'subject', 'text', 'to']);
    expect(first).toMatchObject({ channel: 'email', to: 'ann@example.com', text: 'Your activation code is 123456', code: '123456' });
    expect(latest?.code).toBeNull();
    expect(new Date(first?.createdAt ?? '').toISOString()).toBe(first?.createdAt);

    const phone = await outboxJson('?to=0912345678');
    expect(phone.items).toEqual([expect.objectContaining({ channel: 'sms', to: '0912345678', subject: null, text: 'Passgate code 654321', code: '654321' })]);

    const all = await outboxJson();
    expect(all.items.map((i) => i.to)).toEqual(['bob@example.com', 'ann@example.com', '0912345678', 'ann@example.com']);
    expect((await outboxJson('?to=nobody@example.com')).items).toEqual([]);
  });

  it('is a readable, escaped HTML page without inline scripts', async () => {
    const response = await fetch(`${server.url}/dev/outbox`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await response.text();
    expect(html).toContain('Welcome &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('Hello &amp; welcome');
    expect(html).toContain('654321');
    expect(html).not.toMatch(/<script/i);
    const filtered = await (await fetch(`${server.url}/dev/outbox?to=bob@example.com`)).text();
    expect(filtered).toContain('Hi Bob');
    expect(filtered).not.toContain('Passgate code 654321');
  });

  it('rejects a bad limit with the error envelope', async () => {
    const response = await fetch(`${server.url}/dev/outbox?limit=0`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 1002 } });
  });
});
