import type { SocialAuthorizer, SocialLinkMethod } from '@passgate/contract';

/** What the social sign-in hands the SocialLink screen when the e-mail belongs to an existing account. */
export interface SocialLinkState {
  linkToken: string;
  /** The account's e-mail, masked by the server. */
  email: string;
  authorizer: SocialAuthorizer;
  /** 'password' when the account has one; 'code' (sent to the e-mail) always. */
  methods: SocialLinkMethod[];
}

/** The SocialLink route state, or null when it is missing or incomplete (the screen then returns to Login). */
export function readSocialLinkState(state: unknown): SocialLinkState | null {
  if (typeof state !== 'object' || state === null) return null;
  const { linkToken, email, authorizer, methods } = state as Record<string, unknown>;
  if (typeof linkToken !== 'string' || !linkToken || typeof email !== 'string' || !email) return null;
  if (authorizer !== 'google' && authorizer !== 'facebook') return null;
  const known = Array.isArray(methods) ? methods.filter((method): method is SocialLinkMethod => method === 'password' || method === 'code') : [];
  return { linkToken, email, authorizer, methods: known.length ? known : ['code'] };
}
