import type { FastifyInstance } from 'fastify';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

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
