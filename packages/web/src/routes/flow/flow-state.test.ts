import { describe, expect, it } from 'vitest';
import { codeSentState, stateResendSeconds } from './flow-state.ts';

describe('the resend time handed between screens', () => {
  const now = 1_800_000_000_000;

  it('is read back as the whole seconds left, rounded up', () => {
    const state = codeSentState('demo@example.com', 30, now);
    expect(state).toEqual({ username: 'demo@example.com', resendAt: now + 30_000 });
    expect(stateResendSeconds(state, now)).toBe(30);
    expect(stateResendSeconds(state, now + 10_400)).toBe(20);
    expect(stateResendSeconds(state, now + 29_999)).toBe(1);
  });

  it('is 0 once it has passed, and unknown when the state does not say', () => {
    expect(stateResendSeconds({ username: 'u', resendAt: now - 1 }, now)).toBe(0);
    expect(stateResendSeconds({ username: 'u' }, now)).toBeUndefined();
    expect(stateResendSeconds({ username: 'u', resendAt: '30' }, now)).toBeUndefined();
    expect(stateResendSeconds({ username: 'u', resendAt: Number.NaN }, now)).toBeUndefined();
    expect(stateResendSeconds(null, now)).toBeUndefined();
  });
});
