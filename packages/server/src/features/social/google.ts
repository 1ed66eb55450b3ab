import { ErrorCode } from '@passgate/contract';
import { ApiError } from '../../plugins/errors.ts';
import { assertTokenSyntax, emailOf, nameOf, providerGet, text, tokenRejected, truthy, type ProviderDeps, type SocialProfile } from './provider-http.ts';

/**
 * Checks a Google access token (Google Identity Services' token client hands the SPA an OAuth
 * access token, not an ID token): the token information endpoint must name the client's Google
 * app as audience (aud or azp) and give time left; it gives the user's id (sub), e-mail and whether
 * Google verified it. The userinfo endpoint, called with the token, adds the name and picture.
 */
export async function verifyGoogleToken(deps: ProviderDeps, appId: string, accessToken: string): Promise<SocialProfile> {
  assertTokenSyntax(accessToken);
  const info = await providerGet(deps, 'google', 'tokeninfo', `${deps.baseUrl}/oauth2/v3/tokeninfo?access_token=${encodeURIComponent(accessToken)}`);
  if (info.status >= 400 || info.body.error !== undefined) throw tokenRejected();
  const token = info.body;
  // Google's client id may be in aud or azp; a token issued to another app answers as not valid.
  if (text(token.aud) !== appId && text(token.azp) !== appId) throw tokenRejected();
  if (!(Number(token.expires_in) > 0)) throw tokenRejected();
  const subject = text(token.sub);
  if (!subject) throw new ApiError(ErrorCode.GoogleIdMissing, 401, 'access_token');

  const user = await providerGet(deps, 'google', 'userinfo', `${deps.baseUrl}/oauth2/v3/userinfo`, { authorization: `Bearer ${accessToken}` });
  if (user.status >= 400) throw tokenRejected();
  const profile = user.body;
  if (text(profile.sub) !== null && text(profile.sub) !== subject) throw tokenRejected();

  // The token information speaks for the address it names; userinfo's only when it is the one given.
  const email = emailOf(token.email) ?? emailOf(profile.email);
  const verified = emailOf(token.email) !== null ? truthy(token.email_verified) : truthy(profile.email_verified);
  return { provider: 'google', subject, email, emailVerified: email !== null && verified, name: nameOf(profile.name), picture: text(profile.picture) };
}
