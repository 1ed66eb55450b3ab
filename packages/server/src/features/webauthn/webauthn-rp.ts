import { randomBytes } from 'node:crypto';
import { ErrorCode, type UsernameKind } from '@passgate/contract';
import { DEVICE_LOGIN_TTL_SECONDS } from '@passgate/contract/rules';
import type { Config } from '../../config.ts';
import type { UserRow } from '../../db/schema.ts';
import type { ServerKeys } from '../../lib/server-keys.ts';
import { ApiError } from '../../plugins/errors.ts';
import type { TenantRecord } from '../tenants/tenants.queries.ts';

/** How long each kind of challenge lives; tests shorten them. */
export interface WebauthnTtls {
  registrationMs: number;
  codeMs: number;
  deviceLoginMs: number;
}

export const DEFAULT_TTLS: WebauthnTtls = {
  registrationMs: 5 * 60_000,
  codeMs: 10 * 60_000,
  deviceLoginMs: DEVICE_LOGIN_TTL_SECONDS * 1000,
};

/**
 * The relying party: its id is the host name of PUBLIC_URL and the only origin accepted is
 * PUBLIC_URL's origin. Credentials are scoped to the RP id by the browser, so moving PUBLIC_URL to
 * another host makes every registered device useless.
 */
export function relyingPartyOf(config: Pick<Config, 'publicUrl'>): { rpID: string; origin: string } {
  const url = new URL(config.publicUrl);
  return { rpID: url.hostname, origin: url.origin };
}

export const rpNameOf = (tenant: TenantRecord): string => tenant.brandName || tenant.name;

/** A WebAuthn challenge: 32 random bytes (base64url is what travels and is stored). */
export const newWebauthnChallenge = (): Uint8Array<ArrayBuffer> => Uint8Array.from(randomBytes(32));

/** The stored id of a challenge: its keyed hash, so the table never holds a usable challenge id. */
export const challengeHash = (keys: ServerKeys, id: string): string => keys.hmac('webauthn-challenge', id);
export const redirectKeyHash = (keys: ServerKeys, key: string): string => keys.hmac('webauthn-redirect-key', key);

/** Where a device's activation or deletion code goes: the e-mail address when the account has one, else the phone. */
export function codeDestinationOf(user: UserRow): { to: string; kind: UsernameKind } {
  if (user.email) return { to: user.email, kind: 'email' };
  if (user.phone_number) return { to: user.phone_number, kind: 'phone' };
  throw new ApiError(ErrorCode.InvalidField, 400, 'username', 'The account has no e-mail address or phone number to send a code to');
}

/** d***@example.com, ******6789: enough to recognise, not enough to learn. */
export function maskDestination(value: string): string {
  const at = value.indexOf('@');
  if (at > 0) return `${value[0]}***${value.slice(at)}`;
  return value.length > 4 ? `${'*'.repeat(value.length - 4)}${value.slice(-4)}` : '****';
}

/** Why the WebAuthn library refused an answer, fit for a log: the quoted values (challenges, origins) left out. */
export function refusalReason(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/"[^"]*"/g, '"…"').slice(0, 200);
}
