import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { SCOPE_CLAIMS, SUPPORTED_SCOPES } from '../../src/oidc/provider.ts';

/**
 * The refresh ceiling: oidc-provider as its author ships it (same major version as Passgate's,
 * its in-memory adapter, no Fastify, no database), configured like Passgate where it changes
 * the work of a refresh grant: RS256 signing keys first, the same scopes and claims in the
 * ID token, a public client whose refresh tokens rotate. Prints one JSON line: where its token
 * endpoint is and `count` (argv[2]) refresh tokens minted directly through its models.
 */

const count = Number(process.argv[2] ?? 8);
const SCOPE = 'openid offline_access profile email phone';
const CLIENT_ID = 'bare-public';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
const claims = { name: 'Bench User', email: 'bench@example.com', email_verified: true, phone_number: '0900000000', phone_number_verified: false, locale: 'vi' };

const provider = new Provider('http://127.0.0.1/bare', {
  clients: [{ client_id: CLIENT_ID, token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], redirect_uris: ['http://127.0.0.1/callback'] }],
  jwks: { keys: [{ ...rsa, kid: 'rs', alg: 'RS256', use: 'sig' }, { ...ec, kid: 'es', alg: 'ES256', use: 'sig' }] } as never,
  cookies: { keys: ['bare-provider-bench-cookie-key'] },
  // Passgate's own scopes and claims, so that both do the same claims work.
  scopes: SUPPORTED_SCOPES,
  claims: SCOPE_CLAIMS,
  conformIdTokenClaims: false,
  pkce: { required: () => true },
  features: { devInteractions: { enabled: false }, userinfo: { enabled: true } },
  async findAccount(_ctx, sub) {
    return { accountId: sub, claims: async () => ({ sub, ...claims }) };
  },
  ttl: { AccessToken: 3600, IdToken: 3600, Grant: 14 * 86400, RefreshToken: 14 * 86400 },
});

const client = await provider.Client.find(CLIENT_ID);
if (!client) throw new Error('the bare provider has no client');
const refreshTokens: string[] = [];
for (let i = 0; i < count; i += 1) {
  // What a code exchange leaves behind: a grant with the scopes, and a refresh token bound to it.
  const accountId = `bench-user-${i}`;
  const grant = new provider.Grant({ accountId, clientId: CLIENT_ID });
  grant.addOIDCScope(SCOPE);
  const grantId = await grant.save();
  const token = new provider.RefreshToken({ accountId, client, grantId, scope: SCOPE, gty: 'authorization_code', authTime: Math.floor(Date.now() / 1000) });
  refreshTokens.push(await token.save());
}

const server = createServer(provider.callback());
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(JSON.stringify({ tokenUrl: `http://127.0.0.1:${port}/token`, clientId: CLIENT_ID, refreshTokens }));
});
