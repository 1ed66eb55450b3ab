import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { poolOf, type Db } from '../db/database.ts';
import { argon2InFlight } from './passwords.ts';

/** What the gauges read at scrape time. */
export interface MetricsSources {
  db: Db;
  redis: Redis | undefined;
  /** Whether the provider answers client lookups from memory now (PostgreSQL, listening for changes). */
  clientsRemembered?: () => boolean;
}

/** A scrape must answer even when the database or Redis does not: their probes give up after this. */
const DEPENDENCY_PROBE_TIMEOUT_MS = 1000;

/**
 * The Prometheus series of one app context, in a registry of its own: prom-client's global
 * registry refuses a second series of the same name, so two contexts in one process (tests, a
 * second instance sharing a database) would clash on it.
 *
 * Every label value comes from a closed set (route templates, known methods, grant types,
 * channels): never a URL, a username, a challenge or a client-supplied string, so the number of
 * series stays bounded whatever visitors send.
 */
export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'route' | 'method' | 'status_code'>;
  signIns: Counter<'method' | 'outcome'>;
  codesSent: Counter<'channel' | 'outcome'>;
  argon2Duration: Histogram<'operation'>;
  argon2InFlight: Gauge;
  tokenGrants: Counter<'grant_type' | 'outcome'>;
  dbPoolConnections: Gauge<'state'>;
  dbPoolWaiting: Gauge;
  dependencyUp: Gauge<'dependency'>;
  clientsRemembered: Gauge;
}

