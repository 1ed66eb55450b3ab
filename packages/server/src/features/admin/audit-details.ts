import { sql, type RawBuilder } from 'kysely';
import type { DbEngine } from '../../db/database.ts';

/** The audit keys the admin queries read inside `details` (JSON text): never a caller's string. */
export type DetailKey = 'method' | 'provider' | 'secondStep';

/** `details.<key>` as text (null when absent), in the engine's JSON functions. */
export function detailText(engine: DbEngine, key: DetailKey): RawBuilder<string | null> {
  return engine === 'postgres'
    ? sql<string | null>`(audit_events.details::jsonb ->> ${sql.lit(key)})`
    : sql<string | null>`json_extract(audit_events.details, ${sql.lit(`$.${key}`)})`;
}
