import { z } from 'zod';

/**
 * The shape every list of the admin API shares (issue 17): the query `page` (1-based, default 1),
 * `page_size` (default 20, at most 100) and an optional search text `q`; the answer
 * `{ items, page, pageSize, total }`. Areas extend the query with their own filters.
 */

export const ADMIN_PAGE_SIZE_DEFAULT = 20;
export const ADMIN_PAGE_SIZE_MAX = 100;

export const adminListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(ADMIN_PAGE_SIZE_MAX).default(ADMIN_PAGE_SIZE_DEFAULT),
  /** Search text; blank means none. */
  q: z.string().trim().max(200).optional(),
});
export type AdminListQuery = z.infer<typeof adminListQuerySchema>;

/** A page of `item`s and how many there are in all. */
export function paginated<Item extends z.ZodType>(item: Item) {
  return z.object({
    items: z.array(item),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
    total: z.number().int().min(0),
  });
}
export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

/** The SQL window of a page: `limit` rows from `offset`. */
export function pageWindow(query: Pick<AdminListQuery, 'page' | 'page_size'>): { limit: number; offset: number } {
  return { limit: query.page_size, offset: (query.page - 1) * query.page_size };
}

/** A path's tenant id, as the admin API names it. */
export const adminTenantParamsSchema = z.object({ tenantId: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'not a tenant id') });

/** What an admin who is allowed nothing else learns about themselves (GET /api/admin/v1/me). */
export const adminMeSchema = z.object({
  userId: z.string(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  /** True for an operator: every tenant. */
  operator: z.boolean(),
  /** The tenants this admin administers as a tenant admin. */
  tenantAdminOf: z.array(z.string()),
});
export type AdminMe = z.infer<typeof adminMeSchema>;
