import { sql, type Kysely } from 'kysely';

/**
 * Who may administer (issue 17): an `operator` (every tenant; tenant_id NULL) or a `tenant-admin`
 * of one tenant. One row per grant, unique per (user_id, role, tenant_id): NULLs are distinct in
 * a unique index on both engines, so operators get a partial unique index of their own. Deleting
 * the user or the tenant deletes the grant. Forward only; never imports application code. Runs on
 * SQLite and PostgreSQL alike.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('admin_roles')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('tenant_id', 'varchar(64)', (c) => c.references('tenants.id').onDelete('cascade'))
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    .addColumn('granted_at', 'bigint', (c) => c.notNull())
    // Who granted it: 'cli', 'seed', or the granting admin's user id.
    .addColumn('granted_by', 'varchar(64)')
    .execute();
  await db.schema.createIndex('admin_roles_user_role_tenant_uq').unique().on('admin_roles').columns(['user_id', 'role', 'tenant_id']).execute();
  await db.schema
    .createIndex('admin_roles_operator_uq')
    .unique()
    .on('admin_roles')
    .columns(['user_id', 'role'])
    .where(sql.ref('tenant_id'), 'is', null)
    .execute();
  await db.schema.createIndex('admin_roles_tenant_idx').on('admin_roles').column('tenant_id').execute();
}
