import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * The SQLite driver for this Node.js. better-sqlite3 12 (the last to run on Node 20) aborts the
 * process on Node 24, whose ObjectWrap removes a cleanup hook when a statement or database is
 * collected, at a moment Node has no environment to hand (upstream WiseLibs/better-sqlite3#1515).
 * better-sqlite3 13 is built on Node-API, which does not have the problem, but needs Node 22.
 * Both are installed (13 under the alias better-sqlite3-napi, with prebuilt binaries) and the one
 * this runtime can use is loaded; their JavaScript API is the same.
 */
const requireModule = createRequire(import.meta.url);
const nodeMajor = Number(process.versions.node.split('.')[0]);

export const SQLite: typeof BetterSqlite3 = requireModule(nodeMajor >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3') as typeof BetterSqlite3;
export type SqliteConnection = BetterSqlite3.Database;
