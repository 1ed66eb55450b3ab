import { useQuery } from '@tanstack/react-query';
import type { Profile } from '@passgate/contract';
import { useAccountApi } from './use-account-api.ts';

/** The query key of GET /api/v1/me: a change answered with the new profile is written there at once. */
export const PROFILE_KEY = ['me'] as const;

/**
 * GET /api/v1/me, read once for the header and the page together (each change answers with the new
 * profile, written into the query). A 401 means the session is gone: the session-expired alert.
 */
export function useProfile() {
  const api = useAccountApi();
  return useQuery({ queryKey: PROFILE_KEY, queryFn: () => api.me(), staleTime: 60_000 });
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
