import { AVATAR_MAX_BYTES } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import type { UserRow } from '../../db/schema.ts';
import { randomToken } from '../../lib/ids.ts';
import { publicFetch, PublicFetchRefused } from '../../lib/public-fetch.ts';
import { ApiError } from '../../plugins/errors.ts';
import { AVATAR_CONTENT_TYPE, normaliseAvatar } from '../account/avatar-image.ts';
import { createAvatarQueries } from '../account/avatars.queries.ts';
import { inTransaction } from '../tenants/tenants.service.ts';
import { createUserQueries } from '../users/users.queries.ts';
import { failureReason, PROVIDER_TIMEOUT_MS, type SocialProfile } from './provider-http.ts';

/** Picture CDNs redirect (Facebook's profile picture URL answers 302 to its CDN); a few hops at most. */
const MAX_REDIRECTS = 3;

/**
 * The picture's URL fit for logs: origin and path only. The query of a picture URL may carry
 * signatures or tokens (Facebook's hash and asid), so it is dropped entirely.
 */
function loggable(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '[not a URL]';
  }
}

/**
 * Downloads the picture as any URL a third party hands us (publicFetch: never to an internal
 * address, checked on every hop): over https, except the provider API's own origin (the local fake
 * in tests, which speaks http). No credentials or headers of ours go with it. The whole download,
 * redirects and body included, gives up after PROVIDER_TIMEOUT_MS, and reading stops past
 * AVATAR_MAX_BYTES.
 */
async function download(ctx: AppContext, pictureUrl: string, providerOrigin: string): Promise<Buffer> {
  const answer = await publicFetch(pictureUrl, {
    timeoutMs: PROVIDER_TIMEOUT_MS,
    maxBytes: AVATAR_MAX_BYTES,
    maxRedirects: MAX_REDIRECTS,
    headers: { accept: 'image/*' },
    httpOrigins: [providerOrigin],
    allowPrivateHosts: ctx.config.outgoing.allowPrivateHosts,
  });
  return answer.body;
}

/** Why a download failed, for the log: our own refusal, or the error's name and system code (never its message, which could quote the URL). */
function skipReason(error: unknown): string {
  if (error instanceof PublicFetchRefused) return error.reason;
  if (error instanceof ApiError) return 'not_an_image';
  // Name resolution and socket errors carry their code themselves, not in a cause as fetch's do.
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' ? `${error.name}: ${code}` : failureReason(error);
}

/**
 * Makes the provider's profile picture the avatar of a social account just created: decoded and
 * normalised like an upload (256×256 WebP, same limits) and stored the same way. Called after the
 * account's transaction, so none is open during the download. Best effort: a picture that cannot be
 * fetched or decoded leaves the account without an avatar and logs a warning; the sign-in goes on.
 * An avatar the account already has is never replaced. Answers the account as it now is.
 */
export async function importSocialPicture(ctx: AppContext, user: UserRow, profile: SocialProfile): Promise<UserRow> {
  if (!profile.picture) return user;
  const apiUrl = profile.provider === 'google' ? ctx.config.social.googleApiUrl : ctx.config.social.facebookGraphUrl;
  try {
    const bytes = await download(ctx, profile.picture, new URL(apiUrl).origin);
    const data = await normaliseAvatar({ bytes, declaredType: undefined });
    const avatar = { key: randomToken(24), user_id: user.id, content_type: AVATAR_CONTENT_TYPE, data, created_at: Date.now() };
    const stored = await inTransaction(ctx.db, async (trx) => {
      const current = await createUserQueries(trx).findById(user.id);
      if (!current || current.avatar_key) return false;
      await createAvatarQueries(trx).replace(avatar);
      return true;
    });
    if (!stored) return user;
  } catch (error) {
    ctx.log.warn({ provider: profile.provider, userId: user.id, picture: loggable(profile.picture), reason: skipReason(error) }, 'the profile picture of the new social account was not imported');
    return user;
  }
  return (await ctx.users.findById(user.id)) ?? user;
}
