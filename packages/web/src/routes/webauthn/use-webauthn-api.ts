import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { isUnauthorized } from '../../api/errors.ts';
import { webauthnAccountApi } from '../../api/webauthn.ts';
import { useAuth } from '../account/auth-context.tsx';
import { useAccountApi } from '../account/use-account-api.ts';

type DeviceApi = typeof webauthnAccountApi;
type Bound<F> = F extends (token: string, ...args: infer A) => Promise<infer R> ? (...args: A) => Promise<R> : never;
export type BoundDeviceApi = { [K in keyof DeviceApi]: Bound<DeviceApi[K]> };

/** Under ['me', …]: forgotten with the rest of the account's data when the session ends. */
export const DEVICES_KEY = ['me', 'webauthn-credentials'] as const;
export const TENANT_KEY = ['me', 'tenant'] as const;

/** The device calls with the signed-in user's token; a 401 ends the session as every account call does. */
export function useDeviceApi(): BoundDeviceApi {
  const { accessToken, expire } = useAuth();
  return useMemo(() => {
    const bound = {} as Record<string, (...args: unknown[]) => Promise<unknown>>;
    for (const [name, call] of Object.entries(webauthnAccountApi) as [string, (token: string, ...args: unknown[]) => Promise<unknown>][]) {
      bound[name] = async (...args) => {
        try {
          return await call(accessToken, ...args);
        } catch (error) {
          if (isUnauthorized(error)) expire();
          throw error;
        }
      };
    }
    return bound as BoundDeviceApi;
  }, [accessToken, expire]);
}

/** GET /api/v1/me/tenant: whether the user's tenant allows devices at all (SPEC.md section 6). */
export function useTenant() {
  const api = useAccountApi();
  return useQuery({ queryKey: TENANT_KEY, queryFn: () => api.tenant(), staleTime: 5 * 60_000 });
}

/** GET /api/v1/webauthn-credentials/me, read only when the tenant allows devices. */
export function useDevices(enabled: boolean) {
  const api = useDeviceApi();
  return useQuery({ queryKey: DEVICES_KEY, queryFn: () => api.list(), enabled, staleTime: 30_000 });
}
