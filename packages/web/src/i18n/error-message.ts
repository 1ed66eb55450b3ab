import type { TFunction } from 'i18next';
import { ErrorCode } from '@passgate/contract/rules';
import { classifyError } from '../api/errors.ts';

/**
 * The text a screen shows for a failed call (SPEC.md section 8): a 4xx shows the message mapped to
 * its code (`errors.<code>`, present for every code of the contract's catalogue), else the
 * server's message; no answer shows 'Cannot connect to Server'. Null for what is not shown as a
 * message: 'pending' (silent) and 5xx (the Error screen instead).
 */
export function errorText(t: TFunction, error: unknown): string | null {
  const outcome = classifyError(error);
  switch (outcome.kind) {
    case 'message': {
      // A lock that says when it ends: 'try again in N minutes' rather than a bare 'later'.
      if (outcome.code === ErrorCode.UserBlocked && outcome.retryAfter) return t('messages.lockedFor', { count: Math.ceil(outcome.retryAfter / 60) });
      const messages: Partial<Record<string, string>> = t('errors', { returnObjects: true });
      const message = messages[outcome.code] ?? (outcome.serverMessage || t('messages.somethingWrong'));
      // Too many tries or sends, with the wait: 'try again in N minutes'.
      if (outcome.code === ErrorCode.TooManyRequests && outcome.retryAfter) return t('messages.tooManyFor', { count: Math.ceil(outcome.retryAfter / 60) });
      return message;
    }
    case 'network':
      return t('messages.cannotConnect');
    case 'silent':
    case 'server-error':
      return null;
  }
}
