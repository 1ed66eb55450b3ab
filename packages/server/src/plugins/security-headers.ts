import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet from '@fastify/helmet';

type Directives = Record<string, string[]>;

/** Origins a page may load third-party code from, by what needs it (only pages whose client uses it). */
export const THIRD_PARTY_SOURCES = {
  recaptcha: { script: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'], frame: ['https://www.google.com/recaptcha/'], connect: ['https://www.google.com/recaptcha/'] },
} as const;
export type ThirdParty = keyof typeof THIRD_PARTY_SOURCES;

/** The strict content security policy of every response, widened only by the third parties named. */
export function cspDirectives(https: boolean, thirdParties: readonly ThirdParty[] = []): Directives {
  const extra = (kind: 'script' | 'frame' | 'connect') => thirdParties.flatMap((t) => THIRD_PARTY_SOURCES[t][kind]);
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'script-src': ["'self'", ...extra('script')],
    // MUI (emotion) injects its styles at run time.
    'style-src': ["'self'", "'unsafe-inline'"],
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

/** Replaces the policy of one response (a page whose client needs a third party). */
export function allowThirdParties(reply: FastifyReply, https: boolean, thirdParties: readonly ThirdParty[]): void {
  if (thirdParties.length > 0) reply.header('content-security-policy', serializeCsp(cspDirectives(https, thirdParties)));
}

/** Security headers of every response (@fastify/helmet): strict CSP, no framing, no referrer. */
export async function registerSecurityHeaders(app: FastifyInstance, https: boolean): Promise<void> {
  const directives = Object.fromEntries(
    Object.entries(cspDirectives(https)).map(([name, values]) => [name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()), values]),
  );
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives },
    // The provider and the API answer cross-site redirects and fetches for relying parties.
    crossOriginResourcePolicy: { policy: 'same-site' },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: https ? { maxAge: 31536000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'no-referrer' },
  });
}
