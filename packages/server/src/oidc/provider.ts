import Provider, { interactionPolicy, type Account, type Adapter, type AdapterPayload, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { LOCALES } from '@passgate/contract';
import type { Config } from '../config.ts';
import type { ClientRecord, ProviderClient } from '../features/clients/clients.queries.ts';
import type { AccountRow } from '../features/users/users.queries.ts';
import type { ServerSecrets } from './server-secrets.ts';
import type { LogoutRequests } from './logout-requests.ts';
import { renderProviderError } from './provider-error-page.ts';
import { answerDependencyFailuresWith503 } from './provider-dependency-errors.ts';
import { providerFetch } from './provider-fetch.ts';
import { requestedLocale } from './requested-locale.ts';
import { ADMIN_CONSOLE_CLIENT_ID } from '../features/admin/admin-auth.ts';
import { usedStrongTwoStep } from '../features/admin/admin-two-step.ts';
import { DPOP_SIGNING_ALGS } from '../plugins/dpop-proof.ts';

/**
 * The OpenID Connect provider (panva's oidc-provider), configured in this one file. The identity
 * API completes its interactions; this file only says how the provider behaves.
 */

export interface ProviderDeps {
  config: Config;
  secrets: ServerSecrets;
  adapter: (model: string) => Adapter;
  findClient(clientId: string): Promise<ClientRecord | undefined>;
  findUser(userId: string): Promise<AccountRow | undefined>;
  avatarUrl(user: AccountRow): string | null;
  logoutRequests: LogoutRequests;
  /** Whether the client's registration screen is open (the tenant's switch and a register capability). */
  registrationOpen(clientId: string): Promise<boolean>;
  /** Whether `presented` is the client's secret, given what is stored for it (see client-secrets.ts). */
  checkClientSecret(clientId: string, stored: string, presented: string): Promise<boolean>;
}

export const SUPPORTED_SCOPES = ['openid', 'offline_access', 'profile', 'email', 'phone'];

/**
 * The claims each scope releases. Every ID token also says how and when its user signed in
 * (`amr`, `auth_time`), so that a relying party can insist on 2-step verification or a recent
 * sign-in; the provider only releases claims configured here, so they are listed with `openid`.
 */
export const SCOPE_CLAIMS = {
  openid: ['sub', 'amr', 'auth_time'],
  profile: ['name', 'picture', 'locale'],
  email: ['email', 'email_verified'],
  phone: ['phone_number', 'phone_number_verified'],
};

/** The provider metadata of a stored client. */
export function clientMetadata(client: ProviderClient): AdapterPayload {
  const confidential = client.tokenEndpointAuthMethod !== 'none';
  return {
    client_id: client.id,
    client_name: client.name,
    // The provider compares secrets through `compareClientSecret` below, against this keyed digest.
    ...(confidential && client.secretHash ? { client_secret: client.secretHash } : {}),
    token_endpoint_auth_method: client.tokenEndpointAuthMethod as AdapterPayload['token_endpoint_auth_method'],
    redirect_uris: client.redirectUris,
    post_logout_redirect_uris: client.postLogoutRedirectUris,
    grant_types: client.grantTypes,
    response_types: ['code'],
    ...(client.logoUri ? { logo_uri: client.logoUri } : {}),
    ...(client.backchannelLogoutUri
      ? { backchannel_logout_uri: client.backchannelLogoutUri, backchannel_logout_session_required: client.backchannelLogoutSessionRequired }
      : {}),
  };
}

function accountClaims(user: AccountRow, deps: ProviderDeps) {
  return {
    sub: user.id,
    name: user.name ?? undefined,
    email: user.email ?? undefined,
    email_verified: user.email ? user.email_verified === 1 : undefined,
    phone_number: user.phone_number ?? undefined,
    phone_number_verified: user.phone_number ? user.phone_number_verified === 1 : undefined,
    picture: deps.avatarUrl(user) ?? undefined,
    locale: user.locale ?? undefined,
  };
}

function loginPolicy(deps: ProviderDeps) {
  const policy = interactionPolicy.base();
  const login = policy.get('login');
  // One provider session serves every tenant's clients, so a session that belongs to a user of
  // another tenant than the client's must sign in again rather than be handed to this client.
  // To that client (prompt=none) it answers exactly as no session does: a tenant's relying party
  // must not learn that the browser is signed in to some other tenant.
  login?.checks.add(
    new interactionPolicy.Check('tenant_mismatch', 'End-User authentication is required', 'login_required', async (ctx) => {
      const accountId = ctx.oidc.session?.accountId;
      const clientId = ctx.oidc.client?.clientId;
      if (!accountId || !clientId) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      const [user, client] = await Promise.all([deps.findUser(accountId), deps.findClient(clientId)]);
      return user && client && user.tenant_id === client.tenantId ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT;
    }),
  );
  // The admin console takes only a sign-in that used an authenticator app or a device
  // (features/admin/admin-two-step.ts): a provider session begun with a password alone (the
  // account area's, say) must sign in again rather than be handed to it. The admin API checks the
  // token's `amr` as well; this spares the admin a console that can only refuse them. A sign-in
  // just made for this request passes here (as max_age's check lets it): asking again at once
  // would loop back to the same screen without a word, where the console says what to do.
  login?.checks.add(
    new interactionPolicy.Check('strong_two_step_required', 'the admin console needs a sign-in with an authenticator app or a device', (ctx) => {
      const session = ctx.oidc.session;
      if (!session?.accountId || ctx.oidc.client?.clientId !== ADMIN_CONSOLE_CLIENT_ID || ctx.oidc.result?.login) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      return usedStrongTwoStep(session.amr ?? []) ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT;
    }),
  );
  // prompt=create (OpenID Connect's "Initiating User Registration"): a relying party with a
  // 'Create account' button sends its visitor straight to the registration screen. First, so that
  // it wins over the login prompt a visitor without a session would otherwise get; an interaction
  // that ends with any sign-in (a new account activated, or an existing one after all) resolves it
  // (interactions.ts, finish).
  policy.add(new interactionPolicy.Prompt({ name: 'create', requestable: true }), 0);
  return policy;
}

/**
 * The grant of a signed-in session for the requesting client, holding every scope it asks for.
 * Passgate's clients are first-party (DESIGN.md section 1): a signed-in user has consented in
 * advance, which the sign-in screen already applies by granting at once (skip). The provider,
 * though, only found the grant it had stored, so prompt=none from a client the user had not used
 * yet (or asking a new scope) was answered consent_required instead of a code. Granted only when
 * the login prompt has nothing to ask (`login`, the policy above): a session of another tenant's
 * user, or one that must sign in again (prompt=login, max_age, the admin console's second
 * factor), is granted by that sign-in, and the client is not named in the session before it.
 */
async function firstPartyGrant(ctx: KoaContextWithOIDC, login: interactionPolicy.Prompt) {
  const { client, session, params } = ctx.oidc;
  const grantId = ctx.oidc.result?.consent?.grantId || (client && session?.grantIdFor(client.clientId));
  const stored = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
  // Resuming an interaction: what the sign-in screen granted is the answer.
  const accountId = session?.accountId;
  if (ctx.oidc.result || !client || !accountId) return stored;
  for (const check of login.checks) if (await check.check(ctx)) return stored;

  const requested = typeof params?.scope === 'string' ? params.scope.split(' ').filter(Boolean) : [];
  const grant = stored && stored.accountId === accountId && stored.clientId === client.clientId ? stored : new ctx.oidc.provider.Grant({ accountId, clientId: client.clientId });
  const granted = new Set((grant.getOIDCScope() ?? '').split(' '));
  if (grant === stored && requested.every((scope) => granted.has(scope))) return grant;
  grant.addOIDCScope(requested.join(' '));
  await grant.save();
  return grant;
}

/**
 * The id_token_hint proves who is being logged out only when it was issued to this browser's
 * signed-in account (and, where it names one, in this session). Any valid ID token passes the
 * provider's own check, even one another user holds: a link carrying the sender's own token
 * must not log the victim out without asking.
 */
function hintNamesSession(hint: unknown, session: { accountId?: string; sidFor(clientId: string): string | undefined }): boolean {
  const payload = (hint as { payload?: { sub?: unknown; sid?: unknown; aud?: unknown } } | undefined)?.payload;
  if (!payload || !session.accountId || payload.sub !== session.accountId) return false;
  if (payload.sid === undefined) return true;
  return typeof payload.aud === 'string' && payload.sid === session.sidFor(payload.aud);
}

export function createProvider(deps: ProviderDeps): Provider {
  const { config, secrets } = deps;
  const secure = config.publicUrl.startsWith('https://');
  const policy = loginPolicy(deps);
  const loginPrompt = policy.get('login');
  if (!loginPrompt) throw new Error('the interaction policy has no login prompt');

  const configuration: Configuration = {
    adapter: deps.adapter as unknown as Configuration['adapter'],
    jwks: secrets.jwks as Configuration['jwks'],
    cookies: {
      keys: secrets.cookieKeys,
      long: { signed: true, httpOnly: true, sameSite: 'lax', secure },
      // Path '/': the interaction cookie (the provider would scope it to /login) must also reach
      // /api, where every call that takes a challenge checks the browser holds it. The resume
      // cookie keeps its own per-interaction path (the provider sets it after these options).
      short: { signed: true, httpOnly: true, sameSite: 'lax', secure, path: '/' },
    },
    scopes: SUPPORTED_SCOPES,
    claims: SCOPE_CLAIMS,
    // What the sign-in behind an access token proved (`amr`, as its ID token says), kept with the
    // token: the admin API and an admin's 2-step changes require the very sign-in to have used a
    // strong second factor (features/admin/admin-two-step.ts), and introspection tells a resource
    // server the same.
    extraTokenClaims: async (ctx, token) => {
      if (token.kind !== 'AccessToken') return undefined;
      const source = ctx?.oidc.entities.AuthorizationCode ?? ctx?.oidc.entities.RefreshToken;
      return source?.amr ? { amr: source.amr } : undefined;
    },
    // Relying parties read the profile from the ID token as well as from userinfo.
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    enabledJWA: {
      idTokenSigningAlgValues: ['RS256', 'ES256'],
      userinfoSigningAlgValues: ['RS256', 'ES256'],
      // The provider's default list, said here so the identity API checks proofs against the same
      // (DPoP is on by default: a token request with a proof gets a token bound to its key).
      dPoPSigningAlgValues: DPOP_SIGNING_ALGS,
    },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      // A client may introspect or revoke only the tokens issued to itself (RFC 7662 section 4,
      // RFC 7009 section 2.1). The provider's default lets any confidential client read the claims
      // of another client's token, even one of another tenant, and answers a foreign revocation
      // with an error that confirms the token exists. `false` answers `active: false` and an empty
      // 200, the same as for an unknown token, so the caller learns nothing and the token lives on.
      revocation: { enabled: true, allowedPolicy: tokenIssuedToCaller },
      introspection: { enabled: true, allowedPolicy: tokenIssuedToCaller },
      userinfo: { enabled: true },
      // Relying parties with a backchannel_logout_uri get a signed logout token when a session of
      // theirs ends: here on RP-initiated logout, elsewhere through features/sessions/backchannel-logout.ts.
      backchannelLogout: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx: KoaContextWithOIDC) {
          const session = ctx.oidc.session;
          const state = session?.state as EndSessionState | undefined;
          if (!session || !state) throw new Error('end-session state is missing');
          const request = await deps.logoutRequests.create({
            sessionId: session.jti,
            xsrf: state.secret,
            clientId: ctx.oidc.client?.clientId ?? null,
            accountId: session.accountId ?? null,
            postLogoutRedirectUri: state.postLogoutRedirectUri ?? null,
            state: state.state ?? null,
            hasIdTokenHint: hintNamesSession(ctx.oidc.entities.IdTokenHint, session),
          });
          const url = new URL('/logout', config.publicUrl);
          url.searchParams.set('challenge', request.id);
          // As on /login: the page, reached again once the request is spent, still knows its client.
          if (request.clientId) url.searchParams.set('client_id', request.clientId);
          // The relying party's language (ui_locales on the end-session request) holds on the way out too.
          const locale = requestedLocale((ctx.oidc.params ?? {}) as Record<string, unknown>);
          if (locale) url.searchParams.set('locale', locale);
          // Kept with the session's end-session state for the screen after the logout (see
          // forwardToLoggedOutScreen), which the provider reaches without the request's parameters.
          if (locale) state.locale = locale;
          ctx.status = 303;
          ctx.redirect(url.toString());
        },
        // The provider's own 'Sign-out Success' page is English only and leads nowhere: Passgate's
        // screen says it in the user's language and leads back to the client or to a sign-in.
        async postLogoutSuccessSource(ctx: KoaContextWithOIDC) {
          const url = new URL('/logged-out', config.publicUrl);
          // Only a client the provider found (it checks the client_id of this request).
          if (ctx.oidc.client) url.searchParams.set('client_id', ctx.oidc.client.clientId);
          const locale = requestedLocale(ctx.query);
          if (locale) url.searchParams.set('locale', locale);
          ctx.status = 303;
          ctx.redirect(url.toString());
        },
      },
    },
    // `locale` (like `ui_locales`) lets a relying party choose the language of the hosted pages.
    extraParams: ['locale'],
    // What a relying party can ask of the hosted pages: their languages, and the prompts above.
    discovery: {
      claim_types_supported: ['normal'],
      ui_locales_supported: [...LOCALES],
      prompt_values_supported: ['none', ...policy.filter((prompt) => prompt.requestable).map((prompt) => prompt.name)],
    },
    interactions: {
      policy,
      url: async (_ctx, interaction) => {
        // A client that cannot register anybody (tenant switch or capabilities) gets the login
        // screen for prompt=create, as if the prompt were not there, rather than a refusal.
        const register = interaction.prompt.name === 'create' && (await deps.registrationOpen(String(interaction.params.client_id)));
        const url = new URL(register ? '/register' : '/login', config.publicUrl);
        url.searchParams.set('challenge', interaction.uid);
        // Kept in the address so that the page, reloaded or reached by Back after the request has
        // expired or finished, can still show the client and lead back to it.
        url.searchParams.set('client_id', String(interaction.params.client_id));
        const locale = requestedLocale(interaction.params);
        if (locale) url.searchParams.set('locale', locale);
        return url.toString();
      },
    },
    async findAccount(_ctx, sub): Promise<Account | undefined> {
      const user = await deps.findUser(sub);
      if (!user || user.status !== 'active') return undefined;
      return {
        accountId: user.id,
        claims: async () => accountClaims(user, deps),
      };
    },
    loadExistingGrant: (ctx) => firstPartyGrant(ctx, loginPrompt),
    // First-party clients: no consent screen, and offline_access is honoured without prompt=consent.
    async issueRefreshToken(_ctx, client, code) {
      return client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access');
    },
    ttl: {
      AccessToken: config.ttl.accessToken,
      AuthorizationCode: 60,
      IdToken: config.ttl.idToken,
      Interaction: config.ttl.interaction,
      Session: config.ttl.session,
      Grant: config.ttl.refreshToken,
      RefreshToken: config.ttl.refreshToken,
    },
    renderError: renderProviderError,
    fetch: providerFetch(config.outgoing.allowPrivateHosts),
  };

  const provider = new Provider(config.issuer, configuration);
  // Every request reaches the provider through asPublicRequest, which sets the forwarded headers
  // from PUBLIC_URL and Fastify's own view of the client address: they are always to be believed.
  provider.proxy = true;
  answerDependencyFailuresWith503(provider);
  forwardToLoggedOutScreen(provider, config.issuer);

  // Client secrets are stored as keyed digests, so the provider compares through them (the
  // extension point its author recommends for hashed secrets; symmetric algorithms stay disabled).
  provider.Client.prototype.compareClientSecret = function compareClientSecret(this: { clientId: string; clientSecret?: string }, actual: string) {
    return this.clientSecret ? deps.checkClientSecret(this.clientId, this.clientSecret, actual) : Promise.resolve(false);
  } as never;

  // oidc-provider drops offline_access unless the request says prompt=consent. Passgate's clients
  // are first-party and there is no consent screen, so a request for offline_access from a client
  // allowed refresh tokens is treated as if it had asked for the (automatic) consent.
  provider.use(async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === '/auth' && typeof ctx.query.scope === 'string') {
      const scopes = ctx.query.scope.split(' ');
      const prompt = typeof ctx.query.prompt === 'string' ? ctx.query.prompt.split(' ') : [];
      if (scopes.includes('offline_access') && !prompt.includes('consent') && !prompt.includes('none')) {
        // Rewriting the query changes ctx.url, from which the provider works out where it is
        // mounted; say it outright so its resume URLs keep the /oidc prefix.
        ctx.mountPath = new URL(config.issuer).pathname;
        ctx.query = { ...ctx.query, prompt: [...prompt, 'consent'].join(' ') };
      }
    }
    await next();
  });

  return provider;
}

