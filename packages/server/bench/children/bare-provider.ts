import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verify } from '@node-rs/argon2';
import Provider from 'oidc-provider';
import { hashSecret } from '../../src/lib/passwords.ts';
import { SCOPE_CLAIMS, SUPPORTED_SCOPES } from '../../src/oidc/provider.ts';

/**
 * The ceilings of the library itself: oidc-provider as its author ships it (same major version
 * as Passgate's, its in-memory adapter, no Fastify, no database), configured like Passgate where
 * it changes the work: RS256 signing keys first, the same scopes and claims in the ID token, a
 * public client whose refresh tokens rotate, a confidential client with a secret.
 *
 * Two measurements use it. Refresh grants: `count` (argv[2]) refresh tokens minted directly
 * through its models. Whole sign-ins: the smallest login an application on this library can
 * have (an interaction URL, a JSON login call that verifies one argon2id hash with Passgate's
 * parameters and grants the requested scopes, the provider's own resume and code exchange), so
 * that the sign-in's share of the argon2 rate has a measured upper bound for any server built on
 * it. Prints one JSON line.
 */

const count = Number(process.argv[2] ?? 8);
const SCOPE = 'openid offline_access profile email phone';
const PUBLIC_ID = 'bare-public';
const CONFIDENTIAL_ID = 'bare-confidential';
const CONFIDENTIAL_SECRET = 'bare-confidential-secret-of-bench-only';
const USERNAME = 'bench-user';
const PASSWORD = 'bench-password-1';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
const claims = { name: 'Bench User', email: 'bench@example.com', email_verified: true, phone_number: '0900000000', phone_number_verified: false, locale: 'vi' };
// Hashed by the server's own function, so the verification below has Passgate's parameters.
const passwordHash = await hashSecret(PASSWORD);

const server = createServer();
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const redirectUri = `${issuer}/callback`;

const provider = new Provider(issuer, {
  clients: [
    { client_id: PUBLIC_ID, token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], redirect_uris: [redirectUri] },
    { client_id: CONFIDENTIAL_ID, client_secret: CONFIDENTIAL_SECRET, grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], redirect_uris: [redirectUri] },
  ],
  jwks: { keys: [{ ...rsa, kid: 'rs', alg: 'RS256', use: 'sig' }, { ...ec, kid: 'es', alg: 'ES256', use: 'sig' }] } as never,
  cookies: { keys: ['bare-provider-bench-cookie-key'] },
  // Passgate's own scopes and claims, so that both do the same claims work.
  scopes: SUPPORTED_SCOPES,
  claims: SCOPE_CLAIMS,
  conformIdTokenClaims: false,
  pkce: { required: () => true },
  interactions: { url: (_ctx, interaction) => `/login?challenge=${interaction.uid}` },
  features: { devInteractions: { enabled: false }, userinfo: { enabled: true } },
  async findAccount(_ctx, sub) {
    return { accountId: sub, claims: async () => ({ sub, ...claims }) };
  },
  ttl: { AccessToken: 3600, IdToken: 3600, Grant: 14 * 86400, RefreshToken: 14 * 86400, Interaction: 600, Session: 86400 },
});

async function jsonBody(req: IncomingMessage): Promise<{ username?: string; password?: string }> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return JSON.parse(text) as { username?: string; password?: string };
}

/** POST /login: one argon2id verification, then the provider's result with a grant of the requested scopes. */
async function login(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await jsonBody(req);
  const details = await provider.interactionDetails(req, res);
  if (body.username !== USERNAME || !(await verify(passwordHash, body.password ?? ''))) {
    res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"wrong"}');
    return;
  }
  const grant = new provider.Grant({ accountId: USERNAME, clientId: String(details.params.client_id) });
  grant.addOIDCScope(String(details.params.scope));
  const grantId = await grant.save();
  const redirectTo = await provider.interactionResult(req, res, { login: { accountId: USERNAME, amr: ['pwd'], remember: true }, consent: { grantId } });
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ redirectTo }));
}

const callback = provider.callback();
server.on('request', (req, res) => {
  if (req.method === 'POST' && req.url === '/login') {
    login(req, res).catch((error: unknown) => res.writeHead(500).end(String(error)));
    return;
  }
  callback(req, res);
});

const client = await provider.Client.find(PUBLIC_ID);
if (!client) throw new Error('the bare provider has no client');
const refreshTokens: string[] = [];
for (let i = 0; i < count; i += 1) {
  // What a code exchange leaves behind: a grant with the scopes, and a refresh token bound to it.
  const accountId = `bench-user-${i}`;
  const grant = new provider.Grant({ accountId, clientId: PUBLIC_ID });
  grant.addOIDCScope(SCOPE);
  const grantId = await grant.save();
  const token = new provider.RefreshToken({ accountId, client, grantId, scope: SCOPE, gty: 'authorization_code', authTime: Math.floor(Date.now() / 1000) });
  refreshTokens.push(await token.save());
}

console.log(
  JSON.stringify({
    tokenUrl: `${issuer}/token`,
    clientId: PUBLIC_ID,
    refreshTokens,
    signIn: { issuer, clientId: CONFIDENTIAL_ID, secret: CONFIDENTIAL_SECRET, redirectUri, username: USERNAME, password: PASSWORD },
  }),
);
