import { vi } from 'vitest';

/**
 * Stops the wall clock the countdowns read (`Date`), so that a countdown shows exactly what it
 * started from however slowly the machine renders (with `shouldAdvanceTime` a busy machine let
 * "Resend code in 60s" become 59s or 58s before the assertion). Timers stay real: screens,
 * user-event and findBy/waitFor run as usual, and a countdown's 250 ms tick picks up every
 * `advanceClock`. The set-up's afterEach restores the real clock.
 */
export function freezeClock(): void {
  vi.useFakeTimers({ toFake: ['Date'] });
}

/** Moves the frozen clock on; the screen shows it at its countdown's next tick (findBy/waitFor). */
export function advanceClock(ms: number): void {
  vi.setSystemTime(Date.now() + ms);
}
