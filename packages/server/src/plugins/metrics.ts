import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import { isDependencyFailure } from '../lib/dependency-errors.ts';
import { grantTypeLabel, signInOf, type Metrics } from '../lib/metrics.ts';
import { observeArgon2 } from '../lib/passwords.ts';
import { listenFailure } from '../lib/listen-failure.ts';
import { CLIENT_CLOSED_REQUEST, closedUnanswered } from './request-log.ts';
import type { MailSender, SmsSender } from '../messaging/messages.ts';

/**
 * Feeds the context's series: request durations from this app's responses, and the rest from the
 * one place each thing passes through (the audit record for sign-ins, the mail and SMS senders
 * for codes, the provider's events for grants, passwords.ts for argon2). Everything it subscribes
 * to is let go when the app closes.
 */
export function registerMetrics(app: FastifyInstance, ctx: AppContext): void {
  const { metrics } = ctx;
  // Not Fastify's onResponse: the provider answers from middleware, whose responses never reach
  // it. Every response, the provider's included, ends with the raw 'finish'.
  app.addHook('onRequest', (request, reply, done) => {
    // Read now: middie strips the mount path from the URL before the provider sees it.
    const route = routeOf(request);
    reply.raw.once('finish', () => {
      metrics.httpDuration.observe({ route, method: request.method, status_code: String(reply.raw.statusCode) }, reply.elapsedTime / 1000);
    });
    // A client gone before the answer: the response never finishes, and the wait it gave up counts too.
    reply.raw.once('close', () => {
      if (closedUnanswered(reply)) metrics.httpDuration.observe({ route, method: request.method, status_code: String(CLIENT_CLOSED_REQUEST) }, reply.elapsedTime / 1000);
    });
    done();
  });

  const stops = [
    observeArgon2((operation, seconds) => metrics.argon2Duration.observe({ operation }, seconds)),
    ctx.audit.observe((event) => {
      const signIn = signInOf(event.type, event.details);
      if (signIn) metrics.signIns.inc(signIn);
    }),
    countCodes(ctx, metrics),
    countGrants(ctx, metrics),
  ];
  app.addHook('onClose', async () => {
    for (const stop of stops) stop();
  });
}

/**
 * The route template, never the URL. The provider's paths are one group, checked first: it is
 * middleware, so its GETs match the static files' wildcard route ('/*') and its POSTs no route.
 * Whatever else no route matched (the SPA's pages, real 404s) is another group.
 */
function routeOf(request: FastifyRequest): string {
  const { url } = request;
  if (url === '/oidc' || url.startsWith('/oidc/') || url.startsWith('/oidc?')) return '/oidc/*';
  return request.routeOptions.url ?? 'not_found';
}

/** Messages that carry a code are the codes sent; notices (a contact changed) are not counted. */
function countCodes(ctx: AppContext, metrics: Metrics): () => void {
  const { mail, sms } = ctx.messaging;
  const counted = <M extends { code?: string }>(channel: 'email' | 'sms', send: (message: M) => Promise<void>) => {
    return async (message: M) => {
      try {
        await send(message);
      } catch (error) {
        if (message.code !== undefined) metrics.codesSent.inc({ channel, outcome: 'failed' });
        throw error;
      }
      if (message.code !== undefined) metrics.codesSent.inc({ channel, outcome: 'sent' });
    };
  };
  const countedMail: MailSender = { send: counted('email', (message) => mail.send(message)) };
  const countedSms: SmsSender = { send: counted('sms', (message) => sms.send(message)) };
  ctx.messaging.mail = countedMail;
  ctx.messaging.sms = countedSms;
  return () => {
    if (ctx.messaging.mail === countedMail) ctx.messaging.mail = mail;
    if (ctx.messaging.sms === countedSms) ctx.messaging.sms = sms;
  };
}

function countGrants(ctx: AppContext, metrics: Metrics): () => void {
  // grant.error can come before the parameters are parsed: then there is no grant type to read.
  const grantType = (koa: KoaContextWithOIDC) => grantTypeLabel((koa.oidc as { params?: Record<string, unknown> } | undefined)?.params?.grant_type);
  const success = (koa: KoaContextWithOIDC) => metrics.tokenGrants.inc({ grant_type: grantType(koa), outcome: 'success' });
  const failure = (koa: KoaContextWithOIDC) => metrics.tokenGrants.inc({ grant_type: grantType(koa), outcome: 'failure' });
  // A token request the server could not answer (the database or Redis away, or a bug) is no
  // 'grant.error': the provider emits 'server_error' for it, on every endpoint. Counted apart from
  // the refusals, so an outage shows on the token graph instead of as a quiet dip.
  const serverError = (koa: KoaContextWithOIDC, error: unknown) => {
    if (koa.oidc?.route !== 'token') return;
    metrics.tokenGrants.inc({ grant_type: grantType(koa), outcome: isDependencyFailure(error) ? 'unavailable' : 'error' });
  };
  ctx.provider.on('grant.success', success);
  ctx.provider.on('grant.error', failure);
  ctx.provider.on('server_error', serverError);
  return () => {
    ctx.provider.off('grant.success', success);
    ctx.provider.off('grant.error', failure);
    ctx.provider.off('server_error', serverError);
  };
}

export interface MetricsServer {
  /** Where it listens, e.g. http://127.0.0.1:9464 (the port chosen when METRICS_PORT is 0). */
  url: string;
  close(): Promise<void>;
}

/**
 * `GET /metrics` on a listener of its own (METRICS_PORT on METRICS_HOST), so the series are never
 * served on the public port by accident. Without METRICS_PORT there is no listener at all and the
 * close function does nothing.
 */
export async function startMetricsServer(
  registry: Registry,
  config: Pick<Config, 'metricsPort' | 'metricsHost'>,
  log: Pick<Logger, 'info' | 'warn'>,
): Promise<MetricsServer | undefined> {
  const { metricsPort, metricsHost } = config;
  if (metricsPort === undefined) return undefined;
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ error: 'not_found', message: 'Only GET /metrics is served here' }));
      return;
    }
    registry.metrics().then(
      (body) => response.writeHead(200, { 'content-type': registry.contentType }).end(request.method === 'HEAD' ? undefined : body),
      (error: unknown) => {
        log.warn({ err: error }, 'collecting metrics failed');
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('collecting metrics failed\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    const failed = (error: Error) => reject(listenFailure(error, { host: metricsHost, port: metricsPort, settings: 'METRICS_PORT, METRICS_HOST' }));
    server.once('error', failed);
    server.listen(metricsPort, metricsHost, () => {
      server.off('error', failed);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  log.info(`metrics are served at ${url}/metrics`);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A scraper's keep-alive connection must not hold the shutdown.
        server.closeAllConnections();
      }),
  };
}
