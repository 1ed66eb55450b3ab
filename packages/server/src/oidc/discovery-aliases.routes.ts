import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * The addresses where relying parties also look for the provider's metadata. The issuer is
 * PUBLIC_URL/oidc, so OpenID Connect Discovery puts the document at /oidc/.well-known/…, and a
 * library given the bare site tries /.well-known/openid-configuration: that one (and RFC 8414's
 * name at the root) is sent on to the document, whose `issuer` then tells the library the issuer
 * to configure, instead of the SPA's page.
 */
const ALIASES = ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server'];

/**
 * The issuer's metadata where the well-known name goes before the issuer's path: RFC 8414
 * section 3.1 (`/.well-known/oauth-authorization-server/oidc`), and the same form with OpenID's
 * name, which some libraries build. There the document itself is answered, 200 with the JSON as
 * RFC 8414 section 3.2 requires: a library that follows no redirects (openid-client with
 * `algorithm: 'oauth2'`, oauth4webapi) looks nowhere else and fails on a 308. Each maps to the
 * provider's own document of that name.
 */
export const ISSUER_METADATA_PATHS: ReadonlyArray<readonly [path: string, document: string]> = [
  ['/.well-known/oauth-authorization-server/oidc', '/.well-known/oauth-authorization-server'],
  ['/.well-known/openid-configuration/oidc', '/.well-known/openid-configuration'],
];

export async function discoveryAliasRoutes(app: FastifyInstance, { publicUrl }: { publicUrl: string }): Promise<void> {
  const document = `${publicUrl}/oidc/.well-known/openid-configuration`;
  for (const path of ALIASES) {
    app.get(path, { schema: { hide: true } }, async (_request, reply) => reply.redirect(document, 308));
  }
}

/**
 * A middie handler for one of ISSUER_METADATA_PATHS: hands the request to the provider (`provider`,
 * as mounted at /oidc) as a request for `document`, so its answer (CORS, the 405 of a method it
 * does not take) is the one of /oidc/.well-known/…. A longer path is not this address (next()).
 */
export function issuerMetadataInPlace(document: string, provider: (req: IncomingMessage, res: ServerResponse) => unknown) {
  return (req: IncomingMessage & { baseUrl?: string }, res: ServerResponse, next: () => void) => {
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    if (path !== '/' && path !== '') {
      next();
      return;
    }
    req.url = document + (queryAt === -1 ? '' : url.slice(queryAt));
    // The provider works out where it is mounted from the original address minus its own path,
    // which fails for this one; it then takes baseUrl, so the endpoints it lists keep /oidc.
    req.baseUrl = '/oidc';
    void provider(req, res);
  };
}
