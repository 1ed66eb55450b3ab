import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import middie from '@fastify/middie';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppContext } from './context.ts';
import { registerErrorHandling, envelope } from './plugins/errors.ts';
import { LOG_REDACT_PATHS } from './lib/redact.ts';
import { redactUrl } from './lib/redact-url.ts';
import { loginFlowRoutes } from './features/login-flow/login-flow.routes.ts';
import { accountRoutes } from './features/account/account.routes.ts';
import { runtimeConfigRoutes } from './features/runtime-config.routes.ts';
import { outboxRoutes } from './features/outbox/outbox.routes.ts';
import { demoRoutes } from './features/demo/demo.routes.ts';
import { ErrorCode } from '@passgate/contract';

export interface BuildOptions {
  /** Log output; tests silence it. */
  logger?: boolean;
  /** Where logs go (standard output by default); tests read them to prove secrets stay out. */
  logStream?: NodeJS.WritableStream;
}

/** Builds the HTTP application from its context. `main.ts` alone listens. */
export async function buildApp(ctx: AppContext, options: BuildOptions = {}): Promise<FastifyInstance> {
  const { config } = ctx;
  const app = Fastify({
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            ...(options.logStream ? { stream: options.logStream } : {}),
            redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
            serializers: {
              req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: redactUrl(req.url), ip: req.ip }),
            },
          },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        scriptSrc: ["'self'"],
        // MUI (emotion) injects its styles at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Client logos, icons and background images are hosted by the partners.
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        // No form-action: the logout confirmation posts to the provider, which then redirects to
        // the relying party, and browsers apply form-action to that redirect too.
        ...(config.publicUrl.startsWith('https://') ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // The provider and the API answer cross-site redirects and fetches for relying parties.
    crossOriginResourcePolicy: { policy: 'same-site' },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: config.publicUrl.startsWith('https://') ? { maxAge: 31536000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'no-referrer' },
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Passgate identity API', version: '1.0.0', description: 'Request bodies are snake_case, responses camelCase.' },
      servers: [{ url: config.publicUrl }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });

  await app.register(loginFlowRoutes, { ctx });
  await app.register(accountRoutes, { ctx });
  await app.register(runtimeConfigRoutes, { ctx });
  if (config.devTools) {
    await app.register(outboxRoutes, { ctx });
    await app.register(demoRoutes, { ctx });
  }

  app.get('/api/docs', { schema: { hide: true } }, async () => app.swagger());
  app.get('/healthz', { schema: { hide: true } }, async () => {
    await ctx.db.selectFrom('tenants').select('id').limit(1).execute();
    return { status: 'ok' };
  });

  await app.register(middie, { hook: 'onRequest' });
  app.use('/oidc', ctx.provider.callback());

  await registerSpa(app, config.webDistDir);
  return app;
}

/** The single-page app: hashed assets cached for long, every other page answered with index.html. */
async function registerSpa(app: FastifyInstance, distDir: string): Promise<void> {
  const indexFile = join(distDir, 'index.html');
  if (existsSync(distDir)) {
    await app.register(fastifyStatic, {
      root: distDir,
      index: false,
      wildcard: true,
      // The build writes .br and .gz beside each asset.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, path) => {
        res.setHeader('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isPage = request.method === 'GET' && !path.startsWith('/api/') && !path.startsWith('/oidc/') && !/\.[a-z0-9]+$/i.test(path);
    if (!isPage) {
      return reply.status(404).send(envelope(ErrorCode.NotFound, undefined, `Not found: ${request.method} ${path}`));
    }
    // Read on each request: small, and a rebuild is picked up without a restart.
    const indexHtml = await readFile(indexFile, 'utf8').catch(() => undefined);
    if (!indexHtml) {
      return reply.status(503).type('text/plain').send('The web app is not built yet: run `npm run build:web` (npm start does it).');
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
  });
}
