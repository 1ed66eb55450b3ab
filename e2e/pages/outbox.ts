import { expect, type APIRequestContext } from '@playwright/test';

/** One e-mail or SMS as the dev outbox shows it (GET /dev/outbox with Accept: application/json). */
export interface OutboxMessage {
  id: string;
  channel: 'email' | 'sms';
  to: string;
  subject: string | null;
  text: string;
  code: string | null;
  createdAt: string;
}

/**
 * The development server's outbox: every e-mail and SMS it "sent", newest first. A scenario reads
 * its one-time codes here the way a person reads them in their mail: from the message's text.
 */
export class Outbox {
  constructor(readonly request: APIRequestContext) {}

  /** The messages sent to `to` so far, newest first. */
  async messages(to: string): Promise<OutboxMessage[]> {
    const response = await this.request.get(`/dev/outbox?to=${encodeURIComponent(to)}`, { headers: { Accept: 'application/json' } });
    expect(response.ok(), `GET /dev/outbox answered ${response.status()}`).toBe(true);
    return ((await response.json()) as { items: OutboxMessage[] }).items;
  }

  /** Waits for a message to `to` that is not among `seen` (by default: any message), and answers the newest. */
  async next(to: string, seen: readonly OutboxMessage[] = []): Promise<OutboxMessage> {
    const known = new Set(seen.map((message) => message.id));
    let found: OutboxMessage | undefined;
    await expect
      .poll(
        async () => {
          found = (await this.messages(to)).find((message) => !known.has(message.id));
          return found?.id ?? null;
        },
        { message: `a new message to ${to} in the dev outbox`, timeout: 10_000 },
      )
      .not.toBeNull();
    return found!;
  }
}

/** The 6-digit code a person reads in the message's text (and the outbox's own record of it agrees). */
export function codeIn(message: OutboxMessage): string {
  const code = /\b(\d{6})\b/.exec(message.text)?.[1];
  expect(code, `a 6-digit code in: ${message.text}`).toBeDefined();
  expect(message.code).toBe(code);
  return code!;
}
