import type { Profile } from '@passgate/contract';
import { api } from './client.ts';

/** The signed-in calls (SPEC.md section 7): each sends the account area's bearer access token. */
export const accountApi = {
  me: (token: string) => api.get<Profile>('/v1/me', { token }),
};
