import { snakeKeys } from '@passgate/contract/rules';
import { currentLanguage } from '../i18n/i18n.ts';
import { ApiError, NetworkError } from './errors.ts';

export interface RequestOptions {
  /** Bearer access token of the account area. */
  token?: string;
  signal?: AbortSignal;
}

type Body = Record<string, unknown>;

let baseUrl = '/api';

/** Points the client at the API URL of the runtime configuration. */
export function setApiBaseUrl(url: string): void {
  baseUrl = url.replace(/\/+$/, '');
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Retry-After in seconds (a proxy or a limiter may say the wait only there); a date form is ignored. */
function retryAfterHeader(response: Response): number | undefined {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isInteger(seconds) && seconds > 0 ? seconds : undefined;
}

function readEnvelope(data: unknown): { code: number; message: string; field?: string; retryAfter?: number } | null {
  if (typeof data !== 'object' || data === null || !('error' in data)) return null;
  const error = (data as { error: unknown }).error;
  if (typeof error !== 'object' || error === null) return null;
  const { code, message, field, retryAfter } = error as Record<string, unknown>;
  if (typeof code !== 'number') return null;
  return {
    code,
    message: typeof message === 'string' ? message : '',
    field: typeof field === 'string' ? field : undefined,
    retryAfter: typeof retryAfter === 'number' && retryAfter > 0 ? retryAfter : undefined,
  };
}

async function request<T>(method: string, path: string, body: Body | undefined, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': currentLanguage() };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.token) headers.Authorization = `Bearer ${options.token}`;

  let response: Response;
  try {
    response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      // Request bodies travel in snake_case (DESIGN.md section 6); responses come back in camelCase.
      body: body === undefined ? undefined : JSON.stringify(snakeKeys(body)),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new NetworkError('Cannot connect to Server', { cause: error });
  }

  const data = parseJson(await response.text().catch(() => ''));
  if (!response.ok) {
    const envelope = readEnvelope(data);
    const fallbackCode = response.status >= 500 ? 1500 : 1000;
    throw new ApiError(response.status, envelope?.code ?? fallbackCode, envelope?.message || response.statusText, envelope?.field, envelope?.retryAfter ?? retryAfterHeader(response));
  }
  return data as T;
}

/** The one API client of the app: `path` is relative to the API URL, e.g. `/v1/users/login`. */
export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body: Body, options?: RequestOptions) => request<T>('POST', path, body, options),
  patch: <T>(path: string, body: Body, options?: RequestOptions) => request<T>('PATCH', path, body, options),
  delete: <T>(path: string, options?: RequestOptions, body?: Body) => request<T>('DELETE', path, body, options),
};
