import { loadConfig, ConfigError } from './config.ts';
import { createAppContext } from './context.ts';
import { buildApp } from './app.ts';
import { seedDemo } from './seed/demo-seed.ts';
import { purgeExpiredPayloads } from './oidc/adapter.ts';
import { startupFailureMessage } from './db/startup.ts';

/** Starts Passgate: configuration, database (migrated), seed in development, then HTTP. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  let ctx;
  try {
    ctx = await createAppContext(config);
  } catch (error) {
    // Nothing listens yet: a process that cannot reach its database exits for its supervisor to
    // see and restart, rather than serving errors from behind a health check.
    console.error(startupFailureMessage(error, config));
    process.exit(1);
  }
  if (config.seedDemo) await seedDemo(ctx);
  const app = await buildApp(ctx);

  const purge = setInterval(() => {
    purgeExpiredPayloads(ctx.db).catch((error: unknown) => app.log.warn({ err: error }, 'purging expired OIDC artifacts failed'));
  }, 10 * 60_000);
  purge.unref();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    clearInterval(purge);
    await app.close();
    await ctx.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Passgate is running on ${config.publicUrl} (${config.env}, ${config.databaseUrl.split(':')[0]})`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
