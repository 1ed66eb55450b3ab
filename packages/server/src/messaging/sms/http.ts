/** Every provider call gives up after this long: a stuck gateway is a failed send, not a hung request. */
export const SMS_TIMEOUT_MS = 10_000;

/** A send the provider refused or that never reached it. The message never includes the SMS text or credentials. */
export class SmsSendError extends Error {
  constructor(
    readonly provider: string,
    message: string,
  ) {
    super(`${provider}: ${message}`);
    this.name = 'SmsSendError';
  }
}

/** fetch with the SMS timeout; network failures and timeouts become SmsSendError (without the request). */
export async function postWithTimeout(provider: string, url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, method: 'POST', signal: AbortSignal.timeout(SMS_TIMEOUT_MS) });
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'TimeoutError' || name === 'AbortError') throw new SmsSendError(provider, `no answer within ${SMS_TIMEOUT_MS / 1000} s`);
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
    throw new SmsSendError(provider, `request failed (${cause})`);
  }
}

/** The body as JSON, or undefined when it is not JSON. */
export async function readJson(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A short, printable piece of what the provider said (its own error text), never more than 200 characters. */
export const clip = (value: unknown): string => String(value ?? '').replace(/\s+/g, ' ').slice(0, 200);
