import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const run = promisify(execFile);
// The driver this Node can use, as the server picks it (packages/server/src/db/sqlite-driver.ts):
// better-sqlite3 12 aborts on Node 24, 13 needs Node 22.
const Database = createRequire(import.meta.url)(Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3') as typeof BetterSqlite3;
const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** The SQLite file of the server under test (playwright.config.ts creates the data directory). */
export function e2eDatabaseFile(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set: run the scenarios through playwright.config.ts');
  return join(dir, 'e2e.sqlite');
}

/**
 * Runs Passgate's command line (`npm run passgate -- …`) against the running server's database, as
 * an operator would; secrets go in `env` (PASSGATE_PASSWORD, PASSGATE_CLIENT_SECRET), not in flags.
 */
export async function passgate(args: string[], env: Record<string, string> = {}): Promise<string> {
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'packages/server/src/cli/main.ts', ...args], {
      cwd: REPO,
      env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'warn', DATABASE_URL: `sqlite:${e2eDatabaseFile()}`, ...env },
      timeout: 30_000,
    });
    return stdout;
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`passgate ${args.slice(0, 2).join(' ')} failed:\n${stderr ?? ''}${stdout ?? ''}`, { cause: error });
  }
}

/**
 * Moves the moment a user's password was set back in time. No command or API changes that date (a
 * new password is always "now"), so this one set-up step writes the row directly.
 */
export function backdatePassword(tenantId: string, email: string, changedAt: number): void {
  const db = new Database(e2eDatabaseFile());
  try {
    db.pragma('busy_timeout = 5000');
    const result = db.prepare('update users set password_changed_at = ? where tenant_id = ? and email = ?').run(changedAt, tenantId, email);
    if (result.changes !== 1) throw new Error(`no user ${email} in tenant ${tenantId}`);
  } finally {
    db.close();
  }
}