export function createMetrics(sources: MetricsSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  let databaseUp: Promise<boolean> | undefined;
  // The gauges of one scrape share one probe of the database.
  const probeDatabase = () => {
    databaseUp ??= probe(sources.db).finally(() => {
      databaseUp = undefined;
    });
    return databaseUp;
  };
  return {
    registry,
    httpDuration: new Histogram({
      name: 'passgate_http_request_duration_seconds',
      help: 'HTTP requests on the main port, by route template (/oidc/* for the provider, not_found for anything unrouted, the SPA pages included)',
      labelNames: ['route', 'method', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    signIns: new Counter({
      name: 'passgate_sign_ins_total',
      help: 'Sign-in attempts by method (password, passwordless, google, facebook, webauthn, mfa, activation, other) and outcome (success, failure, locked)',
      labelNames: ['method', 'outcome'],
      registers,
    }),
    codesSent: new Counter({
      name: 'passgate_codes_sent_total',
      help: 'One-time codes handed to the mail or SMS sender, by channel (email, sms) and outcome (sent, failed)',
      labelNames: ['channel', 'outcome'],
      registers,
    }),
    argon2Duration: new Histogram({
      name: 'passgate_argon2_duration_seconds',
      help: 'argon2id work by operation (verify, hash), the wait for a slot (ARGON2_CONCURRENCY) included',
      labelNames: ['operation'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    }),
    argon2InFlight: new Gauge({
      name: 'passgate_argon2_in_flight',
      help: 'argon2id hashes and verifications started and not finished in this process: running, or waiting for a slot (at most ARGON2_MAX_QUEUE wait)',
      registers,
      collect() {
        this.set(argon2InFlight());
      },
    }),
    tokenGrants: new Counter({
      name: 'passgate_token_grants_total',
      help: 'Token endpoint grants by grant_type and outcome (success; failure: refused; unavailable: the database or Redis could not serve, answered 503; error: any other server error)',
      labelNames: ['grant_type', 'outcome'],
      registers,
    }),
    dbPoolConnections: new Gauge({
      name: 'passgate_db_pool_connections',
      help: 'Database connections by state (total, idle); SQLite has exactly one',
      labelNames: ['state'],
      registers,
      collect() {
        // The pool exists from the first connection on (start-up's migrations), never before a scrape.
        const pool = poolOf(sources.db);
        this.set({ state: 'total' }, pool ? pool.totalCount : 1);
        this.set({ state: 'idle' }, pool ? pool.idleCount : 1);
      },
    }),
    dbPoolWaiting: new Gauge({
      name: 'passgate_db_pool_waiting_requests',
      help: 'Queries waiting for a free PostgreSQL connection (always 0 on SQLite)',
      registers,
      collect() {
        const pool = poolOf(sources.db);
        this.set(pool ? pool.waitingCount : 0);
      },
    }),
    dependencyUp: new Gauge({
      name: 'passgate_dependency_up',
      help: 'Whether a dependency answers (1) or not (0) within 1 s at scrape time: database (select 1), redis (PING)',
      labelNames: ['dependency'],
      registers,
      async collect() {
        const redis = sources.redis;
        // A silent Redis keeps its connection, and the client calls itself ready: only an answer counts.
        const [database, redisUp] = await Promise.all([probeDatabase(), redis && redis.status === 'ready' ? answersWithin(redis.ping()) : false]);
        this.set({ dependency: 'database' }, database ? 1 : 0);
        if (redis) this.set({ dependency: 'redis' }, redisUp ? 1 : 0);
      },
    }),
    clientsRemembered: new Gauge({
      name: 'passgate_client_registrations_remembered',
      help: 'Whether the provider answers client lookups from memory (1: PostgreSQL, listening for client changes) or reads the database each time (0: SQLite, or the listening connection is down)',
      registers,
      collect() {
        this.set(sources.clientsRemembered?.() ? 1 : 0);
      },
    }),
  };
}

/** `select 1` within DEPENDENCY_PROBE_TIMEOUT_MS. */
function probe(db: Db): Promise<boolean> {
  return answersWithin(sql`select 1`.execute(db));
}

/** Whether `request` succeeds within DEPENDENCY_PROBE_TIMEOUT_MS. */
async function answersWithin(request: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), DEPENDENCY_PROBE_TIMEOUT_MS);
  });
  const answered = request.then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([answered, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const SIGN_IN_METHODS = new Set(['password', 'passwordless', 'google', 'facebook', 'webauthn', 'mfa', 'activation']);

function methodOf(value: unknown, fallback: string): string {
  return typeof value === 'string' && SIGN_IN_METHODS.has(value) ? value : fallback;
}

/**
 * The sign-in an audit event records, as bounded labels, or undefined for every other event.
 * `details` is read only for a method or provider name, and only values from the known set pass.
 */
export function signInOf(type: string, details: Record<string, unknown> | undefined): { method: string; outcome: 'success' | 'failure' | 'locked' } | undefined {
  switch (type) {
    case 'login.success':
      // Also recorded after 2-step verification and after activation, with the first factor as method.
      return { method: methodOf(details?.method, 'password'), outcome: 'success' };
    case 'login.failure':
      return { method: 'password', outcome: 'failure' };
    case 'login.locked':
      // A locked account met through Google or Facebook is recorded with its provider.
      return { method: methodOf(details?.provider, 'password'), outcome: 'locked' };
    case 'passwordless.success':
      return { method: 'passwordless', outcome: 'success' };
    case 'passwordless.failure':
      return { method: 'passwordless', outcome: 'failure' };
    case 'social.login':
      return { method: methodOf(details?.provider, 'other'), outcome: 'success' };
    case 'social.login_failed':
      return { method: methodOf(details?.provider, 'other'), outcome: 'failure' };
    case 'webauthn.login':
      return { method: 'webauthn', outcome: 'success' };
    case 'webauthn.login_failed':
      return { method: 'webauthn', outcome: 'failure' };
    case 'mfa.success':
      return { method: 'mfa', outcome: 'success' };
    case 'mfa.failure':
      return { method: 'mfa', outcome: 'failure' };
    default:
      return undefined;
  }
}

const GRANT_TYPES = new Set([
  'authorization_code',
  'refresh_token',
  'client_credentials',
  'urn:ietf:params:oauth:grant-type:device_code',
  'urn:openid:params:grant-type:ciba',
  'urn:ietf:params:oauth:grant-type:token-exchange',
]);

/** The grant_type label: a known grant type, or 'other' for whatever else a client sent. */
export function grantTypeLabel(value: unknown): string {
  return typeof value === 'string' && GRANT_TYPES.has(value) ? value : 'other';
}
