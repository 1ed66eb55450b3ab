import { sql, type Expression, type SqlBool } from 'kysely';
import type { DbEngine } from '../../db/database.ts';

/**
 * The admin console's user search (issue 17): what the operator typed, turned into indexed prefix
 * searches of a tenant's e-mail addresses, phone numbers and names (migration
 * 2026-12-06-admin-user-search). Prefixes only, so every branch is an index range on 100,000 users:
 * - with an @: the e-mail address (stored in lower case);
 * - digits (spaces, dots, dashes and a leading +84 allowed): the phone number, or an e-mail address;
 * - anything else: the name (case-insensitive), or an e-mail address.
 *
 * SQLite compares text bytewise, so a prefix is the range [prefix, next) on a plain index (its
 * LIKE cannot use one). PostgreSQL compares by collation, where that range is not a prefix: there
 * it is `LIKE 'prefix%'` on `text_pattern_ops` indexes. SQLite's lower() lowers ASCII letters only
 * (no ICU), so a name is also searched as it would be written in title case ("đặng" also finds
 * "Đặng Văn A", whose lower() keeps its Đ).
 */

export interface SearchTerms {
  email?: string;
  phone?: string;
  /** The forms of the name prefix to look for, as lower(name) holds them on the engine. */
  names?: string[];
}

const PHONE_LIKE = /^\+?[\d\s.-]+$/;

/** What to look for: undefined for an empty query (every user). */
export function searchTerms(raw: string | undefined, engine: DbEngine): SearchTerms | undefined {
  const q = (raw ?? '').trim();
  if (!q) return undefined;
  if (q.includes('@')) return { email: q.toLowerCase() };
  if (PHONE_LIKE.test(q) && /\d/.test(q)) {
    const digits = q.replace(/[\s.-]/g, '').replace(/^\+84/, '0').replace(/^\+/, '');
    return { phone: digits, email: q.toLowerCase() };
  }
  const lower = q.toLowerCase();
  if (engine === 'postgres') return { email: lower, names: [lower] };
  const titled = lower.replace(/(^|\s)(\S)/gu, (_m, space: string, first: string) => space + first.toUpperCase());
  return { email: lower, names: [...new Set([asciiLower(lower), asciiLower(titled)])] };
}

/** What SQLite's lower() does: A-Z only. */
function asciiLower(value: string): string {
  return value.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/**
 * The smallest string greater than every string that starts with `prefix`, in code point (UTF-8
 * byte) order: the prefix with its last character incremented; undefined when there is none.
 */
export function prefixEnd(prefix: string): string | undefined {
  const chars = Array.from(prefix);
  while (chars.length > 0) {
    const last = chars.pop() as string;
    const cp = last.codePointAt(0) as number;
    if (cp < 0x10ffff) {
      const next = cp === 0xd7ff ? 0xe000 : cp + 1;
      return chars.join('') + String.fromCodePoint(next);
    }
  }
  return undefined;
}

/** `value LIKE 'prefix%'` with the prefix's own % and _ taken literally. */
function likePattern(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** One branch: the tenant and a prefix of `column` (an SQL expression), as the engine can index it. */
function prefixBranch(engine: DbEngine, tenantId: string, column: ReturnType<typeof sql.raw>, prefix: string): Expression<SqlBool> {
  if (engine === 'postgres') return sql<SqlBool>`(tenant_id = ${tenantId} and ${column} like ${likePattern(prefix)} escape '\\')`;
  const end = prefixEnd(prefix);
  return end === undefined
    ? sql<SqlBool>`(tenant_id = ${tenantId} and ${column} >= ${prefix})`
    : sql<SqlBool>`(tenant_id = ${tenantId} and ${column} >= ${prefix} and ${column} < ${end})`;
}

/**
 * The WHERE condition of a search: each branch carries the tenant, so each is one index range
 * (SQLite's multi-index OR, PostgreSQL's BitmapOr).
 */
export function searchCondition(engine: DbEngine, tenantId: string, terms: SearchTerms): Expression<SqlBool> {
  const branches: Expression<SqlBool>[] = [];
  if (terms.email) branches.push(prefixBranch(engine, tenantId, sql.raw('email'), terms.email));
  if (terms.phone) branches.push(prefixBranch(engine, tenantId, sql.raw('phone_number'), terms.phone));
  for (const name of terms.names ?? []) branches.push(prefixBranch(engine, tenantId, sql.raw('lower(name)'), name));
  return sql<SqlBool>`(${sql.join(branches, sql` or `)})`;
}
