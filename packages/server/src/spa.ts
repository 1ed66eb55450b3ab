import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { DEFAULT_LOCALE, ErrorCode, LOCALE_COOKIE, effectiveCapabilities, type Locale, type LoginRequestInfo } from '@passgate/contract';
import type { AppContext } from './context.ts';
import type { ClientRecord } from './features/clients/clients.queries.ts';
import { envelope } from './plugins/errors.ts';
import { allowedMethodsAt, methodNotAllowed } from './plugins/method-not-allowed.ts';
import { unusableTextAt } from './plugins/unusable-text.ts';
import { allowThirdParties, type ThirdParty } from './plugins/security-headers.ts';
import { readBrowserHold } from './plugins/browser-binding.ts';
import { runtimeConfigWith } from './features/runtime-config.routes.ts';
import { ACCOUNT_CLIENT_ID } from './plugins/account-auth.ts';
import { isDependencyFailure } from './lib/dependency-errors.ts';
import { TimedOut, withTimeout } from './lib/with-timeout.ts';
import { loginRequestForPage } from './features/login-flow/login-request-in-page.ts';
import { injectHead, SpaHead } from './spa-head.ts';
import { hasSignInShell, injectShell, SHELL_STYLE, signInShell } from './sign-in-shell.ts';
import { createImageInliner, type ImageInliner } from './inline-images.ts';
import { encodePage } from './page-encoding.ts';
import { parseCookieHeader } from './lib/cookies.ts';
import { ACCOUNT_SHELL_STYLE, accountShell, hasAccountShell } from './account-shell.ts';

/**
 * The single-page app: hashed assets (precompressed at build time) cached for long, every other
 * page answered with index.html. A login-flow page whose client uses reCAPTCHA, or Google or
 * Facebook sign-in, gets a policy that lets that script in; every other page keeps the strict one.
 */
