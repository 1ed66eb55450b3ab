import { ErrorCode, type Locale, type UsernameKind } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../plugins/errors.ts';
import { scrubProviderText } from '../../lib/redact.ts';
import { codeMessage, type CodeMessageKind } from '../../messaging/templates/templates.ts';
import type { AuditEvent } from '../audit/audit.queries.ts';
import type { TenantRecord } from '../tenants/tenants.queries.ts';
import { CODE_TTL_MS } from './codes.service.ts';

export interface CodeDelivery {
  kind: CodeMessageKind;
  /** E-mail addresses get an e-mail, phone numbers an SMS. */
  usernameKind: UsernameKind;
  to: string;
  locale: Locale;
  tenant: TenantRecord;
  name: string | null;
  code: string;
}

export const SEND_FAILED_MESSAGE = 'We could not send the code, please try again';

export const channelOf = (kind: UsernameKind): 'email' | 'sms' => (kind === 'email' ? 'email' : 'sms');

/**
 * Sends a code by e-mail or SMS in the person's language. A sender that fails is never a silent
 * success nor a bare 500: it is logged (without the code), audited, and answered 503 with a message
 * the visitor can act on.
 */
export async function deliverCode(
  ctx: Pick<AppContext, 'messaging' | 'audit' | 'log'>,
  delivery: CodeDelivery,
  event: Omit<AuditEvent, 'type' | 'details'>,
): Promise<void> {
  const message = codeMessage({
    kind: delivery.kind,
    locale: delivery.locale,
    brand: delivery.tenant.brandName || delivery.tenant.name,
    name: delivery.name,
    code: delivery.code,
    minutes: Math.round(CODE_TTL_MS / 60_000),
  });
  const channel = channelOf(delivery.usernameKind);
  try {
    if (channel === 'email') {
      await ctx.messaging.mail.send({ to: delivery.to, subject: message.subject, text: message.text, html: message.html, code: delivery.code });
    } else {
      await ctx.messaging.sms.send({ to: delivery.to, text: message.sms, code: delivery.code });
    }
  } catch (error) {
    // Gateways echo what they refused: the number, the address, the message with the code in it.
    const reason = scrubProviderText(error instanceof Error ? error.message : String(error), [delivery.code]).slice(0, 200);
    ctx.log.warn({ tenantId: delivery.tenant.id, purpose: delivery.kind, channel, reason }, 'a one-time code could not be sent');
    // One record per failure: SMS failures are 'sms.send_failed' (the provider's error in reason), e-mail ones 'code.send_failed'.
    await ctx.audit.record({ ...event, type: channel === 'sms' ? 'sms.send_failed' : 'code.send_failed', details: { purpose: delivery.kind, channel, reason } });
    throw new ApiError(ErrorCode.DeliveryFailed, 503, undefined, SEND_FAILED_MESSAGE);
  }
}
