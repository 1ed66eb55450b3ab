import type Provider from 'oidc-provider';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { describeDependencyFailure, isDependencyFailure, RETRY_AFTER_SECONDS } from '../lib/dependency-errors.ts';

/**
 * The provider's endpoints (/oidc/auth, /oidc/token, ...) answer from its own Koa error handler,
 * which Fastify's error handling never sees: without this a database or Redis outage there is a
 * 500 'server_error'. The provider emits 'server_error' with the cause before the response leaves,
 * so the status can still become 503 with Retry-After (DESIGN.md section 11).
 */
export function answerDependencyFailuresWith503(provider: Provider): void {
  provider.on('server_error', (ctx: { status: number; set(name: string, value: string): void }, error: unknown) => {
    if (!isDependencyFailure(error)) return;
    ctx.status = 503;
    ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
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
      log.warn({ requestId, path: ctx.path, status: ctx.status, dependencyError: describeDependencyFailure(error) }, 'oidc-provider server_error: a dependency (database or Redis) cannot serve');
    } else {
      log.error({ requestId, path: ctx.path, status: ctx.status, err: error }, 'oidc-provider server_error');
    }
  });
}
