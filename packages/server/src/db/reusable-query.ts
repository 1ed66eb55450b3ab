import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import type { Db } from './database.ts';

const MARK = '\u0000reusable-query-value:';

type Slot = { value: string } | { constant: unknown };

/**
 * A query whose tree Kysely builds and compiles once per database, then runs with each call's
 * values. Kysely otherwise builds, freezes and compiles the same tree on every call: on the
 * provider's token and userinfo paths, a few lookups and writes per request, that was about 5% of
 * the CPU. `build` receives stand-ins for the values and must read each one by name as a bound
 * value (in a where, values or set), never pass the object whole (it has no keys to list) nor
 * choose the query's shape by a value.
 */
export function reusableQuery<V extends object, R>(build: (db: Db, values: V) => Compilable<R>) {
  const compiledFor = new WeakMap<Db, { query: CompiledQuery<R>; slots: Slot[] }>();
  const standIns = new Proxy({} as V, {
    get: (_target, key) => `${MARK}${String(key)}`,
    ownKeys: () => {
      throw new Error('reusableQuery: read the values by name; the stand-ins have no keys to list');
    },
  });

  function compile(db: Db) {
    const query = build(db, standIns).compile();
    const slots = query.parameters.map((parameter): Slot =>
      typeof parameter === 'string' && parameter.startsWith(MARK) ? { value: parameter.slice(MARK.length) } : { constant: parameter },
    );
    const compiled = { query, slots };
    compiledFor.set(db, compiled);
    return compiled;
  }

  return async (db: Db, values: V): Promise<QueryResult<R>> => {
    const { query, slots } = compiledFor.get(db) ?? compile(db);
    const parameters = slots.map((slot) => {
      if ('constant' in slot) return slot.constant;
      if (!(slot.value in values)) throw new Error(`reusableQuery: no value for '${slot.value}'`);
      return (values as Record<string, unknown>)[slot.value];
    });
    return db.executeQuery({ ...query, parameters });
  };
}
