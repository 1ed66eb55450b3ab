import { createContext, useContext, useMemo } from 'react';
import { ErrorCode } from '@passgate/contract/rules';
import { api } from '../../api/client.ts';
import { ApiError, isUnauthorized } from '../../api/errors.ts';
import { useAuth } from '../account/auth-context.tsx';

type Query = Record<string, string | number | boolean | null | undefined>;
type Body = Record<string, unknown>;

/** The admin API (/api/admin/v1) with the console's bearer token. */
export interface AdminApi {
  get: <T>(path: string, query?: Query) => Promise<T>;
  post: <T>(path: string, body?: Body) => Promise<T>;
  patch: <T>(path: string, body: Body) => Promise<T>;
  delete: <T>(path: string) => Promise<T>;
}

/** `?a=1&b=x` of the values given (empty ones left out), snake_case keys as the API names them. */
export function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const ADMIN_API_PREFIX = '/admin/v1';

/**
 * What 2-step verification the admin API still wants: `setUp` (1304) the account has no
 * authenticator app or device yet; `signInAgain` (1307) it has one, but this sign-in did not use it.
 */
export type TwoStepNeed = 'setUp' | 'signInAgain';

/** What the console does when the API says so: it shows the screen for that need instead of the console. */
export const TwoStepRequiredContext = createContext<(need: TwoStepNeed) => void>(() => {});

export function twoStepNeedOf(error: unknown): TwoStepNeed | null {
  if (!(error instanceof ApiError)) return null;
  if (error.code === ErrorCode.AdminNeedsTwoStep) return 'setUp';
  if (error.code === ErrorCode.SignInWithStrongTwoStep) return 'signInAgain';
  return null;
}

/**
 * Every call goes through the same handling: a 401 forgets the session (sign in again), a 403/1304
 * shows the 'set up 2-step verification' screen and a 403/1307 the 'sign in again with it' one; the
 * caller gets the error as usual.
 */
export function useAdminApi(): AdminApi {
  const { accessToken, expire } = useAuth();
  const needsTwoStep = useContext(TwoStepRequiredContext);
  return useMemo(() => {
    const guard = async <T>(call: () => Promise<T>): Promise<T> => {
      try {
        return await call();
      } catch (error) {
        if (isUnauthorized(error)) expire();
        const need = twoStepNeedOf(error);
        if (need) needsTwoStep(need);
        throw error;
      }
    };
    const options = { token: accessToken };
    return {
      get: <T>(path: string, query?: Query) => guard(() => api.get<T>(`${ADMIN_API_PREFIX}${path}${queryString(query)}`, options)),
      post: <T>(path: string, body: Body = {}) => guard(() => api.post<T>(`${ADMIN_API_PREFIX}${path}`, body, options)),
      patch: <T>(path: string, body: Body) => guard(() => api.patch<T>(`${ADMIN_API_PREFIX}${path}`, body, options)),
      delete: <T>(path: string) => guard(() => api.delete<T>(`${ADMIN_API_PREFIX}${path}`, options)),
    };
  }, [accessToken, expire, needsTwoStep]);
}

/** The address of a download from the admin API (the CSV export), for a fetch with the token. */
export function adminApiUrl(apiUrl: string, path: string, query?: Query): string {
  return `${apiUrl.replace(/\/+$/, '')}${ADMIN_API_PREFIX}${path}${queryString(query)}`;
}
