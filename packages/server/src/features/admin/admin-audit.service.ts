import { Readable } from 'node:stream';
import { AUDIT_CSV_COLUMNS, ErrorCode, SIGN_IN_METHODS, type AdminAuditEvent, type AdminAuditList, type AdminSignInDay, type AdminSignInStats, type SignInMethod } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { databaseEngine } from '../../db/database.ts';
import type { AuditEventRow } from '../../db/schema.ts';
import { parseJson } from '../../lib/json.ts';
import { ApiError } from '../../plugins/errors.ts';
import { canAccessTenant, type AdminPrincipal } from './admin-auth.ts';
import { DAY_MS, SIGN_IN_FAILURE_TYPES, createAdminAuditQueries, type AuditCursor, type AuditFilter, type SignInBucket } from './admin-audit.queries.ts';
import { csvRow } from './csv.ts';

/** The most records one CSV export holds; narrow the filters (the time range) for more. */
export const AUDIT_CSV_MAX_ROWS = 100_000;
const CSV_CHUNK = 1000;

export interface AuditFilterInput {
  tenant_id?: string;
  type?: string;
  user_id?: string;
  client_id?: string;
  from?: number;
  to?: number;
}

/** The admin who acted, when the record is of an admin's action. */
function actorIdOf(details: Record<string, unknown> | null): string | null {
  return details?.by === 'admin' && typeof details.actorUserId === 'string' ? details.actorUserId : null;
}

/** A record as the API answers it; `labels` names its user and actor (AdminAuditQueries.accountLabels). */
export function toAdminAuditEvent(row: AuditEventRow, labels: ReadonlyMap<string, string> = new Map()): AdminAuditEvent {
  const details = parseJson<Record<string, unknown> | null>(row.details, null);
  const actorId = actorIdOf(details);
  return {
    id: row.id,
    createdAt: new Date(row.created_at).toISOString(),
    type: row.type,
    tenantId: row.tenant_id,
    userId: row.user_id,
    clientId: row.client_id,
    ip: row.ip,
    userAgent: row.user_agent,
    details,
    userLabel: (row.user_id && labels.get(row.user_id)) ?? null,
    actorLabel: (actorId && labels.get(actorId)) ?? null,
  };
}

/** The method a finished sign-in is counted under, from its audit record. */
function methodOf(bucket: SignInBucket): SignInMethod {
  if (bucket.type === 'passwordless.success') return 'passwordless';
  if (bucket.type === 'webauthn.login') return 'device';
  if (bucket.type === 'social.login') return bucket.provider === 'google' || bucket.provider === 'facebook' ? bucket.provider : 'other';
  switch (bucket.method) {
    case 'password':
    case null:
      return 'password';
    case 'passwordless':
    case 'sms':
      return 'passwordless';
    case 'google':
    case 'facebook':
      return bucket.method;
    case 'webauthn':
      return 'device';
    default:
      return 'other';
  }
}

const pad = (n: number) => String(n).padStart(2, '0');
/** YYYY-MM-DD of a day number (days since 1970-01-01). */
const dateOf = (day: number) => {
  const d = new Date(day * DAY_MS);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
};

/**
 * The admin console's audit log, its CSV export and the dashboard's sign-in chart (issue 17).
 * Operators read every record; a tenant admin reads only their tenants' (a record of no tenant,
 * such as an operator's own command, is for operators only), and naming another tenant is 403 1301.
 */
