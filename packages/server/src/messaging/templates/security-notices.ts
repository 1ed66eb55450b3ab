import type { Locale } from '@passgate/contract';
import { brandedHtml, paragraph, type CodeMessage } from './templates.ts';

/**
 * The security notices that carry no code: a sign-in from a browser the account had not used
 * (features/known-browsers) and a password changed from the account area (features/account). Each
 * as e-mail (subject, text, HTML) and SMS, in the person's language. They never carry a secret: no
 * code, no password, no token, only what a person needs to recognise the event and where to act.
 */

/**
 * Times in notices: a Vietnamese reader gets Vietnam's own time, labelled as such (the product's
 * users are in Vietnam, and 'GMT+7' removes any doubt for a reader abroad); an English reader may
 * be anywhere, so gets UTC, labelled, rather than a zone the server would have to guess.
 */
const TIME_ZONES: Record<Locale, { zone: string; label: string }> = {
  vi: { zone: 'Asia/Ho_Chi_Minh', label: 'giờ Việt Nam, GMT+7' },
  en: { zone: 'UTC', label: 'UTC' },
};

/**
 * One formatter per language, built once: building an Intl.DateTimeFormat with a time zone costs
 * eight times the formatting itself, and a notice goes out on every sign-in from a new browser.
 */
const formatters = Object.fromEntries(
  Object.entries(TIME_ZONES).map(([locale, { zone }]) => [
    locale,
    new Intl.DateTimeFormat('en-GB', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
  ]),
) as Record<Locale, Intl.DateTimeFormat>;

const EN_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** '14:05 ngày 03/12/2026 (giờ Việt Nam, GMT+7)' or '3 December 2026, 07:05 (UTC)'. */
export function noticeTime(at: number, locale: Locale): string {
  const { label } = TIME_ZONES[locale];
  const parts = Object.fromEntries(
    formatters[locale]
      .formatToParts(new Date(at))
      .map((p) => [p.type, p.value]),
  ) as Record<'year' | 'month' | 'day' | 'hour' | 'minute', string>;
  const time = `${parts.hour}:${parts.minute}`;
  if (locale === 'vi') return `${time} ngày ${parts.day}/${parts.month}/${parts.year} (${label})`;
  return `${Number(parts.day)} ${EN_MONTHS[Number(parts.month) - 1]} ${parts.year}, ${time} (${label})`;
}

export interface NewSignInNoticeInput {
  locale: Locale;
  brand: string;
  name: string | null;
  at: number;
  /** The application signed in to (the client's name). */
  application: string;
  /** 'Chrome 131', '' when the User-Agent said nothing recognisable. */
  browser: string;
  os: string;
  ip: string;
  /** `${PUBLIC_URL}/user/security`. */
  securityUrl: string;
}

interface NewSignInTexts {
  subject(brand: string): string;
  heading: string;
  greeting(name: string | null): string;
  intro(brand: string): string;
  labels: { time: string; application: string; browser: string; ip: string };
  unknownBrowser: string;
  ifYou: string;
  notYou(url: string): string;
  signature(brand: string): string;
  sms(i: { brand: string; application: string; browser: string; ip: string; time: string; url: string }): string;
}

const viSignature = (brand: string) => `Trân trọng,\nĐội ngũ ${brand}`;
const enSignature = (brand: string) => `Best regards,\nThe ${brand} team`;

const NEW_SIGN_IN: Record<Locale, NewSignInTexts> = {
  vi: {
    subject: (brand) => `[${brand}] Đăng nhập mới vào tài khoản của bạn`,
    heading: 'Đăng nhập từ một trình duyệt mới',
    greeting: (name) => (name ? `Xin chào ${name},` : 'Xin chào,'),
    intro: (brand) => `Tài khoản ${brand} của bạn vừa được đăng nhập từ một trình duyệt chưa từng được dùng trước đây.`,
    labels: { time: 'Thời gian', application: 'Ứng dụng', browser: 'Trình duyệt', ip: 'Địa chỉ IP' },
    unknownBrowser: 'không xác định',
    ifYou: 'Nếu đó là bạn, bạn không cần làm gì thêm.',
    notYou: (url) => `Nếu đó không phải là bạn, hãy đổi mật khẩu ngay và kiểm tra lại cài đặt bảo mật tại: ${url}`,
    signature: viSignature,
    sms: (i) => `${i.brand}: Tài khoản của bạn vừa đăng nhập vào ${i.application} từ trình duyệt mới (${i.browser}, IP ${i.ip}) lúc ${i.time}. Nếu không phải bạn, hãy đổi mật khẩu ngay: ${i.url}`,
  },
  en: {
    subject: (brand) => `[${brand}] New sign-in to your account`,
    heading: 'New sign-in from a new browser',
    greeting: (name) => (name ? `Hello ${name},` : 'Hello,'),
    intro: (brand) => `Your ${brand} account was just signed in to from a browser it has not used before.`,
    labels: { time: 'Time', application: 'Application', browser: 'Browser', ip: 'IP address' },
    unknownBrowser: 'unknown',
    ifYou: 'If this was you, there is nothing more to do.',
    notYou: (url) => `If this wasn't you, change your password now and review your security settings: ${url}`,
    signature: enSignature,
    sms: (i) => `${i.brand}: new sign-in to ${i.application} from a new browser (${i.browser}, IP ${i.ip}) at ${i.time}. If this wasn't you, change your password now: ${i.url}`,
  },
};

/** 'Chrome 131 · Windows 10', or the locale's 'unknown' when the User-Agent said nothing recognisable. */
export function browserLine(browser: string, os: string, locale: Locale): string {
  return [browser, os].filter(Boolean).join(' · ') || NEW_SIGN_IN[locale].unknownBrowser;
}

export function newSignInNotice(input: NewSignInNoticeInput): CodeMessage {
  const t = NEW_SIGN_IN[input.locale];
  const time = noticeTime(input.at, input.locale);
  const browser = browserLine(input.browser, input.os, input.locale);
  const details = [
    `${t.labels.time}: ${time}`,
    `${t.labels.application}: ${input.application}`,
    `${t.labels.browser}: ${browser}`,
    `${t.labels.ip}: ${input.ip}`,
  ];
  const blocks = [t.greeting(input.name), t.intro(input.brand), details.join('\n'), t.ifYou, t.notYou(input.securityUrl), t.signature(input.brand)];
  return {
    subject: t.subject(input.brand),
    text: `${blocks.join('\n\n')}\n`,
    html: brandedHtml(input.locale, t.subject(input.brand), input.brand, t.heading, blocks.map(paragraph).join('\n')),
    sms: t.sms({ brand: input.brand, application: input.application, browser, ip: input.ip, time, url: input.securityUrl }),
  };
}

export interface PasswordChangedNoticeInput {
  locale: Locale;
  brand: string;
  name: string | null;
  at: number;
}

interface PasswordChangedTexts {
  subject(brand: string): string;
  heading: string;
  greeting(name: string | null): string;
  body(brand: string, time: string): string;
  notYou(brand: string): string;
  signature(brand: string): string;
  sms(brand: string, time: string): string;
}

const PASSWORD_CHANGED: Record<Locale, PasswordChangedTexts> = {
  vi: {
    subject: (brand) => `[${brand}] Mật khẩu của bạn đã được thay đổi`,
    heading: 'Mật khẩu đã được thay đổi',
    greeting: (name) => (name ? `Xin chào ${name},` : 'Xin chào,'),
    body: (brand, time) => `Mật khẩu tài khoản ${brand} của bạn vừa được thay đổi lúc ${time}. Các phiên đăng nhập khác của bạn đã được đăng xuất.`,
    notYou: (brand) => `Nếu bạn không thực hiện thay đổi này, hãy đặt lại mật khẩu ngay bằng chức năng "Quên mật khẩu" ở màn hình đăng nhập và liên hệ bộ phận hỗ trợ của ${brand}.`,
    signature: viSignature,
    sms: (brand, time) => `${brand}: Mật khẩu tài khoản của bạn đã được thay đổi lúc ${time}. Nếu không phải bạn, hãy đặt lại mật khẩu ngay bằng "Quên mật khẩu".`,
  },
  en: {
    subject: (brand) => `[${brand}] Your password was changed`,
    heading: 'Your password was changed',
    greeting: (name) => (name ? `Hello ${name},` : 'Hello,'),
    body: (brand, time) => `The password of your ${brand} account was changed on ${time}. Your other signed-in sessions were signed out.`,
    notYou: (brand) => `If you did not make this change, reset your password at once with "Forgot password" on the sign-in screen and contact ${brand} support.`,
    signature: enSignature,
    sms: (brand, time) => `${brand}: the password of your account was changed on ${time}. If this wasn't you, reset it at once with "Forgot password".`,
  },
};

export function passwordChangedNotice(input: PasswordChangedNoticeInput): CodeMessage {
  const t = PASSWORD_CHANGED[input.locale];
  const time = noticeTime(input.at, input.locale);
  const blocks = [t.greeting(input.name), t.body(input.brand, time), t.notYou(input.brand), t.signature(input.brand)];
  return {
    subject: t.subject(input.brand),
    text: `${blocks.join('\n\n')}\n`,
    html: brandedHtml(input.locale, t.subject(input.brand), input.brand, t.heading, blocks.map(paragraph).join('\n')),
    sms: t.sms(input.brand, time),
  };
}
