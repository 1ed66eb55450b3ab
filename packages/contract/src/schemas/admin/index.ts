/** The admin API's contract (issue 17), one file per area. */
export * from './admin-list.ts';
export * from './admin-tenants.ts';
export * from './admin-clients.ts';
export * from './admin-users.ts';
export * from './admin-audit.ts';
export * from './admin-stats.ts';