export async function registerSpa(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const distDir = ctx.config.webDistDir;
  const indexFile = join(distDir, 'index.html');
  const https = ctx.config.publicUrl.startsWith('https://');
  if (existsSync(distDir)) {
    await app.register(fastifyStatic, {
      root: distDir,
      index: false,
      wildcard: true,
      preCompressed: true,
      // With no index file, @fastify/send answers a directory path (`/` above all) 403 whenever the
      // request asks for no encoding (no Accept-Encoding, or identity); a directory is never a file
      // to send, so it goes to the page handler below like any other route of the SPA.
      allowedPath: (pathname) => !pathname.endsWith('/'),
      cacheControl: false,
      setHeaders: (res, path) => {
        res.setHeader('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  // Every page of the SPA is this one file: read once and kept in memory (a rebuild of the web app
  // takes a restart, as a new server build does). Until it exists, each page asks the disk again.
  let cachedIndex: string | undefined;
  const loadIndex = async () => (cachedIndex ??= await readFile(indexFile, 'utf8').catch(() => undefined));
  let cachedHead: SpaHead | undefined;
  const loadHead = async () => (cachedHead ??= await SpaHead.load(distDir));
  const inline = createImageInliner(distDir, ctx.config.publicUrl);

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    // HEAD too: what a link checker or uptime probe asks of a page before (or instead of) GET.
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !isMachinePath(path) && !/\.[a-z0-9]+$/i.test(path) && (ctx.config.devTools || !isDevelopmentPage(path));
    if (!isPage) {
      const allowed = allowedMethodsAt(app, path);
      if (allowed.length > 0) {
        const answer = methodNotAllowed(request.method, path, allowed, request.id);
        return reply.status(405).header('allow', answer.allow).send(answer.body);
      }
      return reply.status(404).send(envelope(ErrorCode.NotFound, undefined, `Not found: ${request.method} ${path}`, request.id));
    }
    const indexHtml = await loadIndex();
    if (!indexHtml) {
      return reply.status(503).type('text/plain').send('The web app is not built yet: run `npm run build:web` (npm start does it).');
    }
    // A value holding U+0000 or a lone surrogate names no client or request (plugins/unusable-text.ts):
    // the page renders without them, and the screen's own call to the API gets the 400 that says so.
    // Looked up while the page's own client and request are (handled now: it is awaited only later).
    const accountClient = withinPageBudget(ctx.clients.findById(ACCOUNT_CLIENT_ID), undefined);
    accountClient.catch(() => undefined);
    const { client, uiLocales } = unusableTextAt(request.query) === undefined ? ((await withinPageBudget(clientOfPage(ctx, request), undefined)) ?? {}) : {};
    allowThirdParties(reply, https, client ? thirdPartiesOf(client, path) : []);
    // The runtime configuration, the page's chunks and the client's logo (the largest thing a
    // sign-in screen paints) come with the HTML: the first load of /login starts them all at once,
    // without a request chain in front.
    const images = client?.logoUri ? [client.logoUri] : [];
    const loginRequest = client && REQUEST_IN_PAGE.has(path) ? await withinPageBudget(loginRequestOfPage(ctx, request, reply), null) : null;
    const locale = startLocale(request);
    // Unless the address or the user's own choice names the language, the screen switches to the one the request or the client asks for.
    const clientLocale = queryLocale(request) || chosenLocale(request) ? undefined : (firstSupportedLocale(uiLocales) ?? client?.i18n.defaultLocale);
    const config = runtimeConfigWith(ctx, await accountClient);
    const head = (await loadHead()).render(path, locale, config, { images, loginRequest, clientLocale });
    // A page that carries a sign-in request (its login_hint may be an address) is for this browser only.
    const cache = loginRequest ? 'private, no-store' : 'no-cache';
    const shell = shellOfPage(path, locale, loginRequest, inline);
    const html = withLanguage(indexHtml, locale);
    const page = shell ? injectHead(injectShell(html, shell.html), `${head}<style>${shell.style}</style>`) : injectHead(html, head);
    // The language cookie changes the page (its texts, preloads and lang): a cache must not hand one browser's to another.
    return reply.type('text/html; charset=utf-8').header('cache-control', cache).header('vary', 'cookie').send(encodePage(request, reply, page));
  });
}

/**
 * How long a page waits for what it looks up to fill itself in (its sign-in request, its client,
 * the account area's client). They are conveniences: the screen asks the API for all of them
 * anyway. So while the database or Redis is down or silent, a page does not wait for their
 * timeouts (up to 11 s) nor fail as the API's JSON: it comes at once without them, and the
 * screen's own request then shows 'temporarily unavailable' where the person is.
 */
export const PAGE_LOOKUP_BUDGET_MS = 1000;

function withinPageBudget<T, N>(lookup: Promise<T>, none: N): Promise<T | N> {
  return withTimeout(lookup, PAGE_LOOKUP_BUDGET_MS).catch((error: unknown) => {
    if (error instanceof TimedOut || isDependencyFailure(error)) return none;
    throw error;
  });
}

/**
 * The frame a page paints from its HTML, before its scripts have run: a sign-in screen's, whose
 * request (and so its client's theme) is known here, or the account area's header.
 */
function shellOfPage(path: string, locale: Locale, loginRequest: LoginRequestInfo | null, inline: ImageInliner): { html: string; style: string } | null {
  if (loginRequest && hasSignInShell(path)) return { html: signInShell(path, loginRequest.client, inline), style: SHELL_STYLE };
  if (hasAccountShell(path)) return { html: accountShell(path, locale), style: ACCOUNT_SHELL_STYLE };
  return null;
}

/**
 * The language the SPA starts in (DESIGN.md section 8: the address, then the user's choice, which
 * the SPA mirrors into a cookie for this), else the default. The client's setting comes later,
 * from the SPA, once it knows the client.
 */
function startLocale(request: FastifyRequest): Locale {
  return queryLocale(request) ?? chosenLocale(request) ?? DEFAULT_LOCALE;
}

function queryLocale(request: FastifyRequest): Locale | undefined {
  const locale = (request.query as Record<string, unknown>).locale;
  return typeof locale === 'string' ? firstSupportedLocale(locale) : undefined;
}

/** The language chosen with the switcher, from the cookie that mirrors it (language.ts of the SPA). */
function chosenLocale(request: FastifyRequest): Locale | undefined {
  return firstSupportedLocale(parseCookieHeader(request.headers.cookie).get(LOCALE_COOKIE));
}

/** The first of the languages the screens speak in a list of language tags ("en-US vi"). */
function firstSupportedLocale(tags: unknown): Locale | undefined {
  if (typeof tags !== 'string') return undefined;
  return tags
    .split(/\s+/)
    .map((tag) => tag.trim().slice(0, 2).toLowerCase())
    .find((tag): tag is Locale => tag === 'vi' || tag === 'en');
}

/** The page's `lang` is the language it starts in, for what reads it before the scripts run. */
function withLanguage(html: string, locale: Locale): string {
  return html.replace(/<html lang="[^"]*"/, `<html lang="${locale}"`);
}

/**
 * Paths that machines call (the API, the provider, probes, metrics, developer tools) and the probe
 * names other servers use: an unknown one is a mistake to report, never the SPA's 200 page, which
 * would make a mistyped probe or scrape target look healthy.
 */
const MACHINE_PREFIXES = ['/api', '/oidc', '/health', '/metrics', '/dev', '/.well-known'];
const PROBE_NAMES = new Set(['/readyz', '/livez']);

/**
 * The demo relying party's pages (/demo, /demo/login, /demo/callback), served in development only:
 * without it (production) they are a plain 404, not the web app's page, which would answer 200 at
 * an address the README says production does not have.
 */
function isDevelopmentPage(path: string): boolean {
  return path === '/demo' || path.startsWith('/demo/');
}

function isMachinePath(path: string): boolean {
  return PROBE_NAMES.has(path) || MACHINE_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** The pages that show the Google and Facebook buttons (SPEC.md section 2). */
const SOCIAL_PAGES = new Set(['/login', '/register']);

/** The pages most sign-ins start on: they carry the sign-in request they show. */
const REQUEST_IN_PAGE = new Set(['/login', '/register']);

/** The page's sign-in request, as the API would answer it (not for a second device's `authnChallenge`). */
async function loginRequestOfPage(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<LoginRequestInfo | null> {
  const query = request.query as Record<string, unknown>;
  if (typeof query.challenge !== 'string' || query.authnChallenge !== undefined || query.authn_challenge !== undefined) return null;
  return loginRequestForPage(ctx, query.challenge, readBrowserHold(ctx.provider, request, reply));
}

/** The client behind a login-flow page (`?challenge=`), when the challenge is a live sign-in request, and the languages it asks for. */
async function clientOfPage(ctx: AppContext, request: FastifyRequest): Promise<{ client: ClientRecord; uiLocales: unknown } | undefined> {
  const challenge = (request.query as Record<string, unknown>).challenge;
  if (typeof challenge !== 'string' || !/^[A-Za-z0-9_-]{1,128}$/.test(challenge)) return undefined;
  const interaction = await ctx.provider.Interaction.find(challenge).catch(() => undefined);
  const clientId = interaction?.params.client_id;
  if (typeof clientId !== 'string') return undefined;
  const client = await ctx.clients.findById(clientId);
  return client ? { client, uiLocales: interaction?.params.ui_locales } : undefined;
}

/**
 * The third parties the client of a login-flow page needs: reCAPTCHA when it has it; on the login
 * and register pages, Google and Facebook when it has the app id and the login capability (the
 * rule that shows their buttons).
 */
function thirdPartiesOf(client: ClientRecord, path: string): ThirdParty[] {
  const parties: ThirdParty[] = client.recaptcha.enabled ? ['recaptcha'] : [];
  if (SOCIAL_PAGES.has(path)) {
    const capabilities = effectiveCapabilities(client.permissions);
    if (client.googleAppId && capabilities.has('social:google:login')) parties.push('google');
    if (client.facebookAppId && capabilities.has('social:facebook:login')) parties.push('facebook');
  }
  return parties;
}
