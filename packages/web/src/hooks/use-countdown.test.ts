import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { formatCountdown, useCountdown } from './use-countdown.ts';

describe('useCountdown', () => {
  it('counts whole seconds down to zero, then stops and reports the expiry', () => {
    vi.useFakeTimers();
    const onExpire = vi.fn();
    const { result } = renderHook(() => useCountdown({ onExpire }));
    expect(result.current).toMatchObject({ secondsLeft: 0, running: false });

    act(() => result.current.start(60));
    expect(result.current).toMatchObject({ secondsLeft: 60, running: true });

    act(() => vi.advanceTimersByTime(1_000));
    expect(result.current.secondsLeft).toBe(59);

    act(() => vi.advanceTimersByTime(58_000));
    expect(result.current.secondsLeft).toBe(1);
    expect(onExpire).not.toHaveBeenCalled();

    act(() => vi.advanceTimersByTime(1_000));
    expect(result.current).toMatchObject({ secondsLeft: 0, running: false });
    expect(onExpire).toHaveBeenCalledTimes(1);

    act(() => vi.advanceTimersByTime(5_000));
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it('restarts from the new duration and can be stopped', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useCountdown());
    act(() => result.current.start(300));
    act(() => vi.advanceTimersByTime(100_000));
    expect(result.current.secondsLeft).toBe(200);

    act(() => result.current.start(5));
    expect(result.current.secondsLeft).toBe(5);

    act(() => result.current.stop());
    expect(result.current).toMatchObject({ secondsLeft: 0, running: false });
  });

  it('follows the wall clock, so a throttled tab stays accurate', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useCountdown());
    act(() => result.current.start(60));
    // The clock jumps 30 s while no timer fired (a background tab), then one tick arrives.
    act(() => {
      vi.setSystemTime(Date.now() + 30_000);
      vi.advanceTimersByTime(250);
    });
    expect(result.current.secondsLeft).toBe(30);
  });
});

describe('formatCountdown', () => {
  it('shows minutes and seconds', () => {
    expect(formatCountdown(300)).toBe('5:00');
    expect(formatCountdown(75)).toBe('1:15');
    expect(formatCountdown(9)).toBe('0:09');
    expect(formatCountdown(-3)).toBe('0:00');
  });
});
