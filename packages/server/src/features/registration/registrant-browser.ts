import type { AppContext } from '../../context.ts';
import { randomToken } from '../../lib/ids.ts';
import { isBrowserKey } from '../known-browsers/new-browser-notice.ts';
import type { VisitorMeta } from '../login-flow/visitor-input.ts';

const HASH_PURPOSE = 'registrant-browser';

/**
 * Who may keep what a registration set. An activation code goes to the address, so whoever types it
 * has read that address; it does not prove they chose the password and name the pending account
 * holds, since anybody may register a pending address again (an account nobody activates must not
 * hold it) and the new code goes to the same inbox: a stranger who registers again while the owner
 * waits for their code would otherwise have the owner activate the stranger's password.
 *
 * So a registration made in a browser (it holds a sign-in request, so it keeps cookies) is bound to
 * that browser's long-lived key (`passgate_browser`, given to it here when it has none), and its
 * code keeps the password and profile only when typed in the same browser. Typed anywhere else, it
 * activates the proven address alone, like a passwordless or social proof
 * (users.queries.ts, activateByOtherProof), and the owner chooses a password through recovery. A
 * registration from a client that keeps no cookies is bound to nothing: its code keeps what it set
 * only when typed by another such client, never in a browser (one that holds a key, or a sign-in
 * request: a browser that has never been given a key is a browser still, and the owner's fresh one
 * must not activate a squatter's password registered from a script).
 */
export interface RegistrantBrowser {
  /** The key the browser is to hold (sent again as a cookie). */
  key: string;
  /** What the pending account stores of it. */
  hash: string;
}

export function registrantBrowser(ctx: Pick<AppContext, 'keys'>, meta: Pick<VisitorMeta, 'browser' | 'browserKey'>): RegistrantBrowser | null {
  if (!meta.browser.interactionUid) return null;
  const key = heldKey(meta.browserKey) ?? randomToken(32);
  return { key, hash: ctx.keys.hmac(HASH_PURPOSE, key) };
}

/** Whether the code is typed where the pending account was registered (see above). */
export function typedByRegistrant(ctx: Pick<AppContext, 'keys'>, registrantHash: string | null, meta: Pick<VisitorMeta, 'browser' | 'browserKey'>): boolean {
  const held = heldKey(meta.browserKey);
  if (registrantHash === null) return held === undefined && meta.browser.interactionUid === undefined;
  return held !== undefined && ctx.keys.hmacEquals(HASH_PURPOSE, held, registrantHash);
}

function heldKey(value: string | undefined): string | undefined {
  return value !== undefined && isBrowserKey(value) ? value : undefined;
}
