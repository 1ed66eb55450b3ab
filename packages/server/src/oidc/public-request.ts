import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { ErrorCode } from '@passgate/contract';
import { envelope } from '../plugins/errors.ts';

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
 * Middie hands every path under /oidc to the provider, whose router answers one it does not know
 * with Koa's bare text 'Not Found'. The same JSON 404 as the rest of the server's machine paths
 * (DESIGN.md section 11) tells a caller with a mistyped endpoint what happened, with the request id.
 * Runs around the provider's router, so only a path no route took (no body set) is rewritten.
 */
export function answerUnknownProviderPathsWithJson404(provider: Provider): void {
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.status !== 404 || ctx.body !== undefined) return;
    // middie strips /oidc from req.url; the caller asked for the full path.
    const req = ctx.req as IncomingMessage & { id?: string; originalUrl?: string };
    const path = (req.originalUrl ?? ctx.url).split('?')[0];
    ctx.status = 404;
    ctx.body = envelope(ErrorCode.NotFound, undefined, `Not found: ${ctx.method} ${path}`, req.id);
  });
}
