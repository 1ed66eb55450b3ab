import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, decodeProtectedHeader, EmbeddedJWK, jwtVerify, type JWK } from 'jose';

/**
 * DPoP proofs (RFC 9449) at the identity API. The provider binds an access token to a client's key
 * when the token request carries a proof (the token then holds `jkt`, the key's RFC 7638
 * thumbprint); a resource server must then ask for a fresh proof by that key with every call, or a
 * stolen bound token is as good as a bearer token. This is the check of RFC 9449 section 4.3 the
 * provider makes at its own userinfo endpoint, written for the API (no provider internals).
 */

/** The algorithms a proof may be signed with: the provider's (provider.ts sets its `dPoPSigningAlgValues` to these). */
export const DPOP_SIGNING_ALGS = ['ES256', 'Ed25519', 'EdDSA'] as const;

/**
 * How far a proof's `iat` may be from the server's clock, either way: the provider's window
 * (oidc-provider's CHALLENGE_OK_WINDOW), so a client whose proofs the token endpoint takes has
 * them taken here too. A proof's `jti` is remembered for as long as the proof could be accepted.
 */
export const DPOP_PROOF_WINDOW_SECONDS = 300;

/** Longer than any proof with an EC, OKP or 4096-bit RSA key and the claims it needs; a longer header is not parsed at all. */
export const MAX_DPOP_PROOF_LENGTH = 4096;

/** Longer than any random `jti` a client makes (the RFC suggests 96 bits); a longer one is refused rather than stored. */
const MAX_JTI_LENGTH = 256;

/** JWK members of a private or symmetric key: none may be in a proof's `jwk` header. */
const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** A proof that is not valid for the request; the message is for logs and `error_description`, never a secret. */
export class DPoPProofError extends Error {}

/** What a valid proof says: the key's thumbprint (compare with the token's `jkt`), and its `jti` and `iat` (for the replay check). */
export interface VerifiedDPoPProof {
  jkt: string;
  jti: string;
  iat: number;
}

export interface DPoPExpectation {
  /** The request's method. */
  method: string;
  /** The request's URL as PUBLIC_URL addresses it (see `publicRequestUrl`); query and fragment are ignored. */
  url: string;
  /** The access token the request carries (`ath` must be its hash). */
  accessToken: string;
  /** Seconds since the epoch; the server's clock unless a test says otherwise. */
  now?: number;
}

/** RFC 9449 section 4.2: `ath` is the base64url SHA-256 of the access token (ASCII, token68). */
export function accessTokenHash(accessToken: string): string {
  return createHash('sha256').update(accessToken).digest('base64url');
}

/** The URL a proof's `htu` must name: PUBLIC_URL and the request's path, never the Host header's idea of it. */
export function publicRequestUrl(publicUrl: string, requestUrl: string): string {
  const path = requestUrl.split(/[?#]/, 1)[0] ?? '/';
  return `${publicUrl}${path.startsWith('/') ? path : `/${path}`}`;
}

function withoutQueryAndFragment(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  parsed.search = '';
  parsed.hash = '';
  return parsed.href;
}

/**
 * Checks `proof` (the one DPoP header) against the request: RFC 9449 section 4.3 steps 2 to 11
 * (no nonce: this server hands out none) and the `ath` of step 12. The caller compares the key
 * (`jkt` of the answer) with the token's and checks the `jti` against the shared store (section
 * 11.1). Anything wrong, whatever the input, is a DPoPProofError, never another error.
 */
export async function verifyDPoPProof(proof: string, expected: DPoPExpectation): Promise<VerifiedDPoPProof> {
  if (proof.length > MAX_DPOP_PROOF_LENGTH) throw new DPoPProofError('DPoP proof too long');
  if (!COMPACT_JWS.test(proof)) throw new DPoPProofError('DPoP proof is not a compact JWS');

  let header: ReturnType<typeof decodeProtectedHeader>;
  let payload: Record<string, unknown>;
  try {
    header = decodeProtectedHeader(proof);
    const jwk = header.jwk as Record<string, unknown> | undefined;
    if (!jwk || typeof jwk !== 'object' || Array.isArray(jwk)) throw new DPoPProofError('DPoP proof has no jwk header');
    if (PRIVATE_JWK_MEMBERS.some((member) => member in jwk)) throw new DPoPProofError('DPoP proof jwk is not a public key');
    // typ, alg (asymmetric, allowed), a public jwk that verifies the signature.
    ({ payload } = await jwtVerify(proof, EmbeddedJWK, { algorithms: [...DPOP_SIGNING_ALGS], typ: 'dpop+jwt' }));
  } catch (error) {
    if (error instanceof DPoPProofError) throw error;
    throw new DPoPProofError('invalid DPoP proof signature or header');
  }

  const now = expected.now ?? Math.floor(Date.now() / 1000);
  const { iat, jti, htm, htu, ath } = payload;
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw new DPoPProofError('DPoP proof must have a numeric iat');
  if (Math.abs(now - iat) > DPOP_PROOF_WINDOW_SECONDS) throw new DPoPProofError('DPoP proof iat is not recent enough');
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > MAX_JTI_LENGTH) throw new DPoPProofError('DPoP proof must have a jti string');
  if (htm !== expected.method) throw new DPoPProofError('DPoP proof htm mismatch');
  if (typeof htu !== 'string' || htu.length > MAX_DPOP_PROOF_LENGTH) throw new DPoPProofError('DPoP proof htu mismatch');
  const actualUrl = withoutQueryAndFragment(htu);
  if (!actualUrl || actualUrl !== withoutQueryAndFragment(expected.url)) throw new DPoPProofError('DPoP proof htu mismatch');
  if (typeof ath !== 'string' || ath !== accessTokenHash(expected.accessToken)) throw new DPoPProofError('DPoP proof ath mismatch');

  const jkt = await calculateJwkThumbprint(header.jwk as JWK, 'sha256').catch(() => undefined);
  if (!jkt) throw new DPoPProofError('DPoP proof jwk has no thumbprint');
  return { jkt, jti, iat };
}
