import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL: every change to the clients table, whoever makes it (the admin console, the command
 * line, an operator's own SQL), tells each listening Passgate instance at once (NOTIFY), so they may
 * keep the provider's view of the clients in memory (features/clients/provider-client-cache.ts).
 * One notice per statement, carrying the table's schema: instances of other deployments sharing the
 * database under other schemas ignore it. SQLite keeps no such cache and gets nothing here.
 * Forward only; never imports application code.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  if (sql`${1}`.compile(db).sql !== '$1') return;
  await sql`
    create function passgate_clients_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('passgate_clients_changed', tg_table_schema);
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger clients_changed after insert or update or delete or truncate on clients
    for each statement execute function passgate_clients_changed()`.execute(db);
}
