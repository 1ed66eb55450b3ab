import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, migrateToLatest, type Db } from './database.ts';
import { migrations } from './migrations/index.ts';

/** Fails the first `failures` queries with a database error of `code`, as a racing catalogue read does. */
function failingFirst(failures: number, code: string): KyselyPlugin & { seen: () => number } {
  let count = 0;
  return {
    seen: () => count,
    transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
      count += 1;
      if (count <= failures) throw Object.assign(new Error(`column "attempts" of relation "social_link_tokens" does not exist (${code})`), { code });
      return args.node;
    },
    async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      return args.result;
    },
  };
}

describe('migrations and a catalogue read racing other DDL', () => {
  let dir: string | undefined;
  let db: Db | undefined;
  afterEach(async () => {
    await db?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function freshDb(): Db {
    dir = mkdtempSync(join(tmpdir(), 'passgate-migrate-'));
    db = createDatabase(`sqlite:${join(dir, 'db.sqlite')}`);
    return db;
  }

  it('looks again when the read before any migration fails as a schema, table or column that vanished', async () => {
    const plugin = failingFirst(2, '42703');
    const applied = await migrateToLatest(freshDb().withPlugin(plugin), 'sqlite');
    expect(applied).toEqual(Object.keys(migrations));
  });

  it('gives up after five tries, and never retries another error', async () => {
    const race = failingFirst(100, '3F000');
    await expect(migrateToLatest(freshDb().withPlugin(race), 'sqlite')).rejects.toMatchObject({ code: '3F000' });
    expect(race.seen()).toBe(5);
    const other = failingFirst(100, '28P01');
    await expect(migrateToLatest(db!.withPlugin(other), 'sqlite')).rejects.toMatchObject({ code: '28P01' });
    expect(other.seen()).toBe(1);
  });
});
