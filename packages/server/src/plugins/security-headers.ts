import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

type Directives = Record<string, string[]>;

type SourceKind = 'script' | 'frame' | 'connect' | 'style';

/** Origins a page may load third-party code from, by what needs it (only pages whose client uses it). */
export const THIRD_PARTY_SOURCES = {
  recaptcha: { script: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'], frame: ['https://www.google.com/recaptcha/'], connect: ['https://www.google.com/recaptcha/'] },
  // Google Identity Services, as its CSP guide lists it.
  google: {
    script: ['https://accounts.google.com/gsi/client'],
    frame: ['https://accounts.google.com/gsi/'],
    connect: ['https://accounts.google.com/gsi/'],
    style: ['https://accounts.google.com/gsi/style'],
  },
  // The Facebook JavaScript SDK: its script, its dialogs and its Graph API calls.
  facebook: { script: ['https://connect.facebook.net'], frame: ['https://www.facebook.com', 'https://web.facebook.com'], connect: ['https://graph.facebook.com'] },
} as const satisfies Record<string, Partial<Record<SourceKind, readonly string[]>>>;
export type ThirdParty = keyof typeof THIRD_PARTY_SOURCES;

/** Third parties whose SDKs sign in through a popup that must be able to talk back to the page. */
const POPUP_SIGN_IN: readonly ThirdParty[] = ['google', 'facebook'];

/** The strict content security policy of every response, widened only by the third parties named. */
export function cspDirectives(https: boolean, thirdParties: readonly ThirdParty[] = []): Directives {
  const extra = (kind: SourceKind) => thirdParties.flatMap((t) => (THIRD_PARTY_SOURCES[t] as Partial<Record<SourceKind, readonly string[]>>)[kind] ?? []);
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'script-src': ["'self'", ...extra('script')],
    // MUI (emotion) injects its styles at run time.
    'style-src': ["'self'", "'unsafe-inline'", ...extra('style')],
    // Client logos, icons and background images are hosted by the partners.
    'img-src': ["'self'", 'data:', 'blob:', 'https:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...extra('connect')],
    'frame-src': extra('frame').length > 0 ? extra('frame') : ["'none'"],
    'object-src': ["'none'"],
    'frame-ancestors': ["'none'"],
    // No form-action: the logout confirmation posts to the provider, which then redirects to the
    // relying party, and browsers apply form-action to that redirect too.
    ...(https ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

export function serializeCsp(directives: Directives): string {
  return Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(' '))
    .join('; ');
}

/**
 * Replaces the policy of one response (a page whose client needs a third party). Google's and
 * Facebook's sign-in popups post their answer back to the opener, which the default
 * Cross-Origin-Opener-Policy (same-origin) would cut off.
 */
export function allowThirdParties(reply: FastifyReply, https: boolean, thirdParties: readonly ThirdParty[]): void {
  if (thirdParties.length > 0) reply.header('content-security-policy', serializeCsp(cspDirectives(https, thirdParties)));
  if (thirdParties.some((t) => POPUP_SIGN_IN.includes(t))) reply.header('cross-origin-opener-policy', 'same-origin-allow-popups');
}

/**
 * The headers helmet's middleware sets, computed once. Every one of ours is the same on every
 * answer; @fastify/helmet rebuilt helmet's middleware, and parsed the policy again, on each request
 * (4% of a userinfo call's CPU).
 */
export function helmetHeaders(options: HelmetOptions): [name: string, value: string][] {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string | number) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return [...headers];
}

/** Security headers of every response (helmet): strict CSP, no framing, no referrer. */
export async function registerSecurityHeaders(app: FastifyInstance, https: boolean): Promise<void> {
  const directives = Object.fromEntries(
    Object.entries(cspDirectives(https)).map(([name, values]) => [name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()), values]),
  );
  const headers = helmetHeaders({
    contentSecurityPolicy: { useDefaults: false, directives },
    // The provider and the API answer cross-site redirects and fetches for relying parties.
    crossOriginResourcePolicy: { policy: 'same-site' },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: https ? { maxAge: 31536000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'no-referrer' },
    // The same answer as frame-ancestors 'none', for browsers that ignore CSP: helmet's default
    // (SAMEORIGIN) would contradict it.
    xFrameOptions: { action: 'deny' },
  });
  // On the raw response, as @fastify/helmet did: the provider (mounted with middie) writes its
  // answers there, past Fastify's reply. A header a route sets on the reply later replaces these.
  app.addHook('onRequest', (request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    // The API answers people's own data (profile, sessions, a sign-in request's login_hint, the
    // admin's user lists) and one-time values (MFA tokens, TOTP secrets, backup codes, WebAuthn
    // challenges): no browser or proxy cache may keep them. A route whose answer may be kept (an
    // avatar, a static script) says so itself, which replaces this.
    if (request.url.startsWith('/api/')) reply.raw.setHeader('cache-control', 'no-store');
    done();
  });
}
