import { noticesIdle } from './features/known-browsers/notice-delivery.ts';
import { loadConfig, ConfigError, type Config } from './config.ts';
import { createAppContext } from './context.ts';
import { buildApp } from './app.ts';
import { seedDemo } from './seed/demo-seed.ts';
import { ensureOwnClients } from './features/clients/own-clients.ts';
import { runStop } from './lib/graceful-stop.ts';
import { purgeExpiredPayloads } from './oidc/adapter.ts';
import { startupFailureMessage } from './db/startup.ts';
import { startMetricsServer } from './plugins/metrics.ts';
import { listenFailure } from './lib/listen-failure.ts';
import { SMTP_TIMEOUT_MS } from './messaging/messaging.ts';
import { SMS_TIMEOUT_MS } from './messaging/sms/http.ts';
import { pino } from 'pino';

// Log lines are written by a background writer, not by the request that logs them, gathered into
// writes of 4 KiB or more (a write per line cost a third of a millisecond of the main thread);
// whatever is gathered goes out at least once a second, and before every exit below.
const logStream = pino.destination({ dest: 1, sync: false, minLength: 4096 });
setInterval(() => logStream.flush(), 1000).unref();
function exit(code: number): never {
  try {
    logStream.flushSync();
  } catch {
    // A closed or full standard output must not stop the exit.
  }
  process.exit(code);
}

/**
 * How long a stop waits before it exits anyway: 2 s longer than a request in flight can wait on
 * silent dependencies, so that it is answered (503) rather than cut off. On the database that is the
 * statement timeout and the read timeout behind it. A request that sends a code waits up to 10 s
 * on the mail or SMS provider, and while Redis is silent up to its command timeout three times
 * around it (the resend cooldown and the per-address budget before the send, until the client
 * notices the silence, and the cooldown given back after a failed send); a low statement timeout
 * must not cut that short.
 */
const shutdownDeadlineMs = (config: Config) =>
  Math.max(config.database.statementTimeoutMs + 1_000, Math.max(SMTP_TIMEOUT_MS, SMS_TIMEOUT_MS) + 3 * config.redisCommandTimeoutMs) + 2_000;

/** Starts Passgate: configuration, database (migrated), seed in development, then HTTP. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      exit(1);
    }
    throw error;
  }
  try {
    await start(config);
  } catch (error) {
    // Nothing is served yet (or nothing could listen): a process that cannot reach its database or
    // open a file its settings name exits for its supervisor to see and restart, with one line that
    // says why, rather than serving errors from behind a health check.
    console.error(startupFailureMessage(error, config));
    exit(1);
  }
}

async function start(config: Config): Promise<void> {
  const ctx = await createAppContext(config, { logStream });
  if (config.seedDemo) await seedDemo(ctx);
  await ensureOwnClients(ctx);
  const app = await buildApp(ctx, { logStream });
  const metricsServer = await startMetricsServer(ctx.metrics.registry, config, app.log);

  const purge = setInterval(() => {
    purgeExpiredPayloads(ctx.db).catch((error: unknown) => app.log.warn({ err: error }, 'purging expired OIDC artifacts failed'));
  }, 10 * 60_000);
  purge.unref();

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      // An operator who signals twice wants the process gone now, requests in flight or not.
      app.log.warn({ signal }, 'second signal: exiting without waiting for requests in flight');
      exit(1);
    }
    stopping = true;
    app.log.info({ signal }, 'shutting down: refusing new connections, finishing requests in flight');
    clearInterval(purge);
    void metricsServer?.close();
    const deadline = shutdownDeadlineMs(config);
    // Fastify's close stops listening, closes the keep-alive connections idle at that moment
    // (forceCloseConnections defaults to 'idle') and resolves once every connection is gone. A
    // connection whose request was in flight turns idle only when it is answered, and its client may
    // keep it open for as long as it likes: close those too as soon as they are idle.
    setInterval(() => app.server.closeIdleConnections(), 100).unref();
    runStop({ closeServer: () => app.close(), noticesSent: () => noticesIdle(ctx), closeConnections: () => ctx.close() }, deadline, (waitingFor) => {
      app.log.error({ signal }, `${waitingFor} after ${deadline / 1000} s: exiting anyway`);
      exit(1);
    }).then(
      () => exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutting down failed');
        exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    throw listenFailure(error, { host: config.host, port: config.port, settings: 'PORT, HOST' });
  }
  app.log.info(`Passgate is running on ${config.publicUrl} (${config.env}, ${config.databaseUrl.split(':')[0]})`);
}

main().catch((error: unknown) => {
  // Before the configuration is read: its message alone (a stack helps no operator).
  console.error(`Passgate could not start: ${error instanceof Error ? error.message : String(error)}`);
  exit(1);
});
