import type { DestinationStream } from 'pino';
import Fastify, { type FastifyInstance } from 'fastify';
import middie from '@fastify/middie';
import swagger from '@fastify/swagger';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppContext } from './context.ts';
import { answerFrameworkError, registerErrorHandling } from './plugins/errors.ts';
import { registerUnusableTextRefusal } from './plugins/unusable-text.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerSpa } from './spa.ts';
import { registerBrowserBinding } from './plugins/browser-binding.ts';
import { registerMetrics } from './plugins/metrics.ts';
import { answerUnmatchedProviderRequests, asPublicRequest } from './oidc/public-request.ts';
import { answerFailuresPastTheProvider, logProviderServerErrors } from './oidc/provider-dependency-errors.ts';
import { discoveryAliasRoutes, issuerMetadataInPlace, ISSUER_METADATA_PATHS } from './oidc/discovery-aliases.routes.ts';
import { registerRequestIdHeader, requestIdOptions } from './plugins/request-id.ts';
import { registerDatabaseBudget } from './plugins/database-budget.ts';
import { databaseEngine } from './db/database.ts';
import { logRequestsLeftUnanswered } from './plugins/request-log.ts';
import { healthRoutes } from './features/health/health.routes.ts';
import { LOG_REDACT_PATHS } from './lib/redact.ts';
import { redactUrl } from './lib/redact-url.ts';
import { loginFlowRoutes } from './features/login-flow/login-flow.routes.ts';
import { mfaRoutes } from './features/mfa/mfa.routes.ts';
import { accountRoutes } from './features/account/account.routes.ts';
import { registrationRoutes } from './features/registration/registration.routes.ts';
import { passwordRecoveryRoutes } from './features/password-recovery/password-recovery.routes.ts';
import { passwordlessRoutes } from './features/passwordless/passwordless.routes.ts';
import { webauthnRoutes } from './features/webauthn/webauthn.routes.ts';
import { passkeyRoutes } from './features/webauthn/passkey.routes.ts';
import { socialRoutes } from './features/social/social.routes.ts';
import { tenantRoutes } from './features/tenants/tenants.routes.ts';
import { runtimeConfigRoutes } from './features/runtime-config.routes.ts';
import { outboxRoutes } from './features/outbox/outbox.routes.ts';
import { adminRoutes } from './features/admin/admin.routes.ts';
import { activeSessionsRoutes } from './features/sessions/active-sessions.routes.ts';
import { registerNewBrowserNotices } from './features/known-browsers/new-browser-notice.ts';

export interface BuildOptions {
  /** Log output; tests silence it. */
  logger?: boolean;
  /** Where logs go (standard output by default); tests read them to prove secrets stay out. */
  logStream?: DestinationStream;
}

/** Builds the HTTP application from its context. `main.ts` alone listens. */
export async function buildApp(ctx: AppContext, options: BuildOptions = {}): Promise<FastifyInstance> {
  const { config } = ctx;
  const app = Fastify({
    trustProxy: config.trustProxy,
    ...requestIdOptions(config.trustProxy),
    bodyLimit: 1024 * 1024,
    // During a stop, a request that arrives on a connection already open (a proxy's keep-alive
    // connection, a pipelined request) is served, with Connection: close, rather than given Fastify's
    // bare 503 (no Retry-After, not Passgate's error body), which users saw during every rolling
    // restart. New connections are refused anyway, and the stop's deadline still bounds the wait.
    return503OnClosing: false,
    // A path segment (a challenge, an id) longer than this never reaches a route; routes check the
    // lengths they take themselves, so the bound only keeps the router's work small.
    routerOptions: { maxParamLength: 1024 },
    frameworkErrors: answerFrameworkError,
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            ...(options.logStream ? { stream: options.logStream } : {}),
            redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
            serializers: {
              // originalUrl: middie strips a mount's prefix from url while the provider runs, and
              // '/auth/<uid>' without its '/oidc' would be neither recognisable nor redacted.
              req: (req: { method: string; url: string; originalUrl?: string; ip?: string }) => ({ method: req.method, url: redactUrl(req.originalUrl ?? req.url), ip: req.ip }),
            },
          },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // PostgreSQL only: SQLite runs in the process, its statements cannot be slow in this way, and
  // the budget's AsyncLocalStorage costs every request's promises a little.
  if (databaseEngine(config.databaseUrl) === 'postgres') registerDatabaseBudget(app, config.database.statementTimeoutMs);
  registerRequestIdHeader(app);
  logRequestsLeftUnanswered(app);
  registerErrorHandling(app);
  registerUnusableTextRefusal(app);
  registerBrowserBinding(app, ctx.provider);
  registerMetrics(app, ctx);

  await registerSecurityHeaders(app, config.publicUrl.startsWith('https://'));

  await app.register(swagger, {
    openapi: {
      info: { title: 'Passgate identity API', version: '1.0.0', description: 'Request bodies are snake_case, responses camelCase.' },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'An access token of the `account` client (the admin API: `admin-console`). A token bound to a key (DPoP, RFC 9449) is sent as `Authorization: DPoP <token>` with a fresh `DPoP` proof of this request instead; as `Bearer` it is refused.',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });

  await app.register(loginFlowRoutes, { ctx });
  await app.register(mfaRoutes, { ctx });
  await app.register(registrationRoutes, { ctx });
  await app.register(passwordRecoveryRoutes, { ctx });
  await app.register(passwordlessRoutes, { ctx });
  await app.register(webauthnRoutes, { ctx });
  await app.register(passkeyRoutes, { ctx });
  await app.register(socialRoutes, { ctx });
  await app.register(tenantRoutes, { ctx });
  await app.register(accountRoutes, { ctx });
  await app.register(activeSessionsRoutes, { ctx });
  await app.register(runtimeConfigRoutes, { ctx });
  await app.register(adminRoutes, { ctx, prefix: '/api/admin/v1' });
  if (config.devTools) {
    await app.register(outboxRoutes, { ctx });
    // openid-client is for the demo relying party only: production never loads it.
    const { demoRoutes } = await import('./features/demo/demo.routes.ts');
    await app.register(demoRoutes, { ctx });
  }

  app.get('/api/docs', { schema: { hide: true } }, async () => app.swagger());
  await app.register(healthRoutes, { ctx });
  await app.register(discoveryAliasRoutes, { publicUrl: config.publicUrl });

  await app.register(middie, { hook: 'onRequest' });
  answerUnmatchedProviderRequests(ctx.provider);
  logProviderServerErrors(ctx.provider, app.log);
  answerFailuresPastTheProvider(ctx.provider, app.log);
  registerNewBrowserNotices(ctx);
  const provider = asPublicRequest(config.publicUrl, ctx.provider.callback());
  for (const [path, document] of ISSUER_METADATA_PATHS) app.use(path, issuerMetadataInPlace(document, provider));
  app.use('/oidc', provider);

  await registerSpa(app, ctx);
  return app;
}
