import type { AppContext } from '../../context.ts';
import type { UserRow } from '../../db/schema.ts';
import { withTimeout } from '../../lib/with-timeout.ts';
import { scrubProviderText } from '../../lib/redact.ts';
import { withoutBudget } from '../../lib/database-budget.ts';
import type { CodeMessage } from '../../messaging/templates/templates.ts';

/**
 * Sending the security notices that carry no code (a new sign-in, a changed password): to the
 * account's verified e-mail address, else its verified phone number, in the background. A notice
 * is a courtesy after the fact: a mail server or SMS provider that fails or hangs never fails nor
 * slows what the person did, it costs a warning in the log (never the message).
 */

/** The longest a notice may take to hand to the mail server or SMS provider. */
export const NOTICE_SEND_TIMEOUT_MS = 15_000;

export type NoticeChannel = 'email' | 'sms' | 'none';

/** Where an account's notices go: its verified e-mail address, else its verified phone number. */
export function noticeChannel(user: Pick<UserRow, 'email' | 'email_verified' | 'phone_number' | 'phone_number_verified'>): NoticeChannel {
  if (user.email && user.email_verified === 1) return 'email';
  if (user.phone_number && user.phone_number_verified === 1) return 'sms';
  return 'none';
}

/** Sends `message` by the account's channel; never rejects (a failure is logged). */
export async function deliverNotice(ctx: Pick<AppContext, 'messaging' | 'log'>, user: UserRow, notice: string, message: CodeMessage): Promise<void> {
  const channel = noticeChannel(user);
  if (channel === 'none') return;
  try {
    await withTimeout(
      channel === 'email'
        ? ctx.messaging.mail.send({ to: user.email ?? '', subject: message.subject, text: message.text, html: message.html })
        : ctx.messaging.sms.send({ to: user.phone_number ?? '', text: message.sms }),
      NOTICE_SEND_TIMEOUT_MS,
    );
  } catch (error) {
    ctx.log.warn({ tenantId: user.tenant_id, userId: user.id, notice, channel, reason: scrubProviderText(error instanceof Error ? error.message : String(error)) }, `a ${notice} notice could not be sent`);
  }
}

const pendingByContext = new WeakMap<object, Set<Promise<void>>>();

/** Runs `work` without the caller waiting; a rejection is logged. `noticesIdle` waits for it. */
export function inBackground(ctx: Pick<AppContext, 'log'>, what: string, work: () => Promise<void>): void {
  let pending = pendingByContext.get(ctx);
  if (!pending) pendingByContext.set(ctx, (pending = new Set()));
  const set = pending;
  // Outside the request's time for the database: the request does not wait for it.
  const task: Promise<void> = withoutBudget(() => Promise.resolve().then(work))
    .catch((error: unknown) => ctx.log.warn({ reason: error instanceof Error ? error.message : String(error) }, `${what} failed`))
    .finally(() => set.delete(task));
  set.add(task);
}

/** Settles when every background notice started so far for `ctx` has settled (for tests and shutdown). */
export async function noticesIdle(ctx: object): Promise<void> {
  const pending = pendingByContext.get(ctx);
  while (pending && pending.size > 0) await Promise.allSettled([...pending]);
}
