/**
 * The PostgreSQL schemas of a server test run are dropped when the whole run ends, not by each test
 * as it finishes. Kysely's migrator reads the catalogue of every schema of the database (its
 * PostgreSQL introspection looks each schema up by name), so a schema that another test dropped
 * meanwhile failed that read, and the test starting a server beside it, with 'schema … does not
 * exist' (a CI run on Node 24). Schemas are named `t_<run>_…`; a run's schemas go at its end, and a
 * run that never ended (killed) leaves schemas the next run drops once they are a day old.
 */
const DAY_MS = 24 * 60 * 60_000;

export function setup(): void {
  process.env.PASSGATE_TEST_SCHEMA_RUN = `${Date.now()}${Math.floor(Math.random() * 1e4)
    .toString()
    .padStart(4, '0')}`;
}

export async function teardown(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  const run = process.env.PASSGATE_TEST_SCHEMA_RUN;
  if (!databaseUrl?.startsWith('postgres') || !run) return;
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(`select nspname as name from pg_namespace where nspname ~ '^t_[0-9]{17}_'`);
    const dayAgo = Date.now() - DAY_MS;
    for (const { name } of rows) {
      const started = Number(name.slice(2, 15));
      if (name.startsWith(`t_${run}_`) || started < dayAgo) await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
    }
  } finally {
    await client.end();
  }
}
