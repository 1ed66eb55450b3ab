import { z } from 'zod';
import { adminListQuerySchema, paginated } from './admin-list.ts';

/**
 * The admin API's audit log (issue 17): records filtered by tenant, type, user, client and time,
 * newest first, and the same as CSV. `from` is inclusive and `to` exclusive; a date without a time
 * is that day's midnight UTC, and a date-only `to` takes in that whole day.
 */

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** An ISO 8601 date or date-time (with Z or an offset), as Unix milliseconds; `endOfDay` for a date-only upper bound. */
function instant(endOfDay: boolean) {
  return z
    .union([z.iso.date(), z.iso.datetime({ offset: true })])
    .transform((value) => Date.parse(DATE_ONLY.test(value) ? `${value}T00:00:00Z` : value) + (endOfDay && DATE_ONLY.test(value) ? 86_400_000 : 0));
}

const slug = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'not a tenant id');

export const adminAuditFilterSchema = z.object({
  tenant_id: slug.optional(),
  /** An event type such as login.failure or user.disabled. */
  type: z.string().regex(/^[a-z_]+\.[a-z_]+$/, 'not an event type').max(64).optional(),
  user_id: z.string().min(1).max(64).optional(),
  client_id: z.string().min(1).max(100).optional(),
  from: instant(false).optional(),
  to: instant(true).optional(),
});

/** GET /audit */
export const adminAuditQuerySchema = adminListQuerySchema.omit({ q: true }).extend(adminAuditFilterSchema.shape);
export type AdminAuditQuery = z.infer<typeof adminAuditQuerySchema>;

/** GET /audit.csv: the same filters, every matching record (up to the export's limit), newest first. */
export const adminAuditCsvQuerySchema = adminAuditFilterSchema;
export type AdminAuditCsvQuery = z.infer<typeof adminAuditCsvQuerySchema>;

export const adminAuditEventSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  type: z.string(),
  tenantId: z.string().nullable(),
  userId: z.string().nullable(),
  clientId: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** What the record says besides (secrets masked); an admin's action carries `by` 'admin' and `actorUserId`. */
  details: z.record(z.string(), z.unknown()).nullable(),
  /** The record's user as people know them (e-mail address, else phone number); null without a user or once the account is gone. */
  userLabel: z.string().nullable(),
  /** For an admin's action, the admin as people know them (e-mail address, else phone number); null otherwise or once the account is gone. */
  actorLabel: z.string().nullable(),
});
export type AdminAuditEvent = z.infer<typeof adminAuditEventSchema>;

export const adminAuditListSchema = paginated(adminAuditEventSchema);
export type AdminAuditList = z.infer<typeof adminAuditListSchema>;

/** The columns of GET /audit.csv, in order. */
export const AUDIT_CSV_COLUMNS = ['id', 'created_at', 'type', 'tenant_id', 'user_id', 'client_id', 'ip', 'user_agent', 'details'] as const;
