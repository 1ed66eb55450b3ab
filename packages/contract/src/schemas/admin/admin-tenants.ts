import { z } from 'zod';
import { requestBody } from '../../wire.ts';
import { tenantSchema } from '../client.ts';
import { tenantCreateSchema, tenantUpdateSchema } from '../admin.ts';
import { adminListQuerySchema, paginated } from './admin-list.ts';

/**
 * The admin API's tenants (issue 17): every setting of SPEC.md's tenant and the password rules,
 * read and written by operators (create) and a tenant's own admins (read, edit). Request bodies
 * are snake_case at the top level (nested objects keep their camelCase keys, as the rest of the API);
 * answers are camelCase, times ISO 8601.
 */

export const adminTenantSchema = tenantSchema.extend({
  /** Days a password stays valid; null: it never expires. */
  passwordMaxAgeDays: z.number().int().nullable(),
  /** Days before the expiry during which sign-in warns; less than passwordMaxAgeDays. */
  passwordWarningDays: z.number().int().nullable(),
  /** How many previous passwords a new one may not repeat (0: no history). */
  passwordHistorySize: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AdminTenant = z.infer<typeof adminTenantSchema>;

export const adminTenantListQuerySchema = adminListQuerySchema;
export const adminTenantListSchema = paginated(adminTenantSchema);
export type AdminTenantList = z.infer<typeof adminTenantListSchema>;

/** POST /tenants (operators): `id` and `name` required; every other setting optional (on, default policy, no expiry, no history). */
export const adminTenantCreateBodySchema = requestBody(tenantCreateSchema.shape);
/** PATCH /tenants/{tenantId}: any subset of the settings; null clears a nullable one. */
export const adminTenantUpdateBodySchema = requestBody(tenantUpdateSchema.shape);
