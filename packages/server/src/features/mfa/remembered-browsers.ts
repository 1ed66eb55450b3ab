import { isAdministrator } from '../admin/admin-two-step.ts';
import { ADMIN_CONSOLE_CLIENT_ID } from '../admin/admin-auth.ts';
import type { AppContext } from '../../context.ts';
import type { UserRow } from '../../db/schema.ts';
import { randomToken } from '../../lib/ids.ts';
import type { ServerKeys } from '../../lib/server-keys.ts';
import { describeUserAgent } from '../../lib/user-agent.ts';
import { forgetRememberedBrowsers, createRememberedBrowserQueries } from './remembered-browsers.queries.ts';

/**
 * "Remember this browser" for 2-step verification (issue 16). A browser that passed the second
 * step with the box ticked gets an HttpOnly cookie holding a random id and a random 256-bit secret;
 * the database keeps only a keyed digest of the secret, bound to the user and the tenant. On a
 * later sign-in of the same user, after the first factor, a valid cookie skips the second step.
 * Ended by a password change (users.replacePassword), 2-step turned off or on, 'Forget all
 * browsers', the tenant turning the setting off, or the days running out.
 */

export const REMEMBERED_BROWSER_COOKIE = 'passgate_remembered_browser';
/** Every sign-in call that proves a first factor, and the second step that sets it, lives under here. */
const COOKIE_PATH = '/api/v1/';
const DAY_MS = 86_400_000;
const ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const rememberedBrowserDigest = (keys: ServerKeys, userId: string, secret: string): string =>
  keys.hmac('remembered-browser', `${userId}\u0000${secret}`);

/** The id and secret a cookie value carries, or null when it is not one of ours. */
function parseCookieValue(value: string | undefined): { id: string; secret: string } | null {
  if (!value) return null;
  const [id, secret, ...rest] = value.split('.');
  if (rest.length > 0 || !id || !secret || !ID_PATTERN.test(id) || !SECRET_PATTERN.test(secret)) return null;
  return { id, secret };
}

/**
 * Whether sign-ins through `clientId` may offer and honour 'Remember this browser'. The admin
 * console's always ask the second factor, whatever the tenant offers: its privileges are worth a
 * code each time, and a stolen or shared browser must not carry them.
 */
export function clientRemembersBrowsers(clientId: string): boolean {
  return clientId !== ADMIN_CONSOLE_CLIENT_ID;
}

/** Who is signing in, for the check and its audit record. */
export interface RememberedBrowserVisitor {
  /** The cookie's value as the browser sent it (BrowserHold.rememberedBrowser). */
  cookie: string | undefined;
  clientId: string;
  ip: string;
  userAgent: string | undefined;
}

export function createRememberedBrowsers(ctx: Pick<AppContext, 'db' | 'keys' | 'tenants' | 'audit' | 'config'>) {
  const secure = ctx.config.isProduction || ctx.config.publicUrl.startsWith('https://');
  const attributes = `Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

  /** The tenant's days, or null when it does not offer 'Remember this browser'. */
  async function daysOf(tenantId: string): Promise<number | null> {
    return (await ctx.tenants.findById(tenantId))?.rememberBrowserDays ?? null;
  }

  /**
   * Whether the account may be remembered at all: never an administrator's, whose second step is
   * what the console and their factor changes rely on (admin-two-step.ts).
   */
  async function offeredTo(user: UserRow): Promise<boolean> {
    return !(await isAdministrator(ctx, user.id));
  }

  return {
    daysOf,
    offeredTo,

    /**
     * Remembers the browser for `user` (its second step just passed): answers the Set-Cookie header
     * value, or null when the tenant does not offer it (the box is then ignored).
     */
    async remember(user: UserRow, clientId: string, userAgent: string | undefined, now = Date.now()): Promise<string | null> {
      if (!clientRemembersBrowsers(clientId) || !(await offeredTo(user))) return null;
      const days = await daysOf(user.tenant_id);
      if (!days) return null;
      const id = randomToken(16);
      const secret = randomToken(32);
      const { browser, os } = describeUserAgent(userAgent);
      await createRememberedBrowserQueries(ctx.db).insert({
        id,
        user_id: user.id,
        tenant_id: user.tenant_id,
        secret_digest: rememberedBrowserDigest(ctx.keys, user.id, secret),
        user_agent: [browser, os].filter(Boolean).join(' · ').slice(0, 200) || null,
        created_at: now,
        expires_at: now + days * DAY_MS,
      });
      return `${REMEMBERED_BROWSER_COOKIE}=${id}.${secret}; Max-Age=${days * 86_400}; ${attributes}`;
    },

    /**
     * Whether this browser may skip `user`'s second step: a cookie of this user and tenant, not
     * expired (by its own date and by the tenant's current days), whose secret matches the digest
     * (compared in constant time), while the tenant offers the setting. Audited either way when a
     * cookie was presented; a cookie of another account is ignored. The user's expired rows go.
     */
    async skipsSecondStep(user: UserRow, visitor: RememberedBrowserVisitor, now = Date.now()): Promise<boolean> {
      if (!visitor.cookie) return false;
      const event = { tenantId: user.tenant_id, clientId: visitor.clientId, userId: user.id, ip: visitor.ip, userAgent: visitor.userAgent };
      const refused = async (reason: string) => {
        await ctx.audit.record({ ...event, type: 'mfa.remembered_browser_refused', details: { reason } });
        return false;
      };
      const queries = createRememberedBrowserQueries(ctx.db);
      await queries.deleteExpired(user.id, now);
      if (!clientRemembersBrowsers(visitor.clientId)) return refused('client_always_asks');
      // A skipped second step would leave an administrator a sign-in the console can only refuse.
      if (!(await offeredTo(user))) return refused('administrator');
      const days = await daysOf(user.tenant_id);
      if (!days) return refused('tenant_setting_off');
      const parsed = parseCookieValue(visitor.cookie);
      if (!parsed) return refused('malformed');
      const row = await queries.find(parsed.id);
      // Unknown, or remembered for someone else (a shared computer): this sign-in is not its own.
      if (!row || row.user_id !== user.id || row.tenant_id !== user.tenant_id) return refused('unknown');
      if (row.expires_at <= now || row.created_at + days * DAY_MS <= now) {
        await queries.remove(row.id);
        return refused('expired');
      }
      if (!ctx.keys.hmacEquals('remembered-browser', `${user.id}\u0000${parsed.secret}`, row.secret_digest)) return refused('wrong_secret');
      await ctx.audit.record({ ...event, type: 'mfa.skipped_remembered', details: { rememberedAt: row.created_at, expiresAt: row.expires_at } });
      return true;
    },

    /** How many browsers skip `userId`'s second step now. */
    count(userId: string, now = Date.now()): Promise<number> {
      return createRememberedBrowserQueries(ctx.db).countActive(userId, now);
    },

    /** 'Forget all browsers': every remembered browser of the user ends; audited. */
    async forgetAll(user: UserRow, meta: { clientId: string; ip: string; userAgent: string | undefined }): Promise<number> {
      const forgotten = await forgetRememberedBrowsers(ctx.db, user.id);
      await ctx.audit.record({
        tenantId: user.tenant_id,
        clientId: meta.clientId,
        userId: user.id,
        ip: meta.ip,
        userAgent: meta.userAgent,
        type: 'mfa.remembered_browsers_forgotten',
        details: { count: forgotten },
      });
      return forgotten;
    },
  };
}
export type RememberedBrowsers = ReturnType<typeof createRememberedBrowsers>;
