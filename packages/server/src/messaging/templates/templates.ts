import { DEFAULT_LOCALE, LOCALES, type Locale } from '@passgate/contract';
import { escapeHtml } from '../../lib/html.ts';
import { en, enNotices } from './en.ts';
import { vi, viNotices } from './vi.ts';
import type { ChangeNoticeCatalogue, ChangeNoticeKind, CodeMessageCatalogue, CodeMessageKind } from './texts.ts';

export type { ChangeNoticeKind, CodeMessageKind } from './texts.ts';

const catalogues: Record<Locale, CodeMessageCatalogue> = { vi, en };
const noticeCatalogues: Record<Locale, ChangeNoticeCatalogue> = { vi: viNotices, en: enNotices };

export interface CodeMessageInput {
  kind: CodeMessageKind;
  locale: Locale;
  /** The tenant's brand name (its name when it has none). */
  brand: string;
  /** The person's name, when known. */
  name: string | null;
  code: string;
  /** How long the code stays valid. */
  minutes: number;
}

export interface CodeMessage {
  subject: string;
  text: string;
  html: string;
  sms: string;
}

/** The language of a message: the person's stored choice, else the language of the request. */
export function messageLocale(stored: string | null | undefined, requested: Locale): Locale {
  return (LOCALES as readonly string[]).includes(stored ?? '') ? (stored as Locale) : requested;
}

/** The first language of an Accept-Language header when it is one we speak (vi, en), else vi. */
export function localeFromAcceptLanguage(header: string | undefined): Locale {
  const first = header?.split(',')[0]?.split(';')[0]?.trim().toLowerCase().split('-')[0] ?? '';
  return (LOCALES as readonly string[]).includes(first) ? (first as Locale) : DEFAULT_LOCALE;
}


export const paragraph = (text: string) => `<p style="margin:0 0 16px;font-size:15px;line-height:1.5;color:#333333;">${escapeHtml(text).replace(/\n/g, '<br>')}</p>`;

/** The branded frame of every e-mail: the tenant's brand above a heading, then `body` (HTML). */
export function brandedHtml(locale: Locale, title: string, brand: string, heading: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:0;background-color:#f4f5f7;font-family:Arial,Helvetica,sans-serif;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background-color:#f4f5f7;padding:24px 0;"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:520px;background-color:#ffffff;border-radius:8px;padding:32px;">
<tr><td>
<p style="margin:0 0 8px;font-size:13px;color:#777777;text-transform:uppercase;letter-spacing:1px;">${escapeHtml(brand)}</p>
<h1 style="margin:0 0 24px;font-size:22px;color:#111111;">${escapeHtml(heading)}</h1>
${body}
</td></tr></table>
</td></tr></table>
</body></html>
`;
}

/** A one-time code (activation, recovery, e-mail or phone change) as e-mail (subject, plain text, HTML) and as SMS, in the person's language, branded by the tenant. */
export function codeMessage(input: CodeMessageInput): CodeMessage {
  const t = catalogues[input.locale][input.kind];
  const { brand, code, minutes } = input;
  const text = [t.greeting(input.name), '', t.intro(brand), '', `    ${code}`, '', t.validity(minutes), t.warning(brand), '', t.notYou, '', t.signature(brand), ''].join('\n');
  const html = brandedHtml(
    input.locale,
    t.subject(brand),
    brand,
    t.heading,
    `${paragraph(t.greeting(input.name))}
${paragraph(t.intro(brand))}
<p style="margin:0 0 24px;text-align:center;"><span style="display:inline-block;padding:12px 24px;font-size:32px;font-weight:bold;letter-spacing:8px;color:#111111;background-color:#f0f2f5;border-radius:6px;font-family:'Courier New',Courier,monospace;">${escapeHtml(code)}</span></p>
${paragraph(`${t.validity(minutes)} ${t.warning(brand)}`)}
${paragraph(t.notYou)}
${paragraph(t.signature(brand))}`,
  );
  return { subject: t.subject(brand), text, html, sms: t.sms(brand, code, minutes) };
}

export interface ChangeNoticeInput {
  kind: ChangeNoticeKind;
  locale: Locale;
  brand: string;
  name: string | null;
}

/** The notice to the old address or number that the account's e-mail or phone was changed; it carries no code and not the new value. */
export function changeNotice(input: ChangeNoticeInput): CodeMessage {
  const t = noticeCatalogues[input.locale][input.kind];
  const { brand } = input;
  const text = [t.greeting(input.name), '', t.body(brand), '', t.notYou(brand), '', t.signature(brand), ''].join('\n');
  const html = brandedHtml(
    input.locale,
    t.subject(brand),
    brand,
    t.heading,
    [t.greeting(input.name), t.body(brand), t.notYou(brand), t.signature(brand)].map(paragraph).join('\n'),
  );
  return { subject: t.subject(brand), text, html, sms: t.sms(brand) };
}
