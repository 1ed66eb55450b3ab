import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useNextTask } from './use-next-task.ts';

describe('useNextTask', () => {
  afterEach(() => vi.useRealTimers());

  it('is false in the first render and true from the next task on, for good', () => {
    vi.useFakeTimers();
    const { result, rerender } = renderHook(() => useNextTask());
    expect(result.current).toBe(false);
    act(() => vi.advanceTimersByTime(0));
    expect(result.current).toBe(true);
    rerender();
    act(() => vi.advanceTimersByTime(1_000));
    expect(result.current).toBe(true);
  });

  it('leaves no timer behind when the component goes first', () => {
    vi.useFakeTimers();
    const { unmount } = renderHook(() => useNextTask());
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});
