import type { TokenType } from '@passgate/contract';

/** When a password expires: unix time (seconds) and whole days left. */
export interface PasswordWarning {
  expiresAt: number;
  daysLeft: number;
}

/** The route state the visitor screens hand each other (react-router `location.state`). */
export interface UsernameState {
  username: string;
}

/** The `username` of a route state, when it has a non-empty one. */
export function stateUsername(state: unknown): string | null {
  const username = (state as { username?: unknown } | null)?.username;
  return typeof username === 'string' && username.trim() ? username.trim() : null;
}

/** What the Login screen shows on arrival after activation or a password update. */
export type LoginNotice = 'accountActivated' | 'passwordUpdated';

export interface LoginArrivalState {
  notice: LoginNotice;
  username?: string;
}

/** Seconds a resend button stays disabled after a code was sent (SPEC.md section 9). */
export { RESEND_SECONDS } from '../../hooks/use-countdown.ts';

/** What a screen that sent a code (or learnt one went out moments ago) hands the screen where it is entered. */
export interface CodeSentState extends UsernameState {
  /**
   * When Resend may be pressed (ms since the epoch). A time rather than seconds: the next screen
   * first reads the sign-in request, and a reload of it keeps the route state, so seconds would
   * start the wait again each time.
   */
  resendAt: number;
}

export function codeSentState(username: string, cooldownSeconds: number, now = Date.now()): CodeSentState {
  return { username, resendAt: now + cooldownSeconds * 1000 };
}

/** Whole seconds until Resend may be pressed, by the route state; undefined when it does not say (the screen then waits the full minute). */
export function stateResendSeconds(state: unknown, now = Date.now()): number | undefined {
  const resendAt = (state as { resendAt?: unknown } | null)?.resendAt;
  if (typeof resendAt !== 'number' || !Number.isFinite(resendAt)) return undefined;
  return Math.max(0, Math.ceil((resendAt - now) / 1000));
}

/** What Login hands the password-expiring screen (SPEC.md section 3, password-expiry state). */
export interface PasswordExpiryState {
  mfaRequired: boolean;
  tokenType?: TokenType;
  mfaToken?: string;
  /** false: the 2-step screen offers no 'Remember this browser' for this account. */
  rememberBrowser?: false;
  redirectTo?: string;
  username: string;
  passwordWarning?: PasswordWarning;
}

/** The 2-step screen's state (SPEC.md section 2, /login/mfa). */
export interface MfaState {
  tokenType: TokenType;
  mfaToken: string;
  /** false: the server never remembers this account's browser (an administrator's), so the box is not offered. */
  rememberBrowser?: false;
  username: string;
  challenge: string;
}

const optionalString = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

/** The password-expiry state of a route, or null when it has none (the screen then returns to Login). */
export function readPasswordExpiryState(state: unknown): PasswordExpiryState | null {
  if (typeof state !== 'object' || state === null) return null;
  const record = state as Record<string, unknown>;
  const username = stateUsername(state);
  if (!username) return null;
  const tokenType = record.tokenType === 'totp' || record.tokenType === 'sms' || record.tokenType === 'email' ? record.tokenType : undefined;
  const warning = record.passwordWarning as Partial<PasswordWarning> | undefined;
  const passwordWarning =
    typeof warning?.expiresAt === 'number' && typeof warning.daysLeft === 'number' ? { expiresAt: warning.expiresAt, daysLeft: warning.daysLeft } : undefined;
  return {
    mfaRequired: record.mfaRequired === true,
    tokenType,
    mfaToken: optionalString(record.mfaToken),
    ...(record.rememberBrowser === false ? { rememberBrowser: false as const } : {}),
    redirectTo: optionalString(record.redirectTo),
    username,
    passwordWarning,
  };
}