/** What the provider keeps in the session between the end-session request and its confirmation, and Passgate's `locale`. */
interface EndSessionState {
  secret: string;
  clientId?: string;
  state?: string;
  postLogoutRedirectUri?: string;
  locale?: string;
}

/**
 * A confirmed logout without a post-logout redirect URI ends on the provider's success address,
 * which the provider gives the client_id only for a logout from that one client, and never the
 * language. Passgate's confirmation always ends the whole session (logout=yes), so the client the
 * end-session request named, and its language, are added here for postLogoutSuccessSource.
 */
function forwardToLoggedOutScreen(provider: Provider, issuer: string): void {
  const successUrl = `${issuer}/session/end/success`;
  provider.use(async (ctx, next) => {
    await next();
    const location = ctx.response.get('location');
    if (ctx.method !== 'POST' || ctx.status !== 303 || location !== successUrl) return;
    const url = new URL(location);
    const oidc = (ctx as Partial<KoaContextWithOIDC>).oidc;
    if (oidc?.client) url.searchParams.set('client_id', oidc.client.clientId);
    const locale = (oidc?.session?.state as EndSessionState | undefined)?.locale;
    if (locale) url.searchParams.set('locale', locale);
    ctx.redirect(url.toString());
  });
}

function tokenIssuedToCaller(_ctx: KoaContextWithOIDC, client: { clientId: string }, token: { clientId?: string | undefined }): boolean {
  return token.clientId === client.clientId;
}
