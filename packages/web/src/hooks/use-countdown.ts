import { useCallback, useEffect, useRef, useState } from 'react';

const TICK_MS = 250;

/** Seconds a resend button stays disabled after a code was sent (SPEC.md section 9). */
export const RESEND_SECONDS = 60;

export interface Countdown {
  /** Whole seconds left (rounded up); 0 when not running. */
  secondsLeft: number;
  running: boolean;
  /** Starts (or restarts) the countdown from `seconds`. */
  start: (seconds: number) => void;
  stop: () => void;
}

/**
 * The one countdown of the app (SPEC.md section 9): 60 s resend cooldowns, the 300 s device-login
 * wait, the 5 s redirect. It follows the wall clock, so a throttled background tab stays accurate.
 */
export function useCountdown(options: { onExpire?: () => void } = {}): Countdown {
  const [endsAt, setEndsAt] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const onExpire = useRef(options.onExpire);
  useEffect(() => {
    onExpire.current = options.onExpire;
  }, [options.onExpire]);

  useEffect(() => {
    if (endsAt === null) return;
    const timer = setInterval(() => {
      const time = Date.now();
      setNow(time);
      if (time >= endsAt) {
        clearInterval(timer);
        setEndsAt(null);
        onExpire.current?.();
      }
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [endsAt]);

  const start = useCallback((seconds: number) => {
    const time = Date.now();
    setNow(time);
    setEndsAt(time + Math.max(0, seconds) * 1000);
  }, []);
  const stop = useCallback(() => setEndsAt(null), []);

  const secondsLeft = endsAt === null ? 0 : Math.max(0, Math.ceil((endsAt - now) / 1000));
  return { secondsLeft, running: endsAt !== null, start, stop };
}

/** 75 → "1:15"; for the device-login wait. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
