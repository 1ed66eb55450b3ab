import type { EventEmitter } from 'node:events';
import type Provider from 'oidc-provider';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { describeDependencyFailure, isDependencyFailure, RETRY_AFTER_SECONDS } from '../lib/dependency-errors.ts';
import { redactUrl } from '../lib/redact-url.ts';

/** The provider's own path (it sees no /oidc) as logs take it: a sign-in's interaction id, the challenge, is a secret. */
const loggedPath = (path: string | undefined) => (path === undefined ? undefined : redactUrl(`/oidc${path}`));

/**
 * The provider's endpoints (/oidc/auth, /oidc/token, ...) answer from its own Koa error handler,
 * which Fastify's error handling never sees: without this a database or Redis outage there is a
 * 500 'server_error'. The provider emits 'server_error' with the cause before the response leaves,
 * so the status can still become 503 with Retry-After (DESIGN.md section 11).
 */
export function answerDependencyFailuresWith503(provider: Provider): void {
  provider.on('server_error', (ctx: { status: number; body: unknown; set(name: string, value: string): void }, error: unknown) => {
    if (!isDependencyFailure(error)) return;
    ctx.status = 503;
    ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
    // A JSON answer (token, userinfo, introspection...) carries the provider's 'oops! something went
    // wrong', which relying parties' libraries show as is; the error code stays the standard one.
    const body = ctx.body as { error?: unknown } | null;
    if (body && typeof body === 'object' && body.error === 'server_error') {
      ctx.body = { error: 'server_error', error_description: 'the service is temporarily unavailable; try again shortly' };
    }
  });
}

/**
 * The provider answers its own failures ('server_error' JSON or page) without logging them, so
 * without this an operator holding the X-Request-Id a user quotes finds nothing. The id is the one
 * Fastify gave the request (middie copies it onto the raw request the provider sees). A dependency
 * away is a warning without a stack, as in the Fastify routes: the cause is the dependency, not a
 * bug here.
 */
export function logProviderServerErrors(provider: Provider, log: FastifyBaseLogger): void {
  provider.on('server_error', (ctx: { status: number; path: string; req: IncomingMessage }, error: unknown) => {
    const requestId = (ctx.req as IncomingMessage & { id?: string }).id;
    if (isDependencyFailure(error)) {
      log.warn({ requestId, path: loggedPath(ctx.path), status: ctx.status, dependencyError: describeDependencyFailure(error) }, 'oidc-provider server_error: a dependency (database or Redis) cannot serve');
    } else {
      log.error({ requestId, path: loggedPath(ctx.path), status: ctx.status, err: error }, 'oidc-provider server_error');
    }
  });
}

/**
 * What fails past the provider's own error handler reaches Koa's default one: the provider saves a
 * touched session after its handler has chosen the answer (a sign-in's resume, once the login is
 * stored), so a database that goes silent or away right then made a bare 500 'Internal Server
 * Error' and a stack printed on stderr for every such request. Listening to Koa's 'error' event
 * (emitted before Koa writes its answer, and replacing its printing) turns a dependency failure into
 * the 503 with Retry-After every other endpoint gives, logged as a warning without a stack, and any
 * other failure into one log line under the request's id. Koa clears the response's headers before
 * answering, so the ones to keep go in the error's own.
 */
export function answerFailuresPastTheProvider(provider: Provider, log: FastifyBaseLogger): void {
  // Koa's own event, which the provider's typings leave out.
  (provider as unknown as EventEmitter).on('error', (error: Error & { status?: number; headers?: Record<string, string> }, ctx?: { path: string; req: IncomingMessage; res: ServerResponse }) => {
    const requestId = (ctx?.req as (IncomingMessage & { id?: string }) | undefined)?.id;
    const requestIdHeader = ctx?.res.getHeader('x-request-id');
    const headers: Record<string, string> = typeof requestIdHeader === 'string' ? { 'X-Request-Id': requestIdHeader } : {};
    if (isDependencyFailure(error)) {
      error.status = 503;
      error.headers = { ...headers, 'Retry-After': String(RETRY_AFTER_SECONDS) };
      log.warn({ requestId, path: loggedPath(ctx?.path), status: 503, dependencyError: describeDependencyFailure(error) }, 'oidc-provider: a dependency (database or Redis) cannot serve');
      return;
    }
    error.headers = { ...headers, ...error.headers };
    log.error({ requestId, path: loggedPath(ctx?.path), err: error }, 'oidc-provider request failed');
  });
}
