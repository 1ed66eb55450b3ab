import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createDatabase, migrateToLatest, type Db } from '../db/database.ts';
import { createServer, type Server, type Socket } from 'node:net';
import { createMessaging, smtpMailSender } from './messaging.ts';

let dir: string;
let db: Db;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'passgate-messaging-'));
  db = createDatabase(`sqlite:${join(dir, 'm.sqlite')}`);
  await migrateToLatest(db, 'sqlite');
});

afterAll(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('createMessaging', () => {
  it('sends mail and SMS to the dev outbox in development', async () => {
    const messaging = createMessaging(loadConfig({ NODE_ENV: 'development' }), db);
    expect(messaging.outbox).toBeDefined();
    await messaging.mail.send({ to: 'a@example.com', subject: 'S', text: 'T', code: '123456' });
    await messaging.sms.send({ to: '0912345678', text: 'code 999999', code: '999999' });
    const items = await messaging.outbox?.list({ limit: 10 });
    expect(items?.map((i) => [i.channel, i.to, i.code])).toEqual([
      ['sms', '0912345678', '999999'],
      ['email', 'a@example.com', '123456'],
    ]);
  });

  it('has no outbox without dev tools, and SMS fails naming SMS_PROVIDER', async () => {
    const config = loadConfig({ NODE_ENV: 'development', SMTP_URL: 'smtp://127.0.0.1:1' }, { devTools: false });
    const messaging = createMessaging(config, db);
    expect(messaging.outbox).toBeUndefined();
    await expect(messaging.sms.send({ to: '0912345678', text: 'x' })).rejects.toThrow(/SMS_PROVIDER/);
  });
});

/** A mail server on a local port that accepts connections and then does what `greet` says. */
async function fakeSmtp(greet: (socket: Socket) => void): Promise<{ url: string; server: Server; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => {});
    greet(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `smtp://127.0.0.1:${port}`, server, sockets };
}

describe('SMTP', () => {
  const message = { to: 'a@example.com', subject: 'S', text: 'T' };

  it.each([
    ['accepts the connection and never greets', () => {}],
    ['greets, then goes silent after EHLO', (socket: Socket) => socket.write('220 mail.example ESMTP\r\n')],
  ])('fails the send (and so the request, with 503) when the server %s, instead of waiting for minutes', async (_name, greet) => {
    const smtp = await fakeSmtp(greet);
    try {
      await expect(smtpMailSender(smtp.url, 'no-reply@example.com', 200).send(message)).rejects.toThrow(/timeout|greeting never received/i);
    } finally {
      for (const socket of smtp.sockets) socket.destroy();
      await new Promise((resolve) => smtp.server.close(resolve));
    }
  });
});
