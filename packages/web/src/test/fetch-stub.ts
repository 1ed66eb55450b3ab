import { vi } from 'vitest';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
}

type Answer = Response | 'network-error';
type Handler = Answer | ((request: RecordedRequest) => Answer | Promise<Answer>);

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
}

export function apiError(status: number, code: number, message: string, field?: string): Response {
  return json(status, { error: { code, message, ...(field ? { field } : {}) } });
}

/**
 * Stubs `fetch`, the network boundary, with answers keyed by "METHOD /path" (no query). Every
 * request is recorded; one with no answer gets the server's 404 envelope.
 */
export function stubFetch(routes: Record<string, Handler>): RecordedRequest[] {
  const requests: RecordedRequest[] = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost:3000');
    const method = (init.method ?? 'GET').toUpperCase();
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const request: RecordedRequest = { method, path: url.pathname, headers: new Headers(init.headers), body };
    requests.push(request);
    const handler = routes[`${method} ${url.pathname}`];
    const answer = handler === undefined ? apiError(404, 1404, `Not found: ${method} ${url.pathname}`) : typeof handler === 'function' ? await handler(request) : handler;
    if (answer === 'network-error') throw new TypeError('Failed to fetch');
    // A Response body can be read once: hand out a copy each time.
    return answer.clone();
  });
  vi.stubGlobal('fetch', fetchStub);
  return requests;
}
