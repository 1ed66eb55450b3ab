import type Provider from 'oidc-provider';
import { isDependencyFailure, RETRY_AFTER_SECONDS } from '../lib/dependency-errors.ts';

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
