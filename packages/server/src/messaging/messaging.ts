import { lazy } from '../lib/lazy.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { createDevOutbox, type DevOutbox } from './dev-outbox.ts';
import type { MailSender, SmsSender } from './messages.ts';
import { esmsSmsSender } from './sms/esms.ts';
import { twilioSmsSender } from './sms/twilio.ts';

/** How the server reaches people: e-mail, SMS, and (development only) the outbox that stands in for both. */
export interface Messaging {
  mail: MailSender;
  sms: SmsSender;
  /** Present in development mode only. */
  outbox: DevOutbox | undefined;
}

/**
 * Mail goes through SMTP when SMTP_URL is set, else (development only) to the dev outbox.
 * SMS goes through the provider SMS_PROVIDER names (twilio, esms), else (development only) to the dev outbox.
 * Message bodies and codes are never logged.
 */
export function createMessaging(config: Config, db: Db): Messaging {
  const outbox = config.devTools ? createDevOutbox(db) : undefined;
  return {
    mail: config.smtpUrl ? smtpMailSender(config.smtpUrl, config.mailFrom) : outbox ? outboxMailSender(outbox) : unavailableMailSender(),
    sms: smsSender(config, outbox),
    outbox,
  };
}

function smsSender(config: Config, outbox: DevOutbox | undefined): SmsSender {
  if (config.smsProvider === 'twilio' && config.sms.twilio) return twilioSmsSender(config.sms.twilio);
  if (config.smsProvider === 'esms' && config.sms.esms) return esmsSmsSender(config.sms.esms);
  return outbox ? outboxSmsSender(outbox) : unavailableSmsSender(config.smsProvider);
}

/**
 * How long connecting (DNS included), the server's greeting, and any silence within a session may
 * each last. Nodemailer's own defaults (2 minutes, 30 s, 10 minutes) would hold a sign-in request
 * for minutes on a mail server that accepts the connection and then says nothing.
 */
export const SMTP_TIMEOUT_MS = 10_000;

export function smtpMailSender(smtpUrl: string, from: string, timeoutMs = SMTP_TIMEOUT_MS): MailSender {
  // Nodemailer logs nothing unless asked (logger/debug options): message contents stay out of the logs.
  // Loaded with the first message: most requests send none.
  const transport = lazy(async () =>
    (await import('nodemailer')).default.createTransport(
      { url: smtpUrl, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs, dnsTimeout: timeoutMs },
      { from },
    ),
  );
  return {
    async send(message) {
      await (await transport()).sendMail({
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
      });
    },
  };
}

export function outboxMailSender(outbox: DevOutbox): MailSender {
  return {
    async send(message) {
      await outbox.add({ channel: 'email', recipient: message.to, subject: message.subject, text: message.text, html: message.html, code: message.code });
    },
  };
}

export function outboxSmsSender(outbox: DevOutbox): SmsSender {
  return {
    async send(message) {
      await outbox.add({ channel: 'sms', recipient: message.to, text: message.text, code: message.code });
    },
  };
}

function unavailableMailSender(): MailSender {
  return {
    async send() {
      throw new Error('E-mail cannot be sent: SMTP_URL is not configured (the dev outbox exists in development mode only).');
    },
  };
}

function unavailableSmsSender(provider: Config['smsProvider']): SmsSender {
  return {
    async send() {
      throw new Error(
        provider === 'outbox'
          ? 'SMS cannot be sent: SMS_PROVIDER=outbox works in development mode only.'
          : `SMS cannot be sent: SMS_PROVIDER=${provider} has no settings.`,
      );
    },
  };
}
