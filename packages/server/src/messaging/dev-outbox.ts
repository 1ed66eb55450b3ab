import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';

type Executor = Kysely<Database> | Transaction<Database>;

export type OutboxChannel = 'email' | 'sms';

export interface DevOutboxMessage {
  channel: OutboxChannel;
  recipient: string;
  subject?: string | null;
  text: string;
  html?: string | null;
  code?: string | null;
}

export interface DevOutboxItem {
  id: string;
  channel: OutboxChannel;
  to: string;
  subject: string | null;
  text: string;
  html: string | null;
  code: string | null;
  /** Unix milliseconds. */
  createdAt: number;
}

/** E-mail addresses are kept and looked up in lower case; phone numbers as given. */
const normalizeRecipient = (value: string): string => {
  const trimmed = value.trim();
  return trimmed.includes('@') ? trimmed.toLowerCase() : trimmed;
};

/**
 * Development only: every e-mail and SMS the server "sent", kept in the `dev_outbox` table for
 * people (the /dev/outbox page) and tests (its JSON form) to read.
 */
export function createDevOutbox(db: Executor) {
  // Strictly increasing timestamps, so "newest first" is exact even within one millisecond.
  let last = 0;
  const stamp = () => {
    last = Math.max(Date.now(), last + 1);
    return last;
  };

  return {
    async add(message: DevOutboxMessage): Promise<DevOutboxItem> {
      const item: DevOutboxItem = {
        id: newId(),
        channel: message.channel,
        to: normalizeRecipient(message.recipient),
        subject: message.subject ?? null,
        text: message.text,
        html: message.html ?? null,
        code: message.code ?? null,
        createdAt: stamp(),
      };
      await db
        .insertInto('dev_outbox')
        .values({
          id: item.id,
          channel: item.channel,
          recipient: item.to,
          subject: item.subject,
          text: item.text,
          html: item.html,
          code: item.code,
          created_at: item.createdAt,
        })
        .execute();
      return item;
    },

    /** Newest first; only the messages sent to `to` when it is given. */
    async list(options: { to?: string; limit: number }): Promise<DevOutboxItem[]> {
      let query = db.selectFrom('dev_outbox').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit);
      if (options.to) query = query.where('recipient', '=', normalizeRecipient(options.to));
      const rows = await query.execute();
      return rows.map((row) => ({
        id: row.id,
        channel: row.channel === 'sms' ? 'sms' : 'email',
        to: row.recipient,
        subject: row.subject,
        text: row.text,
        html: row.html,
        code: row.code,
        createdAt: Number(row.created_at),
      }));
    },
  };
}
export type DevOutbox = ReturnType<typeof createDevOutbox>;
