/** The steps of a stop, in order: each waits for the one before. */
export interface StopSteps {
  /** Stop listening; resolves once the requests in flight are answered. */
  closeServer(): Promise<unknown>;
  /** Security notices go out after their sign-in's answer and need the database and the mail client. */
  noticesSent(): Promise<unknown>;
  /** The database pool and Redis. */
  closeConnections(): Promise<unknown>;
}

/**
 * Runs a stop's steps, and calls `onDeadline` with what it was still waiting for when they take
 * longer than `deadlineMs`: a client that never finishes its request, or a database that never
 * answers its goodbye, must not keep the process past its supervisor's patience (Kubernetes sends
 * SIGKILL 30 s after SIGTERM by default), and the log should say which of them it was.
 */
export async function runStop(steps: StopSteps, deadlineMs: number, onDeadline: (waitingFor: string) => void): Promise<void> {
  let waitingFor = 'requests still in flight';
  const timer = setTimeout(() => onDeadline(waitingFor), deadlineMs);
  try {
    await steps.closeServer();
    waitingFor = 'security notices still being sent';
    await steps.noticesSent();
    waitingFor = 'the database or Redis connection still closing';
    await steps.closeConnections();
  } finally {
    clearTimeout(timer);
  }
}
