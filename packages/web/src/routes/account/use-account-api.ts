import { useMemo } from 'react';
import { bindAccountApi, type BoundAccountApi } from '../../api/account.ts';
import { isUnauthorized } from '../../api/errors.ts';
import { useAuth } from './auth-context.tsx';

/**
 * The account calls with the signed-in user's bearer token. Every one of them goes through the same
 * 401 handling: the session is forgotten and the session-expired alert shown.
 */
export function useAccountApi(): BoundAccountApi {
  const { accessToken, expire } = useAuth();
  return useMemo(() => accountApiFor(accessToken, expire), [accessToken, expire]);
}

/** The account calls with `accessToken`, a 401 from any of them calling `expire`. */
export function accountApiFor(accessToken: string, expire: () => void): BoundAccountApi {
  return bindAccountApi(accessToken, (error) => {
    if (isUnauthorized(error)) expire();
  });
}
