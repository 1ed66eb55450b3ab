import type { AppContext } from '../../context.ts';
import { randomToken } from '../../lib/ids.ts';
import { describeUserAgent } from '../../lib/user-agent.ts';
import { localeFromAcceptLanguage, messageLocale } from '../../messaging/templates/templates.ts';
import { newSignInNotice } from '../../messaging/templates/security-notices.ts';
import { createKnownBrowserQueries } from './known-browsers.queries.ts';
import { deliverNotice, inBackground, noticeChannel, noticesIdle } from './notice-delivery.ts';

/**
 * The new sign-in notice. Every sign-in, whatever its method (password, passwordless code, Google
 * or Facebook, a device, a second step), ends the same way: the browser follows redirectTo to the
 * provider's resume URL, where the provider starts the session and issues the code. That one
 * place is watched here, so no method can forget it: the browser is given a long-lived random key
 * (an HttpOnly cookie) when it has none, and, when the account has signed in before from other
 * browsers but never from this one, its owner gets a notice (e-mail, else SMS) saying when, to
 * which application, from which browser and IP, with the way to the Security page. An account's
 * first sign-in only records its browser.
 *
 * The work after the cookie runs in the background: a database or mail server that fails or hangs
 * never fails or slows a sign-in, it costs a warning in the log.
 */

export const BROWSER_KEY_COOKIE = 'passgate_browser';
const BROWSER_KEY_MAX_AGE_MS = 365 * 24 * 3600 * 1000;
/** A key as this server makes them (32 random bytes, base64url); anything else is replaced. */
const BROWSER_KEY_FORMAT = /^[A-Za-z0-9_-]{43}$/;
const HASH_PURPOSE = 'known-browser';

/** A sign-in the provider has just completed, as its resume request saw it. */
export interface CompletedSignIn {
  userId: string;
  clientId: string;
  clientName: string;
  ip: string;
  userAgent: string | undefined;
  acceptLanguage: string | undefined;
}

export interface NewBrowserNotices {
  /** Settles when every sign-in seen so far has been handled (its notice sent or given up): for tests and shutdown. */
  idle(): Promise<void>;
}

const registered = new WeakMap<AppContext, NewBrowserNotices>();

/** The notices of `ctx`'s provider (registered by buildApp). */
export function newBrowserNotices(ctx: AppContext): NewBrowserNotices {
  return registered.get(ctx) ?? registerNewBrowserNotices(ctx);
}

interface ResumeView {
  route?: string;
  result?: { login?: { accountId?: string } };
  entities: { AuthorizationCode?: { accountId?: string } };
  client?: { clientId: string; clientName?: string };
}

/** The sign-in a provider request completed: a resume that carried a login and issued its code. */
function completedSignIn(koa: { oidc?: unknown; ip: string; get(header: string): string }): CompletedSignIn | undefined {
  const oidc = koa.oidc as ResumeView | undefined;
  if (!oidc || oidc.route !== 'resume') return undefined;
  const userId = oidc.result?.login?.accountId;
  if (!userId || oidc.entities.AuthorizationCode?.accountId !== userId || !oidc.client) return undefined;
  return {
    userId,
    clientId: oidc.client.clientId,
    clientName: oidc.client.clientName || oidc.client.clientId,
    ip: koa.ip,
    userAgent: koa.get('user-agent') || undefined,
    acceptLanguage: koa.get('accept-language') || undefined,
  };
}

export function registerNewBrowserNotices(ctx: AppContext): NewBrowserNotices {
  const existing = registered.get(ctx);
  if (existing) return existing;

  const cookieOptions = {
    httpOnly: true,
    sameSite: 'lax',
    // As the provider's own cookies: Secure whenever PUBLIC_URL is https (every deployment but development).
    secure: ctx.config.publicUrl.startsWith('https://'),
    // The provider's resume requests read it, and the password sign-in, where a browser the
    // account has signed in from before is not locked out by other people's wrong passwords
    // (login-flow/lockout.ts).
    path: '/',
    maxAge: BROWSER_KEY_MAX_AGE_MS,
    signed: false,
    overwrite: true,
  } as const;

  ctx.provider.use(async (koa, next) => {
    await next();
    const signIn = completedSignIn(koa);
    if (!signIn) return;
    const held = koa.cookies.get(BROWSER_KEY_COOKIE, { signed: false });
    const browserKey = held && isBrowserKey(held) ? held : randomToken(32);
    // Set again at each sign-in, even when held: its year starts over, and a key set before under
    // the provider's path alone reaches the sign-in API from now on.
    koa.cookies.set(BROWSER_KEY_COOKIE, browserKey, cookieOptions);
    inBackground(ctx, 'the new sign-in check', () => handleSignIn(ctx, signIn, browserKey));
  });

  const notices: NewBrowserNotices = { idle: () => noticesIdle(ctx) };
  registered.set(ctx, notices);
  return notices;
}

export function isBrowserKey(value: string): boolean {
  return BROWSER_KEY_FORMAT.test(value);
}

/** The Set-Cookie header giving a browser its key from an API route (the same cookie as at sign-in). */
export function browserKeySetCookie(ctx: Pick<AppContext, 'config'>, browserKey: string): string {
  const secure = ctx.config.publicUrl.startsWith('https://') ? '; Secure' : '';
  return `${BROWSER_KEY_COOKIE}=${browserKey}; Path=/; Max-Age=${BROWSER_KEY_MAX_AGE_MS / 1000}; HttpOnly; SameSite=Lax${secure}`;
}

/** How a browser key is stored: keyed, so the table alone cannot be replayed as cookies. */
export function browserKeyHash(ctx: Pick<AppContext, 'keys'>, browserKey: string): string {
  return ctx.keys.hmac(HASH_PURPOSE, browserKey);
}

/** Remembers the browser for the account and, when it is new to an account that has others, tells the owner. */
async function handleSignIn(ctx: AppContext, signIn: CompletedSignIn, browserKey: string): Promise<void> {
  const at = Date.now();
  const sighting = await createKnownBrowserQueries(ctx.db).sighted(signIn.userId, browserKeyHash(ctx, browserKey), at);
  if (sighting !== 'new') return;

  const user = await ctx.users.findById(signIn.userId);
  if (!user) return;
  const tenant = await ctx.tenants.findById(user.tenant_id);
  const { browser, os } = describeUserAgent(signIn.userAgent);
  const channel = noticeChannel(user);
  await ctx.audit.record(
    { type: 'signin.new_browser', tenantId: user.tenant_id, userId: user.id, clientId: signIn.clientId, ip: signIn.ip, userAgent: signIn.userAgent ?? null, details: { browser, os, channel } },
    at,
  );
  const message = newSignInNotice({
    locale: messageLocale(user.locale, localeFromAcceptLanguage(signIn.acceptLanguage)),
    brand: tenant?.brandName || tenant?.name || 'Passgate',
    name: user.name,
    at,
    application: signIn.clientName,
    browser,
    os,
    ip: signIn.ip,
    securityUrl: `${ctx.config.publicUrl}/user/security`,
  });
  await deliverNotice(ctx, user, 'new sign-in', message);
}