export function createAdminAuditService(ctx: AppContext) {
  const queries = createAdminAuditQueries(ctx.db, databaseEngine(ctx.config.databaseUrl));

  function scoped(admin: AdminPrincipal, input: AuditFilterInput): AuditFilter {
    if (input.tenant_id && !canAccessTenant(admin, input.tenant_id)) throw new ApiError(ErrorCode.ClientLacksPermission, 403, 'tenant_id');
    if (input.from !== undefined && input.to !== undefined && input.from >= input.to) throw new ApiError(ErrorCode.InvalidField, 400, 'to', 'to must be after from');
    return {
      ...(admin.operator ? {} : { tenantIds: admin.tenantAdminOf }),
      tenantId: input.tenant_id,
      type: input.type,
      userId: input.user_id,
      clientId: input.client_id,
      from: input.from,
      to: input.to,
    };
  }

  return {
    async list(admin: AdminPrincipal, input: AuditFilterInput & { page: number; page_size: number }): Promise<AdminAuditList> {
      const { rows, total } = await queries.list(scoped(admin, input), input.page, input.page_size);
      // The page's users and acting admins by how people know them, in one query.
      const ids = rows.flatMap((row) => [row.user_id, actorIdOf(parseJson<Record<string, unknown> | null>(row.details, null))].filter((id): id is string => Boolean(id)));
      const labels = await queries.accountLabels(ids);
      return { items: rows.map((row) => toAdminAuditEvent(row, labels)), page: input.page, pageSize: input.page_size, total };
    },

    /**
     * The matching records as CSV, newest first, read in chunks (keyset paging) as the response is
     * sent, up to AUDIT_CSV_MAX_ROWS. A UTF-8 byte order mark first, so spreadsheets read Vietnamese.
     */
    csv(admin: AdminPrincipal, input: AuditFilterInput): Readable {
      const filter = scoped(admin, input);
      async function* lines(): AsyncGenerator<string> {
        yield `\uFEFF${csvRow(AUDIT_CSV_COLUMNS)}`;
        let cursor: AuditCursor | undefined;
        let sent = 0;
        while (sent < AUDIT_CSV_MAX_ROWS) {
          const rows = await queries.after(filter, cursor, Math.min(CSV_CHUNK, AUDIT_CSV_MAX_ROWS - sent));
          if (rows.length === 0) return;
          yield rows
            .map((r) => csvRow([r.id, new Date(r.created_at).toISOString(), r.type, r.tenant_id, r.user_id, r.client_id, r.ip, r.user_agent, r.details ? parseJson<unknown>(r.details, r.details) : null]))
            .join('');
          sent += rows.length;
          const last = rows[rows.length - 1] as AuditEventRow;
          cursor = { createdAt: last.created_at, id: last.id };
          if (rows.length < CSV_CHUNK) return;
        }
      }
      return Readable.from(lines());
    },

    /**
     * Sign-ins per day over the last `days` days (today included) where the viewer is: finished
     * sign-ins by method, failures and lockouts, from one grouped query of the audit table. A first
     * factor that still needed its second step is not a sign-in: the second step's login.success is.
     */
    async signIns(admin: AdminPrincipal, input: { tenant_id?: string; days: number; utc_offset_minutes: number }, now = Date.now()): Promise<AdminSignInStats> {
      if (input.tenant_id && !canAccessTenant(admin, input.tenant_id)) throw new ApiError(ErrorCode.ClientLacksPermission, 403, 'tenant_id');
      const offsetMs = input.utc_offset_minutes * 60_000;
      const today = Math.floor((now + offsetMs) / DAY_MS);
      const firstDay = today - input.days + 1;
      const from = firstDay * DAY_MS - offsetMs;
      const to = (today + 1) * DAY_MS - offsetMs;
      const filter = { ...(admin.operator ? {} : { tenantIds: admin.tenantAdminOf }), tenantId: input.tenant_id };
      const buckets = await queries.signInBuckets(filter, from, to, offsetMs);

      const days: AdminSignInDay[] = [];
      for (let day = firstDay; day <= today; day += 1) {
        days.push({ date: dateOf(day), signIns: Object.fromEntries(SIGN_IN_METHODS.map((m) => [m, 0])) as Record<SignInMethod, number>, total: 0, failures: 0, lockouts: 0 });
      }
      for (const bucket of buckets) {
        const entry = days[bucket.day - firstDay];
        if (!entry) continue;
        if (bucket.type === 'login.locked') entry.lockouts += bucket.count;
        else if (SIGN_IN_FAILURE_TYPES.includes(bucket.type)) entry.failures += bucket.count;
        else if (!bucket.pending) {
          entry.signIns[methodOf(bucket)] += bucket.count;
          entry.total += bucket.count;
        }
      }
      return { tenantId: input.tenant_id ?? null, methods: [...SIGN_IN_METHODS], days };
    },
  };
}
export type AdminAuditService = ReturnType<typeof createAdminAuditService>;
