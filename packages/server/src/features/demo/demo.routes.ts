import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as oidc from 'openid-client';
import type { AppContext } from '../../context.ts';
import { DEMO_CLIENT_SECRETS } from '../../seed/demo-seed.ts';
import { createDemoCookies } from './demo-cookies.ts';
import { demoPage, type DemoClientInfo, type DemoPageModel, type DemoResult } from './demo-page.ts';

const CLIENTS: DemoClientInfo[] = [
  { id: 'demo-app', label: 'Demo App', description: 'every capability, Vietnamese by default, blue theme' },
  { id: 'partner-shop', label: 'Partner Shop', description: 'e-mail and password sign-in only, English by default, green and orange theme' },
];
const SCOPE = 'openid profile email phone offline_access';
const TX_COOKIE = 'demo_tx';
const RESULT_COOKIE = 'demo_result';
/** Browsers drop cookies past about 4 KB; a larger result is shown at once instead. */
const MAX_COOKIE_VALUE = 3800;
const SIGNED_OUT_STATE = 'signed-out';

interface DemoTransaction {
  client: string;
  codeVerifier: string;
  state: string;
  nonce: string;
  locale?: 'vi' | 'en';
}

function describeError(error: unknown): string {
  if (error instanceof oidc.ResponseBodyError) return `${error.error}${error.error_description ? `: ${error.error_description}` : ''}`;
  if (error instanceof oidc.AuthorizationResponseError) return `${error.error}${error.error_description ? `: ${error.error_description}` : ''}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * Development only: a real relying party on the same server. `/demo` starts a sign-in as
 * `demo-app` or `partner-shop` (PKCE, state, nonce) and shows the claims that came back.
 */
export async function demoRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const { issuer, publicUrl } = ctx.config;
  const redirectUri = `${publicUrl}/demo/callback`;
  const cookies = createDemoCookies(ctx.keys, publicUrl.startsWith('https://'));
  const insecure = issuer.startsWith('http://');

  // Discovery happens on first use (the server cannot fetch its own metadata before it listens).
  const configurations = new Map<string, Promise<oidc.Configuration>>();
  function configurationFor(clientId: string): Promise<oidc.Configuration> {
    let pending = configurations.get(clientId);
    if (!pending) {
      pending = oidc.discovery(new URL(issuer), clientId, undefined, oidc.ClientSecretBasic(DEMO_CLIENT_SECRETS[clientId]), {
        ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
      });
      pending.catch(() => configurations.delete(clientId));
      configurations.set(clientId, pending);
    }
    return pending;
  }

  function logoutUrl(result: DemoResult): string {
    const params = new URLSearchParams({ client_id: result.client, post_logout_redirect_uri: `${publicUrl}/demo`, state: SIGNED_OUT_STATE });
    if (result.locale) params.set('ui_locales', result.locale);
    return `${issuer}/session/end?${params.toString()}`;
  }

  function page(reply: FastifyReply, status: number, model: Omit<DemoPageModel, 'clients'>, setCookies: string[] = []) {
    cookies.set(reply, setCookies);
    return reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(demoPage({ clients: CLIENTS, ...model }));
  }

  const hidden = { schema: { hide: true } };

  app.get('/demo', hidden, async (request: FastifyRequest<{ Querystring: Record<string, string | undefined> }>, reply) => {
    if (request.query.state === SIGNED_OUT_STATE) {
      return page(reply, 200, { notice: 'You are signed out of Passgate.' }, [cookies.clear(RESULT_COOKIE)]);
    }
    const result = cookies.read<DemoResult>(request, RESULT_COOKIE);
    return page(reply, 200, result ? { result, logoutUrl: logoutUrl(result) } : {});
  });

  app.get('/demo/login', hidden, async (request: FastifyRequest<{ Querystring: Record<string, string | undefined> }>, reply) => {
    const clientId = request.query.client ?? '';
    if (!CLIENTS.some((c) => c.id === clientId)) {
      return page(reply, 400, { error: { title: 'Unknown client', detail: `Choose ${CLIENTS.map((c) => c.id).join(' or ')}.` } });
    }
    const locale = request.query.locale === 'vi' || request.query.locale === 'en' ? request.query.locale : undefined;
    try {
      const configuration = await configurationFor(clientId);
      const tx: DemoTransaction = { client: clientId, codeVerifier: oidc.randomPKCECodeVerifier(), state: oidc.randomState(), nonce: oidc.randomNonce(), ...(locale ? { locale } : {}) };
      const url = oidc.buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri,
        scope: SCOPE,
        code_challenge: await oidc.calculatePKCECodeChallenge(tx.codeVerifier),
        code_challenge_method: 'S256',
        state: tx.state,
        nonce: tx.nonce,
        ...(locale ? { ui_locales: locale, locale } : {}),
        // A relying party's 'Create account' button: the registration screen instead of the login screen.
        ...(request.query.prompt === 'create' ? { prompt: 'create' } : {}),
      });
      cookies.set(reply, [cookies.serialize(TX_COOKIE, tx, 600)]);
      return reply.header('cache-control', 'no-store').redirect(url.href, 303);
    } catch (error) {
      request.log.warn({ reason: describeError(error) }, 'demo: starting a sign-in failed');
      return page(reply, 502, { error: { title: 'Could not start the sign-in', detail: describeError(error) } });
    }
  });

  app.get('/demo/callback', hidden, async (request: FastifyRequest<{ Querystring: Record<string, string | undefined> }>, reply) => {
    const clearTx = cookies.clear(TX_COOKIE);
    const { error, error_description: description, state } = request.query;
    if (error) {
      return page(reply, 400, { error: { title: `The sign-in did not complete (${error})`, detail: description } }, [clearTx]);
    }
    const tx = cookies.read<DemoTransaction>(request, TX_COOKIE);
    if (!tx || !state || state !== tx.state) {
      return page(
        reply,
        400,
        { error: { title: 'This sign-in response does not match a sign-in started here', detail: 'The state is missing, wrong or expired. Start again.' } },
        [clearTx],
      );
    }
    try {
      const configuration = await configurationFor(tx.client);
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      const tokens = await oidc.authorizationCodeGrant(configuration, new URL(`${redirectUri}${query}`), {
        pkceCodeVerifier: tx.codeVerifier,
        expectedState: tx.state,
        expectedNonce: tx.nonce,
        idTokenExpected: true,
      });
      const idTokenClaims = { ...(tokens.claims() ?? {}) } as Record<string, unknown>;
      const result: DemoResult = {
        client: tx.client,
        idTokenClaims,
        userinfo: null,
        scope: tokens.scope ?? null,
        refreshTokenIssued: Boolean(tokens.refresh_token),
        at: Date.now(),
        ...(tx.locale ? { locale: tx.locale } : {}),
      };
      try {
        result.userinfo = { ...(await oidc.fetchUserInfo(configuration, tokens.access_token, String(idTokenClaims.sub))) };
      } catch (userinfoError) {
        result.userinfoError = describeError(userinfoError);
      }
      const resultCookie = cookies.serialize(RESULT_COOKIE, result, 3600);
      if (resultCookie.length > MAX_COOKIE_VALUE) {
        return page(reply, 200, { result, logoutUrl: logoutUrl(result) }, [clearTx, cookies.clear(RESULT_COOKIE)]);
      }
      cookies.set(reply, [clearTx, resultCookie]);
      return reply.header('cache-control', 'no-store').redirect('/demo', 303);
    } catch (exchangeError) {
      request.log.warn({ reason: describeError(exchangeError) }, 'demo: completing a sign-in failed');
      return page(reply, 502, { error: { title: 'The code exchange failed', detail: describeError(exchangeError) } }, [clearTx]);
    }
  });
}
