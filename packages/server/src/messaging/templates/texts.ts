/** The words of the code messages in one language; `templates.ts` lays them out as e-mail (text and HTML) and SMS. */
export interface CodeMessageTexts {
  subject(brand: string): string;
  /** The heading of the HTML e-mail. */
  heading: string;
  greeting(name: string | null): string;
  /** The sentence before the code. */
  intro(brand: string): string;
  /** Validity and single use. */
  validity(minutes: number): string;
  /** Never share the code. */
  warning(brand: string): string;
  /** What to do when the reader did not ask for it. */
  notYou: string;
  signature(brand: string): string;
  sms(brand: string, code: string, minutes: number): string;
}

export type CodeMessageKind = 'activation' | 'recovery' | 'email_change' | 'phone_change' | 'passwordless' | 'mfa' | 'mfa_setup' | 'webauthn_activation' | 'webauthn_deletion' | 'social_link' | 'account_deletion';

export type CodeMessageCatalogue = Record<CodeMessageKind, CodeMessageTexts>;

/** The words of the notice sent to the old address or number after an e-mail or phone change (it never carries a code). */
export interface ChangeNoticeTexts {
  subject(brand: string): string;
  heading: string;
  greeting(name: string | null): string;
  /** What changed. */
  body(brand: string): string;
  /** What to do when the reader did not make the change. */
  notYou(brand: string): string;
  signature(brand: string): string;
  sms(brand: string): string;
}

export type ChangeNoticeKind = 'email_changed' | 'phone_changed';

export type ChangeNoticeCatalogue = Record<ChangeNoticeKind, ChangeNoticeTexts>;
