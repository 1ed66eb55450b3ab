import { createHmac } from 'node:crypto';
import { ErrorCode } from '@passgate/contract';
import { ApiError } from '../../plugins/errors.ts';
import { assertTokenSyntax, emailOf, nameOf, providerGet, text, tokenRejected, type ProviderDeps, type SocialProfile } from './provider-http.ts';

export interface FacebookApp {
  appId: string;
  appSecret: string;
}

/** Graph API's proof that a call with the user's token comes from the app's server. */
export const appSecretProof = (accessToken: string, appSecret: string): string => createHmac('sha256', appSecret).update(accessToken).digest('hex');

/**
 * Checks a Facebook user access token with the app's own credentials (debug_token): it must be
 * valid, issued to the client's Facebook app and not expired. /me (with appsecret_proof) then gives
 * the user's id, name, e-mail and picture (none for Facebook's grey silhouette, which is not the
 * user's). Facebook only hands out e-mail addresses it has confirmed, so they count as verified.
 */
export async function verifyFacebookToken(deps: ProviderDeps, app: FacebookApp, accessToken: string): Promise<SocialProfile> {
  assertTokenSyntax(accessToken);
  const query = new URLSearchParams({ input_token: accessToken, access_token: `${app.appId}|${app.appSecret}` });
  const debug = await providerGet(deps, 'facebook', 'debug_token', `${deps.baseUrl}/debug_token?${query.toString()}`);
  if (debug.status >= 400) {
    // A bad user token comes back as is_valid false; a refused call usually means the app id or
    // secret configured for the client is wrong, which the operator must hear about.
    deps.log.warn({ provider: 'facebook', endpoint: 'debug_token', status: debug.status, appId: app.appId }, "Facebook refused the token check: check the client's Facebook app id and secret");
    throw tokenRejected();
  }
  const data = (debug.body.data ?? {}) as Record<string, unknown>;
  if (data.is_valid !== true || text(data.app_id) !== app.appId) throw tokenRejected();
  // expires_at 0 means a token that does not expire.
  const expiresAt = Number(data.expires_at ?? 0);
  if (!Number.isFinite(expiresAt) || (expiresAt !== 0 && expiresAt * 1000 <= Date.now())) throw tokenRejected();
  const subject = text(data.user_id);
  if (!subject) throw new ApiError(ErrorCode.FacebookIdMissing, 401, 'access_token');

  // picture.width(256).height(256): the smallest of the user's pictures that covers a stored avatar (the default is 50×50).
  const fields = new URLSearchParams({ fields: 'id,name,email,picture.width(256).height(256)', access_token: accessToken, appsecret_proof: appSecretProof(accessToken, app.appSecret) });
  const me = await providerGet(deps, 'facebook', 'me', `${deps.baseUrl}/me?${fields.toString()}`);
  if (me.status >= 400) throw tokenRejected();
  const id = text(me.body.id);
  if (!id) throw new ApiError(ErrorCode.FacebookIdMissing, 401, 'access_token');
  if (id !== subject) throw tokenRejected();
  const picture = (me.body.picture as { data?: { url?: unknown; is_silhouette?: unknown } } | undefined)?.data;
  const email = emailOf(me.body.email);
  return { provider: 'facebook', subject, email, emailVerified: email !== null, name: nameOf(me.body.name), picture: picture?.is_silhouette === true ? null : text(picture?.url) };
}
