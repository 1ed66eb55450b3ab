import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CodeSentResponse } from '@passgate/contract';
import { resendCooldown } from '../../api/errors.ts';
import { ActionButton } from '../../components/ActionButton.tsx';
import { useCountdown } from '../../hooks/use-countdown.ts';
import { RESEND_SECONDS } from './flow-state.ts';

interface Props {
  /** Sends a new code. */
  send: () => Promise<CodeSentResponse>;
  onSent: () => void;
  onError: (error: unknown) => void;
  /** Seconds left of the cooldown when the screen learns a code went out earlier (default 60 from arrival). */
  cooldownSeconds?: number;
}

/**
 * 'Resend code', disabled with a countdown for 60 seconds after a send (SPEC.md section 4). The
 * screen showing it comes right after a code was sent, so the countdown starts on arrival.
 */
export function ResendButton({ send, onSent, onError, cooldownSeconds = RESEND_SECONDS }: Props) {
  const { t } = useTranslation();
  const countdown = useCountdown();
  const { start } = countdown;
  const [sending, setSending] = useState(false);
  useEffect(() => {
    // A wait that is already over (a screen reloaded long after the send) leaves Resend enabled at once.
    if (cooldownSeconds > 0) start(cooldownSeconds);
  }, [start, cooldownSeconds]);

  const resend = async () => {
    setSending(true);
    try {
      const { resendAfter } = await send();
      start(resendAfter > 0 ? resendAfter : RESEND_SECONDS);
      onSent();
    } catch (error) {
      // Refused because a code went out moments ago (another tab): that code still works, so the
      // countdown of what is left says it all, as in the account area, rather than an error.
      const wait = resendCooldown(error);
      if (wait !== null) start(wait);
      else onError(error);
    } finally {
      setSending(false);
    }
  };

  return (
    <ActionButton variant="text" disabled={countdown.running || sending} onClick={() => void resend()}>
      {sending ? t('flow.sending') : countdown.running ? t('flow.resendIn', { seconds: countdown.secondsLeft }) : t('flow.resendCode')}
    </ActionButton>
  );
}
