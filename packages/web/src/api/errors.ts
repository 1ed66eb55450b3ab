import { ErrorCode } from '@passgate/contract/rules';
import { RESEND_SECONDS } from '../hooks/use-countdown.ts';

/** An answer of the API carrying the error envelope `{"error":{"code","message","field"}}`. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly field?: string,
    /** Seconds until trying again may succeed (a locked account's remaining lock). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/** The request never got an answer (server down, network lost). */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
}

/** What a screen does with a failed call (SPEC.md section 8). */
export type ErrorOutcome =
  /** A 4xx: show the message mapped to its code, or the server's own message. */
  | { kind: 'message'; code: number; serverMessage: string; retryAfter?: number }
  /** No answer: 'Cannot connect to Server'. */
  | { kind: 'network' }
  /** A 5xx (except the retryable 503s: 1292, 1293, 1294): go to the Error screen with state 500. */
  | { kind: 'server-error' }
  /** 'Pending': passed over silently. */
  | { kind: 'silent' };

export function classifyError(error: unknown): ErrorOutcome {
  if (error instanceof NetworkError) return { kind: 'network' };
  if (error instanceof ApiError) {
    if (error.code === ErrorCode.Pending) return { kind: 'silent' };
    // A failed e-mail or SMS, an unreachable Google or Facebook, or a database or Redis that is
    // briefly away is a 503 the user can act on (try again): said where the user is, since the
    // Error screen would lose what they typed for a fault that usually lasts seconds.
    const retryable =
      error.code === ErrorCode.DeliveryFailed || error.code === ErrorCode.ProviderUnavailable || error.code === ErrorCode.ServiceUnavailable;
    if (error.status >= 500 && !retryable) return { kind: 'server-error' };
    return { kind: 'message', code: error.code, serverMessage: error.message, ...(error.retryAfter ? { retryAfter: error.retryAfter } : {}) };
  }
  return { kind: 'server-error' };
}

/** The sign-in request behind a screen has finished or expired (or was never this browser's): 1026 on its challenge. */
export function isRequestGone(error: unknown): boolean {
  return error instanceof ApiError && error.code === ErrorCode.RequestExpired && error.field === 'challenge';
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

/**
 * Seconds until another code may be asked for, when a send was refused because one went out less
 * than 60 s ago (1291): that code is still good, so screens show its field and count down instead
 * of an error. Null for any other failure.
 */
export function resendCooldown(error: unknown): number | null {
  if (!(error instanceof ApiError) || error.code !== ErrorCode.ResendTooSoon) return null;
  return error.retryAfter ?? RESEND_SECONDS;
}
