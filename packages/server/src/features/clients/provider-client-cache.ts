import type pg from 'pg';
import type { Logger } from 'pino';
import { databaseEngine, loadPg, type Db } from '../../db/database.ts';
import { describeDependencyFailure } from '../../lib/dependency-errors.ts';
import { findProviderClient, type ProviderClient } from './clients.queries.ts';

/** The channel the clients table's trigger notifies (db/migrations/2026-12-10-client-change-notices.ts). */
export const CLIENT_CHANGES_CHANNEL = 'passgate_clients_changed';
/** How the listening connection shows in pg_stat_activity (an application_name in DATABASE_URL wins: pg reads the URL last). */
export const CLIENT_CHANGES_APPLICATION_NAME = 'passgate-client-changes';
/**
 * The longest a remembered client is used without asking the database again. Notices make a change
 * apply within moments; this bounds the damage if they stop coming without an error (a half-open
 * socket after a network partition reports nothing until TCP gives up).
 */
export const CLIENT_ENTRY_TTL_MS = 60_000;
/** Only registered clients are remembered, so this is a guard against an unusual deployment, not a tuning knob. */
const MAX_ENTRIES = 5000;
const RECONNECT_DELAYS_MS = [1000, 2000, 5000, 10_000, 30_000];

export interface ProviderClientSource {
  /** The client as the provider needs it: from memory while the change notices are heard, else from the database. */
  find(id: string): Promise<ProviderClient | undefined>;
  /** Whether lookups may be answered from memory now. */
  remembering(): boolean;
  close(): Promise<void>;
}

export interface ProviderClientSourceOptions {
  db: Db;
  databaseUrl: string;
  connectTimeoutMs: number;
  log: Logger;
  now?: () => number;
  /** How the listening connection names itself in pg_stat_activity (CLIENT_CHANGES_APPLICATION_NAME). */
  applicationName?: string;
}

/**
 * The provider looks its client up on every token, userinfo and sign-in request. On SQLite that
 * read is a call into the same process and stays uncached, so every change applies at once. On
 * PostgreSQL it was a round trip and a row to decode on each request, for data that changes a few
 * times a year: there the registrations are remembered, and forgotten as soon as the clients
 * table's trigger says it changed (LISTEN on a connection of its own, opened with the first
 * lookup). While that connection is not listening (starting, broken, reconnecting) nothing is
 * remembered and every lookup reads the database, so a change made meanwhile is never missed.
 * That connection is the pg driver's own, not Kysely's: LISTEN needs a session held open for its
 * notices, which a query builder's pooled connections are not; it runs only the LISTEN and asks its schema.
 */
export function createProviderClientSource(options: ProviderClientSourceOptions): ProviderClientSource {
  const { db } = options;
  if (databaseEngine(options.databaseUrl) === 'sqlite') {
    return { find: (id) => findProviderClient(db, id), remembering: () => false, close: async () => {} };
  }
  return new RememberedClients(options);
}

type State = 'idle' | 'connecting' | 'listening' | 'waiting' | 'closed';

class RememberedClients implements ProviderClientSource {
  private readonly entries = new Map<string, { client: ProviderClient; at: number }>();
  /** Moves on with every notice and every loss of the connection: a read that started before is not remembered. */
  private generation = 0;
  private state: State = 'idle';
  private connection: pg.Client | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private readonly now: () => number;

  constructor(private readonly options: ProviderClientSourceOptions) {
    this.now = options.now ?? Date.now;
  }

  remembering(): boolean {
    return this.state === 'listening';
  }

  async find(id: string): Promise<ProviderClient | undefined> {
    if (this.state === 'idle') void this.listen();
    if (this.state === 'listening') {
      const entry = this.entries.get(id);
      if (entry && this.now() - entry.at < CLIENT_ENTRY_TTL_MS) return entry.client;
    }
    const generation = this.generation;
    const client = await findProviderClient(this.options.db, id);
    if (client && this.state === 'listening' && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(id, { client, at: this.now() });
    }
    return client;
  }

  async close(): Promise<void> {
    this.state = 'closed';
    clearTimeout(this.retryTimer);
    this.forget();
    const connection = this.connection;
    this.connection = undefined;
    await connection?.end().catch(() => undefined);
  }

  private forget(): void {
    this.entries.clear();
    this.generation += 1;
  }

  private async listen(): Promise<void> {
    this.state = 'connecting';
    let Client: typeof pg.Client;
    try {
      ({ Client } = await loadPg());
    } catch (error) {
      this.state = 'closed';
      this.options.log.error({ dependencyError: describeDependencyFailure(error) }, 'the pg driver did not load: client registrations are read from the database each time');
      return;
    }
    if (this.state !== 'connecting') return;
    const connection = new Client({
      connectionString: this.options.databaseUrl,
      connectionTimeoutMillis: this.options.connectTimeoutMs,
      query_timeout: this.options.connectTimeoutMs,
      // The connection is idle by design: TCP's own probes, from 10 s of silence on instead of the
      // system's two hours, notice a peer that vanished, and the reconnection starts.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      application_name: this.options.applicationName ?? CLIENT_CHANGES_APPLICATION_NAME,
    });
    this.connection = connection;
    let schema: string | undefined;
    // Until LISTEN has run and the schema is known, nothing is remembered (state 'connecting').
    connection.on('notification', (notice) => {
      if (notice.channel === CLIENT_CHANGES_CHANNEL && (schema === undefined || notice.payload === schema)) this.forget();
    });
    connection.on('error', (error) => this.lost(connection, error));
    connection.on('end', () => this.lost(connection, new Error('the connection ended')));
    try {
      await connection.connect();
      const result = await connection.query<{ schema: string }>('select current_schema() as schema');
      await connection.query(`listen ${CLIENT_CHANGES_CHANNEL}`);
      schema = result.rows[0]?.schema;
      if (this.connection !== connection || this.state !== 'connecting') {
        await connection.end().catch(() => undefined);
        return;
      }
      // Whatever changed while nobody listened is read afresh.
      this.forget();
      this.state = 'listening';
      if (this.failures > 0) this.options.log.info('the client registrations are remembered again (listening for changes)');
      this.failures = 0;
    } catch (error) {
      this.lost(connection, error);
    }
  }

  private lost(connection: pg.Client, error: unknown): void {
    if (this.connection !== connection || this.state === 'closed') return;
    this.connection = undefined;
    this.forget();
    this.state = 'waiting';
    connection.end().catch(() => undefined);
    const delay = RECONNECT_DELAYS_MS[Math.min(this.failures, RECONNECT_DELAYS_MS.length - 1)] ?? 30_000;
    this.failures += 1;
    this.options.log.warn(
      { dependencyError: describeDependencyFailure(error), retryInMs: delay },
      'not listening for client changes: every client lookup reads the database until the connection is back',
    );
    this.retryTimer = setTimeout(() => {
      if (this.state === 'waiting') void this.listen();
    }, delay);
    this.retryTimer.unref();
  }
}
