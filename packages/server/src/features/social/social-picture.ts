import { AVATAR_MAX_BYTES } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import type { UserRow } from '../../db/schema.ts';
import { randomToken } from '../../lib/ids.ts';
import { ApiError } from '../../plugins/errors.ts';
import { AVATAR_CONTENT_TYPE, normaliseAvatar } from '../account/avatar-image.ts';
import { createAvatarQueries } from '../account/avatars.queries.ts';
import { inTransaction } from '../tenants/tenants.service.ts';
import { createUserQueries } from '../users/users.queries.ts';
import { failureReason, PROVIDER_TIMEOUT_MS, type SocialProfile } from './provider-http.ts';

/** Picture CDNs redirect (Facebook's profile picture URL answers 302 to its CDN); a few hops at most. */
const MAX_REDIRECTS = 3;

/** Why a picture was not imported: logged, never shown to the user. */
class PictureSkipped extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

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
 * Downloads the picture: every hop over https, except the provider API's own origin (the local fake
 * in tests, which speaks http); redirects are followed by hand so that each target is checked the
 * same way. No credentials or headers of ours go with it. The whole download, redirects and body
 * included, gives up after PROVIDER_TIMEOUT_MS, and reading stops past AVATAR_MAX_BYTES.
 */
async function download(pictureUrl: string, providerOrigin: string): Promise<Buffer> {
  const signal = AbortSignal.timeout(PROVIDER_TIMEOUT_MS);
  let url: URL;
  try {
    url = new URL(pictureUrl);
  } catch {
    throw new PictureSkipped('invalid_url');
  }
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'https:' && url.origin !== providerOrigin) throw new PictureSkipped('not_https');
    if (url.username || url.password) throw new PictureSkipped('credentials_in_url');
    const response = await fetch(url, { headers: { accept: 'image/*' }, redirect: 'manual', credentials: 'omit', signal });
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel().catch(() => undefined);
      if (hop >= MAX_REDIRECTS) throw new PictureSkipped('too_many_redirects');
      url = new URL(location, url);
      continue;
    }
    if (response.status !== 200 || !response.body) {
      await response.body?.cancel().catch(() => undefined);
      throw new PictureSkipped(`status_${response.status}`);
    }
    if (Number(response.headers.get('content-length') ?? 0) > AVATAR_MAX_BYTES) {
      await response.body.cancel().catch(() => undefined);
      throw new PictureSkipped('too_large');
    }
    return readAtMost(response.body.getReader(), AVATAR_MAX_BYTES);
  }
}

/** The body, or PictureSkipped('too_large') as soon as it passes `max` bytes (the rest is never read). */
async function readAtMost(reader: ReadableStreamDefaultReader<Uint8Array>, max: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks, size);
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw new PictureSkipped('too_large');
    }
    chunks.push(value);
  }
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
    const bytes = await download(profile.picture, new URL(apiUrl).origin);
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
    const reason = error instanceof PictureSkipped ? error.reason : error instanceof ApiError ? 'not_an_image' : failureReason(error);
    ctx.log.warn({ provider: profile.provider, userId: user.id, picture: loggable(profile.picture), reason }, 'the profile picture of the new social account was not imported');
    return user;
  }
  return (await ctx.users.findById(user.id)) ?? user;
}
