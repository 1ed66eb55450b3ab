/** What the server sends people, and the interface every way of sending it implements. */
export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The one-time code the message carries, when it carries one (shown by the dev outbox only). */
  code?: string;
}

export interface OutgoingSms {
  to: string;
  text: string;
  code?: string;
}

export interface MailSender {
  send(message: OutgoingEmail): Promise<void>;
}

export interface SmsSender {
  send(message: OutgoingSms): Promise<void>;
}
