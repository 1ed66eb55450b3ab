import type { Redis } from 'ioredis';
import type Provider from 'oidc-provider';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import { openDatabase } from './db/startup.ts';
import { createAdapterFactory, createOidcStore, type OidcStore } from './oidc/adapter.ts';
import { clientMetadata, createProvider } from './oidc/provider.ts';
import { rollBackFailedRotations } from './oidc/rotation-rollback.ts';
import { loadServerSecrets } from './oidc/server-secrets.ts';
import { createLogoutRequests, type LogoutRequests } from './oidc/logout-requests.ts';
import { createServerKeys, type ServerKeys } from './lib/server-keys.ts';
import { createTenantQueries, type TenantQueries } from './features/tenants/tenants.queries.ts';
import { createClientQueries, type ClientQueries } from './features/clients/clients.queries.ts';
import { createProviderClientSource, type ProviderClientSource } from './features/clients/provider-client-cache.ts';
import { createUserQueries, type UserQueries } from './features/users/users.queries.ts';
import { createAuditQueries, type AuditQueries } from './features/audit/audit.queries.ts';
import { createRateLimits, type RateLimits } from './plugins/rate-limits.ts';
import { createMessaging, type Messaging } from './messaging/messaging.ts';
import { createRecaptchaVerifier, type RecaptchaVerifier } from './features/recaptcha/recaptcha.ts';
import { pino, type DestinationStream, type Logger } from 'pino';
import { LOG_REDACT_PATHS } from './lib/redact.ts';
import { createRedisClient, waitForRedis } from './lib/redis.ts';
import { createMetrics, type Metrics } from './lib/metrics.ts';
import { checkClientSecret } from './features/clients/client-secrets.ts';
import { registrationOpen } from './features/login-flow/flow-client.ts';
import { setArgon2Limits } from './lib/passwords.ts';
import { createBackchannelLogout, type BackchannelLogout } from './features/sessions/backchannel-logout.ts';
import { watchSessionActivity } from './features/sessions/session-activity.ts';

/**
 * Everything the server is made of, wired once (plain factories, no container). `buildApp` turns it
 * into routes; the command line uses the same context without an HTTP server.
 */
export interface AppContext {
  config: Config;
  db: Db;
  redis: Redis | undefined;
  keys: ServerKeys;
  provider: Provider;
  /** The provider's storage, for what the provider itself does not do (forgetting a deleted account). */
  oidcStore: OidcStore;
  /** Tells relying parties (back-channel logout) when Passgate itself ends an account's sessions. */
  backchannelLogout: BackchannelLogout;
  logoutRequests: LogoutRequests;
  tenants: TenantQueries;
  clients: ClientQueries;
  /** The provider's view of the clients: remembered on PostgreSQL while their change notices are heard. */
  providerClients: ProviderClientSource;
  users: UserQueries;
  audit: AuditQueries;
  rateLimits: RateLimits;
  messaging: Messaging;
  recaptcha: RecaptchaVerifier;
  /** For work outside a request (requests log through Fastify's own logger). */
  log: Logger;
  /** This instance's Prometheus registry and series, fed by registerMetrics and served by startMetricsServer. */
  metrics: Metrics;
  close(): Promise<void>;
}

export function avatarPath(avatarKey: string): string {
  return `/api/v1/avatars/${avatarKey}`;
}

export async function createAppContext(config: Config, options: { logStream?: DestinationStream } = {}): Promise<AppContext> {
  const logOptions = { level: config.logLevel, redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' } };
  // Standard output, or where the caller says (tests read the lines to prove secrets stay out).
  const log = options.logStream ? pino(logOptions, options.logStream) : pino(logOptions);
  const db = await openDatabase(config, log);
  const redis = config.redisUrl ? await createRedisClient(config.redisUrl, config, log) : undefined;
  if (redis && config.redisUrl) {
    try {
      await waitForRedis(redis, config.redisUrl, config.startupTimeoutMs, log);
    } catch (error) {
      await db.destroy().catch(() => undefined);
      throw error;
    }
  }

  setArgon2Limits(config.argon2);
  const secrets = await loadServerSecrets(db, config);
  const keys = createServerKeys(secrets.appSecret);
  const tenants = createTenantQueries(db);
  const clients = createClientQueries(db);
  const users = createUserQueries(db);
  const audit = createAuditQueries(db);

  const providerClients = createProviderClientSource({ db, databaseUrl: config.databaseUrl, connectTimeoutMs: config.database.connectTimeoutMs, log });
  const metrics = createMetrics({ db, redis, clientsRemembered: () => providerClients.remembering() });
  const adapterFor = createAdapterFactory({ db, redis }, async (clientId) => {
    const client = await providerClients.find(clientId);
    return client ? clientMetadata(client) : undefined;
  });
  const logoutRequests = createLogoutRequests(adapterFor('LogoutRequest'), keys);
  const provider = createProvider({
    config,
    secrets,
    adapter: adapterFor,
    findClient: (id) => clients.findById(id),
    findUser: (id) => users.findAccountById(id),
    registrationOpen: (clientId) => registrationOpen({ clients, tenants }, clientId),
    avatarUrl: (user) => (user.avatar_key ? `${config.publicUrl}${avatarPath(user.avatar_key)}` : null),
    logoutRequests,
    async checkClientSecret(clientId, stored, presented) {
      const check = await checkClientSecret(keys, stored, presented);
      if (check.upgradeTo) await clients.replaceSecretHash(clientId, stored, check.upgradeTo);
      return check.matches;
    },
  });
  rollBackFailedRotations({ provider, db, log });
  // The Security page's session list: sign-ins and refreshes as the provider completes them.
  watchSessionActivity({ db, provider, log, tenantOf: async (id) => (await users.findAccountById(id))?.tenant_id, sessionTtlSeconds: config.ttl.session });

  return {
    config,
    log,
    recaptcha: createRecaptchaVerifier(config, keys, log),
    db,
    redis,
    keys,
    provider,
    oidcStore: createOidcStore({ db, redis }),
    backchannelLogout: createBackchannelLogout({ db, provider, log }),
    logoutRequests,
    tenants,
    clients,
    providerClients,
    users,
    audit,
    rateLimits: createRateLimits(config, redis),
    messaging: createMessaging(config, db),
    metrics,
    async close() {
      await providerClients.close();
      await db.destroy();
      if (redis) await redis.quit().catch(() => undefined);
    },
  };
}
