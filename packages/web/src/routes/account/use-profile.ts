import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { Profile } from '@passgate/contract';
import type { BoundAccountApi } from '../../api/account.ts';
import { accountApiFor, useAccountApi } from './use-account-api.ts';

/** The query key of GET /api/v1/me: a change answered with the new profile is written there at once. */
export const PROFILE_KEY = ['me'] as const;

/**
 * GET /api/v1/me, read once for the header and the page together (each change answers with the new
 * profile, written into the query). A 401 means the session is gone: the session-expired alert.
 */
export function useProfile() {
  return useQuery(profileQuery(useAccountApi()));
}

function profileQuery(api: BoundAccountApi) {
  return { queryKey: PROFILE_KEY, queryFn: () => api.me(), staleTime: 60_000 };
}

/**
 * Asks for the profile as soon as the session is known, while the area's first screen renders: the
 * screen's own query then finds it on its way instead of asking only once it is on the page (on a
 * slow phone, that render is half a second of a dashboard's wait for the user's name).
 */
export function prefetchProfile(queryClient: QueryClient, accessToken: string, expire: () => void): void {
  void queryClient.prefetchQuery(profileQuery(accountApiFor(accessToken, expire)));
}

export function displayName(profile: Pick<Profile, 'name' | 'email' | 'phoneNumber'> | undefined): string {
  return profile?.name?.trim() || profile?.email || profile?.phoneNumber || '';
}

/** The e-mail address, else the phone number. */
export function contactOf(profile: Pick<Profile, 'email' | 'phoneNumber'> | undefined): string {
  return profile?.email || profile?.phoneNumber || '';
}

/** "Nguyễn Văn An" → "NA"; "an@example.com" → "A". */
export function initials(name: string): string {
  const words = name.replace(/@.*$/, '').split(/[\s._-]+/).filter(Boolean);
  const firstLetter = (word: string | undefined) => (word ? (Array.from(word)[0] ?? '') : '');
  const first = firstLetter(words[0]);
  const last = words.length > 1 ? firstLetter(words[words.length - 1]) : '';
  return `${first}${last}`.toLocaleUpperCase() || '?';
}
