import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CodeSentResponse } from '@passgate/contract';
import { ActionButton } from '../../components/ActionButton.tsx';
import { useCountdown } from '../../hooks/use-countdown.ts';
import { RESEND_SECONDS } from './flow-state.ts';

interface Props {
  /** Sends a new code. */
  send: () => Promise<CodeSentResponse>;
  onSent: () => void;
  onError: (error: unknown) => void;
}

/**
 * 'Resend code', disabled with a countdown for 60 seconds after a send (SPEC.md section 4). The
 * screen showing it comes right after a code was sent, so the countdown starts on arrival.
 */
export function ResendButton({ send, onSent, onError }: Props) {
  const { t } = useTranslation();
  const countdown = useCountdown();
  const { start } = countdown;
  const [sending, setSending] = useState(false);
  useEffect(() => start(RESEND_SECONDS), [start]);

  const resend = async () => {
    setSending(true);
    try {
      const { resendAfter } = await send();
      start(resendAfter > 0 ? resendAfter : RESEND_SECONDS);
      onSent();
    } catch (error) {
      onError(error);
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
