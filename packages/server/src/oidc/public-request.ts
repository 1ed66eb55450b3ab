import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { ErrorCode } from '@passgate/contract';
import { envelope } from '../plugins/errors.ts';
import { methodNotAllowed } from '../plugins/method-not-allowed.ts';

/**
 * Hands a request to the provider as addressed to PUBLIC_URL, whatever Host and X-Forwarded-*
 * headers it came with. The provider builds its URLs (discovery, resume, end-session) from the
 * request; they must be PUBLIC_URL's, never a caller's choice. And behind a TLS-terminating proxy
 * that sends no X-Forwarded-Proto, an https PUBLIC_URL still gets its Secure cookies instead of a
 * 500 ('Cannot send secure cookie over unencrypted connection'). The client address is the one
 * Fastify settled on under TRUST_PROXY (middie puts it on the raw request), so both agree.
 */
export function asPublicRequest(publicUrl: string, handler: (req: IncomingMessage, res: ServerResponse) => unknown) {
  const { host, protocol } = new URL(publicUrl);
  const proto = protocol.slice(0, -1);
  return (req: IncomingMessage & { ip?: string }, res: ServerResponse) => {
    req.headers.host = host;
    req.headers['x-forwarded-host'] = host;
    req.headers['x-forwarded-proto'] = proto;
    if (req.ip) req.headers['x-forwarded-for'] = req.ip;
    else delete req.headers['x-forwarded-for'];
    return handler(req, res);
  };
}

/**
 * The methods each of the provider's endpoints answers, by the provider's route name. The
 * authorization and end-session endpoints take GET only: oidc-provider takes POST there only with
 * its session cookie SameSite=None, as a cross-site POST carries no Lax cookie, and every cookie of
 * Passgate stays SameSite=Lax (DESIGN.md section 9).
 */
const PROVIDER_ENDPOINT_METHODS: Record<string, string[]> = {
  authorization: ['GET'],
  end_session: ['GET'],
  end_session_confirm: ['POST'],
  token: ['POST'],
  userinfo: ['GET', 'POST'],
  jwks: ['GET'],
  revocation: ['POST'],
  introspection: ['POST'],
  pushed_authorization_request: ['POST'],
};

const DISCOVERY_PATHS = ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server'];

/**
 * Middie hands every path under /oidc to the provider, whose router answers one it does not know
 * with Koa's bare text 'Not Found'. The same JSON 404 as the rest of the server's machine paths
 * (DESIGN.md section 11) tells a caller with a mistyped endpoint what happened, with the request id;
 * an endpoint called with a method it does not take answers 405 with the methods it does take in
 * `Allow` (RFC 9110 section 15.5.6), so a relying party that POSTs its authorization request learns
 * to send it as GET instead of hunting for a missing endpoint.
 * Runs around the provider's router, so only a request no route took (no body set) is rewritten.
 */
export function answerUnmatchedProviderRequests(provider: Provider): void {
  const methodsByPath = new Map<string, string[]>([
    ...Object.entries(PROVIDER_ENDPOINT_METHODS).map(([name, methods]): [string, string[]] => [provider.pathFor(name, { mountPath: '' }), methods]),
    // The discovery documents have fixed paths, not named routes (the CORS preflight's OPTIONS is answered by the provider).
    ...DISCOVERY_PATHS.map((path): [string, string[]] => [path, ['GET']]),
  ]);
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.status !== 404 || ctx.body !== undefined) return;
    // middie strips /oidc from req.url; the caller asked for the full path.
    const req = ctx.req as IncomingMessage & { id?: string; originalUrl?: string };
    const path = (req.originalUrl ?? ctx.url).split('?')[0] ?? ctx.url;
    const allowed = methodsByPath.get(ctx.path.length > 1 ? ctx.path.replace(/\/$/, '') : ctx.path);
    if (allowed && !allowed.includes(ctx.method)) {
      const answer = methodNotAllowed(ctx.method, path, allowed, req.id);
      ctx.status = 405;
      ctx.set('allow', answer.allow);
      ctx.body = answer.body;
      return;
    }
    ctx.status = 404;
    ctx.body = envelope(ErrorCode.NotFound, undefined, `Not found: ${ctx.method} ${path}`, req.id);
  });
}
