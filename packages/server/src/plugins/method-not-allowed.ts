import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '@passgate/contract';
import { envelope } from './errors.ts';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * The methods the server's own routes take at `path`, for a request no route took: empty when no
 * route has the path at all. A catch-all (the static files' `/*`) does not count: it would give
 * every unknown path a GET. The provider's endpoints are not Fastify routes; they answer for
 * themselves (oidc/public-request.ts).
 */
export function allowedMethodsAt(app: FastifyInstance, path: string): string[] {
  return METHODS.filter((method) => {
    const route = app.findRoute({ method, url: path });
    return route !== null && (route.params as Record<string, string | undefined>)['*'] === undefined;
  });
}

/**
 * What a path answers a method it does not take (RFC 9110 section 15.5.6), for the API's routes and
 * the provider's endpoints alike: the methods it takes for the Allow header (HEAD wherever GET), and
 * the error envelope (1405) saying which to use, so a caller learns to send the right one instead of
 * hunting for a path that exists.
 */
export function methodNotAllowed(method: string, path: string, allowed: readonly string[], requestId: string | undefined) {
  return {
    allow: [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : [])].join(', '),
    body: envelope(ErrorCode.MethodNotAllowed, undefined, `${method} is not allowed on ${path}: use ${allowed.join(' or ')}`, requestId),
  };
}
