import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runStop } from './graceful-stop.ts';

const never = () => new Promise<never>(() => undefined);
const done = () => Promise.resolve();

describe('runStop', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('says which step was still waiting at the deadline: requests, notices or the connections', async () => {
    for (const [steps, expected] of [
      [{ closeServer: never, noticesSent: done, closeConnections: done }, 'requests still in flight'],
      [{ closeServer: done, noticesSent: never, closeConnections: done }, 'security notices still being sent'],
      // A silent database answers no goodbye: the stop is not reported as requests in flight.
      [{ closeServer: done, noticesSent: done, closeConnections: never }, 'the database or Redis connection still closing'],
    ] as const) {
      const onDeadline = vi.fn();
      void runStop(steps, 12_000, onDeadline);
      await vi.advanceTimersByTimeAsync(11_999);
      expect(onDeadline).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(onDeadline).toHaveBeenCalledWith(expected);
    }
  });

  it('runs the steps in order and never calls the deadline once they are done', async () => {
    const order: string[] = [];
    const onDeadline = vi.fn();
    const step = (name: string) => async () => {
      order.push(name);
    };
    await runStop({ closeServer: step('server'), noticesSent: step('notices'), closeConnections: step('connections') }, 10_000, onDeadline);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(order).toEqual(['server', 'notices', 'connections']);
    expect(onDeadline).not.toHaveBeenCalled();
  });
});
