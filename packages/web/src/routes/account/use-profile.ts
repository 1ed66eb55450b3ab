import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Profile } from '@passgate/contract';
import { accountApi } from '../../api/account.ts';
import { isUnauthorized } from '../../api/errors.ts';
import { useAuth } from './auth-context.tsx';

/** GET /api/v1/me; a 401 means the session is gone: the session-expired alert. */
export function useProfile() {
  const { accessToken, expire } = useAuth();
  const query = useQuery({ queryKey: ['me'], queryFn: () => accountApi.me(accessToken) });
  const unauthorized = isUnauthorized(query.error);
  useEffect(() => {
    if (unauthorized) expire();
  }, [unauthorized, expire]);
  return query;
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
