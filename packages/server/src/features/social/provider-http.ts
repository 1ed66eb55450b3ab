import { ErrorCode, EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, type SocialAuthorizer } from '@passgate/contract';
import { ApiError } from '../../plugins/errors.ts';

/** What a provider tells about the person behind a checked access token. */
export interface SocialProfile {
  provider: SocialAuthorizer;
  /** The provider's id of the person (Google's sub, Facebook's user id). */
  subject: string;
  /** Lower case, null when the provider gave none (or nothing that looks like an address). */
  email: string | null;
  /** Whether the provider vouches for the address (Google's email_verified; Facebook's always count). */
  emailVerified: boolean;
  name: string | null;
  /** The URL of the user's profile picture (Google's picture, Facebook's picture.data.url), null for none or a silhouette. */
  picture: string | null;
}

export interface ProviderDeps {
  baseUrl: string;
  log: { warn(obj: object, msg: string): void };
}

/** Each call to a provider gives up after 5 s: the sign-in answers 503 rather than hang. */
export const PROVIDER_TIMEOUT_MS = 5_000;

/** 401/1063: the token is not valid, not for this app, or expired. */
export const tokenRejected = (): ApiError => new ApiError(ErrorCode.AccessTokenInvalid, 401, 'access_token');

/**
 * An OAuth access token is printable ASCII (1*VSCHAR, RFC 6749 appendix A.12). Anything else (a
 * lone surrogate, on which encodeURIComponent throws; characters no header can carry) is no token
 * of Google's or Facebook's: it is rejected as such before either is asked.
 */
export function assertTokenSyntax(accessToken: string): void {
  if (!/^[\x20-\x7e]+$/.test(accessToken)) throw tokenRejected();
}

/** 503/1293: the provider cannot be reached or failed; the user may try again. */
export const providerUnavailable = (): ApiError => new ApiError(ErrorCode.ProviderUnavailable, 503);

export interface ProviderAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * GETs a provider's JSON. Network errors, timeouts, 5xx and unreadable successful answers throw
 * 503/1293; a 4xx is handed back for the caller to judge. The URL and headers carry the access
 * token, so neither is ever logged: only the provider, the endpoint's name and the reason.
 */
export async function providerGet(deps: ProviderDeps, provider: SocialAuthorizer, endpoint: string, url: string, headers: Record<string, string> = {}): Promise<ProviderAnswer> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json', ...headers }, redirect: 'error', signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch (error) {
    deps.log.warn({ provider, endpoint, reason: failureReason(error) }, 'the sign-in provider cannot be reached');
    throw providerUnavailable();
  }
  if (response.status >= 500) {
    await response.body?.cancel().catch(() => undefined);
    deps.log.warn({ provider, endpoint, status: response.status }, 'the sign-in provider failed');
    throw providerUnavailable();
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    if (response.status >= 400) return { status: response.status, body: {} };
    deps.log.warn({ provider, endpoint, status: response.status, reason: failureReason(error) }, 'the sign-in provider answered something that is not JSON');
    throw providerUnavailable();
  }
  return { status: response.status, body: body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {} };
}

/** The error's name and system code (ECONNREFUSED, TimeoutError…): never its message, which could quote the URL. */
export function failureReason(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown';
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' ? `${error.name}: ${cause.code}` : error.name;
}

/** A provider's value as text (ids may come as numbers), or null. */
export function text(value: unknown): string | null {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/**
 * A provider's e-mail address, lower case, or null when it is missing or does not look like one.
 * Looser than the sign-up rule (SPEC.md section 5): the provider vouches for addresses such as
 * ann+shop@gmail.com, which the sign-up form would refuse.
 */
export function emailOf(value: unknown): string | null {
  const email = text(value)?.toLowerCase() ?? null;
  return email && email.length <= EMAIL_MAX_LENGTH && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? email : null;
}

export function nameOf(value: unknown): string | null {
  return text(value)?.slice(0, NAME_MAX_LENGTH) ?? null;
}

/** Google sends some booleans as the strings 'true' and 'false'. */
export function truthy(value: unknown): boolean {
  return value === true || value === 'true';
}
