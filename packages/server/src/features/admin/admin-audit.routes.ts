import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminAuditCsvQuerySchema, adminAuditListSchema, adminAuditQuerySchema, adminSignInStatsQuerySchema, adminSignInStatsSchema } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { adminOf } from './admin-auth.ts';
import { adminErrorResponses, adminSecurity } from './admin-errors.ts';
import { AUDIT_CSV_MAX_ROWS, createAdminAuditService } from './admin-audit.service.ts';

const SCOPE =
  'Operators read every record; a tenant admin reads only their own tenants\' records (403 1301 for `tenant_id` of another tenant). ' +
  '`from` (inclusive) and `to` (exclusive) are ISO 8601 dates or date-times; a date-only `to` takes in that whole day (UTC). ';

/** The admin console's audit log, its CSV export, and the dashboard's sign-in chart (issue 17). */
export async function adminAuditRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const audit = createAdminAuditService(ctx);

  api.get('/audit', {
    schema: {
      tags: ['admin: audit'],
      summary: 'The audit log',
      description: SCOPE + 'Filters: `tenant_id`, `type` (such as login.failure), `user_id`, `client_id`, `from`, `to`. Newest first, paginated. An admin\'s action carries details.by "admin" and details.actorUserId.',
      security: adminSecurity,
      querystring: adminAuditQuerySchema,
      response: { 200: adminAuditListSchema, ...adminErrorResponses },
    },
    handler: async (request) => audit.list(adminOf(request), request.query),
  });

  api.get('/audit.csv', {
    schema: {
      tags: ['admin: audit'],
      summary: 'The audit log as CSV',
      description:
        SCOPE +
        `The same filters as /audit; every matching record, newest first, at most ${AUDIT_CSV_MAX_ROWS.toLocaleString('en')} (narrow the time range for more). ` +
        'UTF-8 with a byte order mark, CRLF lines, RFC 4180 quoting; a cell beginning with =, +, -, @, a tab or a carriage return is prefixed with an apostrophe so that no spreadsheet runs it as a formula. ' +
        'Columns: id, created_at, type, tenant_id, user_id, client_id, ip, user_agent, details (JSON).',
      security: adminSecurity,
      querystring: adminAuditCsvQuerySchema,
      response: { 200: z.any().describe('text/csv'), ...adminErrorResponses },
    },
    handler: async (request, reply) => {
      const stream = audit.csv(adminOf(request), request.query);
      const stamp = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="passgate-audit-${stamp}.csv"`)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  });

  api.get('/stats/sign-ins', {
    schema: {
      tags: ['admin: audit'],
      summary: 'Sign-ins per day, by method, with failures and lockouts',
      description:
        'The last `days` days (default 30, at most 90; today included), each a calendar day `utc_offset_minutes` east of UTC (default 0; Vietnam 420). ' +
        'Finished sign-ins by first factor (password, passwordless, google, facebook, device, other: right after activation); a first factor still waiting for its second step is counted once the second step passes. ' +
        'Failures: wrong passwords, wrong passwordless codes, refused social or device sign-ins, wrong second steps. Lockouts: login.locked. ' +
        'One tenant with `tenant_id`, else every tenant the admin may see (a tenant admin: their own).',
      security: adminSecurity,
      querystring: adminSignInStatsQuerySchema,
      response: { 200: adminSignInStatsSchema, ...adminErrorResponses },
    },
    handler: async (request) => audit.signIns(adminOf(request), request.query),
  });
}
