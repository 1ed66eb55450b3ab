import type { FastifyRequest } from 'fastify';
import { ErrorCode } from '@passgate/contract';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../db/schema.ts';
import { DPOP_PROOF_WINDOW_SECONDS, DPOP_SIGNING_ALGS, DPoPProofError, publicRequestUrl, verifyDPoPProof, type VerifiedDPoPProof } from './dpop-proof.ts';
import { firstUseOfProof } from './dpop-replay.ts';
import { ApiError } from './errors.ts';

export const ACCOUNT_CLIENT_ID = 'account';

/**
 * The signed-in user behind an access token (Bearer, or DPoP with a proof for a DPoP-bound token:
 * `checkSenderConstraint`). Only tokens issued to the `account` client are
 * accepted: a relying party's token must never change or delete a user's account. The admin API
 * asks for its own client's tokens (`admin-console`) the same way.
 */
export async function authenticateAccount(ctx: AppContext, request: FastifyRequest, clientId: string = ACCOUNT_CLIENT_ID): Promise<UserRow> {
  return (await authenticateAccessToken(ctx, request, clientId)).user;
}

/** The signed-in user and what the sign-in behind the token proved (RFC 8176 `amr` values; empty when the token does not say). */
export interface TokenHolder {
  user: UserRow;
  amr: string[];
}

/** The token of an `Authorization: Bearer …` or `Authorization: DPoP …` header (RFC 6750, RFC 9449 section 7.1). */
const AUTHORIZATION = /^(Bearer|DPoP) ([A-Za-z0-9._~+/-]+=*)$/i;

/** What the access token a request was accepted with says of its sign-in: its provider session and grant. */
export interface AcceptedToken {
  sessionUid: string | undefined;
  grantId: string | undefined;
}

const acceptedTokens = new WeakMap<FastifyRequest, AcceptedToken>();

/**
 * The session and grant of the token `authenticateAccessToken` accepted for this request, for a
 * handler behind that check (the current session, the grant a password change keeps), so the
 * token is not looked up a second time. Both undefined when no token was accepted.
 */
export function acceptedToken(request: FastifyRequest): AcceptedToken {
  return acceptedTokens.get(request) ?? { sessionUid: undefined, grantId: undefined };
}

/**
 * 401/1102 with the challenge of RFC 9449 section 7.1, so a client learns to use (or fix) its
 * proof. Said for a token that is DPoP-bound or presented as one, whatever else is wrong with it.
 */
function dpopRefusal(error: 'invalid_token' | 'invalid_dpop_proof', description: string): ApiError {
  const refusal = new ApiError(ErrorCode.NotAuthenticated, 401);
  refusal.wwwAuthenticate = `DPoP algs="${DPOP_SIGNING_ALGS.join(' ')}", error="${error}", error_description="${description}"`;
  return refusal;
}

/**
 * The sender constraint of RFC 9449: a token the provider bound to a key (`jkt`, from a DPoP proof
 * at its token endpoint) is good only with the DPoP scheme and a fresh proof by that key for this
 * very request, as at the provider's own userinfo endpoint; otherwise a stolen bound token would
 * be a bearer token here. A token bound to no key keeps the Bearer scheme only.
 */
async function checkSenderConstraint(ctx: AppContext, request: FastifyRequest, scheme: string, value: string, jkt: string | undefined): Promise<void> {
  const dpopScheme = scheme.toLowerCase() === 'dpop';
  if (!jkt) {
    if (dpopScheme) throw dpopRefusal('invalid_token', 'the access token is not DPoP-bound: present it with the Bearer scheme');
    return;
  }
  if (!dpopScheme) throw dpopRefusal('invalid_token', 'the access token is DPoP-bound: present it with the DPoP scheme and a proof');
  // Exactly one DPoP header: Node joins repeated ones with ', ', which no compact JWS holds, so
  // two proofs, even valid ones, fail as one malformed proof.
  const proof = request.headers.dpop;
  if (typeof proof !== 'string' || !proof) throw dpopRefusal('invalid_dpop_proof', 'exactly one DPoP header with a proof is required');
  let verified: VerifiedDPoPProof;
  try {
    verified = await verifyDPoPProof(proof, { method: request.method, url: publicRequestUrl(ctx.config.publicUrl, request.url), accessToken: value });
  } catch (error) {
    if (error instanceof DPoPProofError) throw dpopRefusal('invalid_dpop_proof', error.message);
    throw error;
  }
  if (verified.jkt !== jkt) throw dpopRefusal('invalid_token', 'the DPoP proof is not signed by the key the access token is bound to');
  if (!(await firstUseOfProof(ctx, verified.jkt, verified.jti, verified.iat + DPOP_PROOF_WINDOW_SECONDS))) {
    throw dpopRefusal('invalid_dpop_proof', 'the DPoP proof was already used');
  }
}

/**
 * 401 with the challenge of RFC 6750 section 3 (RFC 9449's for a request that used the DPoP
 * scheme), so a client library learns that the token itself was refused: a request without any
 * gets the bare scheme, a token that is not good `error="invalid_token"`.
 */
function missingToken(): ApiError {
  const refusal = new ApiError(ErrorCode.MissingAuthorization, 401);
  refusal.wwwAuthenticate = 'Bearer';
  return refusal;
}

function invalidToken(scheme: string | undefined): ApiError {
  if (scheme?.toLowerCase() === 'dpop') return dpopRefusal('invalid_token', 'the access token is not valid');
  const refusal = new ApiError(ErrorCode.NotAuthenticated, 401);
  refusal.wwwAuthenticate = 'Bearer error="invalid_token"';
  return refusal;
}

/** `authenticateAccount`, with the token's `amr` (provider.ts keeps it with each access token). */
export async function authenticateAccessToken(ctx: AppContext, request: FastifyRequest, clientId: string = ACCOUNT_CLIENT_ID): Promise<TokenHolder> {
  const header = request.headers.authorization;
  if (!header) throw missingToken();
  const match = AUTHORIZATION.exec(header);
  const scheme = match?.[1];
  const value = match?.[2];
  if (!scheme || !value) throw invalidToken(scheme);
  const token = await ctx.provider.AccessToken.find(value);
  if (!token || token.isExpired || token.clientId !== clientId || !token.accountId) throw invalidToken(scheme);
  await checkSenderConstraint(ctx, request, scheme, value, token.jkt);
  // Deleting a grant does not delete the access tokens issued under it, and a token issued with
  // offline_access is not bound to the provider session either. The grant is what says the user
  // still authorises this client, so it is checked on every call, as the provider's own userinfo
  // endpoint does: present, unexpired, and of this very client and account.
  const grant = token.grantId ? await ctx.provider.Grant.find(token.grantId, { ignoreExpiration: true }) : undefined;
  if (!grant || grant.isExpired || grant.clientId !== token.clientId || grant.accountId !== token.accountId) throw invalidToken(scheme);
  const user = await ctx.users.findById(token.accountId);
  if (!user || user.status !== 'active') throw invalidToken(scheme);
  acceptedTokens.set(request, { sessionUid: (token as { sessionUid?: string }).sessionUid, grantId: token.grantId });
  const amr = (token.extra as { amr?: unknown } | undefined)?.amr;
  return { user, amr: Array.isArray(amr) ? amr.filter((value): value is string => typeof value === 'string') : [] };
}
