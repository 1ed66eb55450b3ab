import type { FastifyInstance } from 'fastify';

/**
 * The addresses where relying parties also look for the provider's metadata. The issuer is
 * PUBLIC_URL/oidc, so OpenID Connect Discovery puts the document at /oidc/.well-known/…; RFC 8414
 * puts an issuer-with-a-path's metadata at /.well-known/oauth-authorization-server/oidc, and a
 * library given the bare site tries /.well-known/openid-configuration. Each is sent on to the one
 * document (whose `issuer` then tells the library the issuer to configure) instead of the SPA's page.
 */
const ALIASES = ['/.well-known/openid-configuration', '/.well-known/openid-configuration/oidc', '/.well-known/oauth-authorization-server', '/.well-known/oauth-authorization-server/oidc'];

export async function discoveryAliasRoutes(app: FastifyInstance, { publicUrl }: { publicUrl: string }): Promise<void> {
  const document = `${publicUrl}/oidc/.well-known/openid-configuration`;
  for (const path of ALIASES) {
    app.get(path, { schema: { hide: true } }, async (_request, reply) => reply.redirect(document, 308));
  }
}
