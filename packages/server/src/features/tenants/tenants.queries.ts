import type { Kysely, Transaction } from 'kysely';
import { DEFAULT_PASSWORD_POLICY, type PasswordPolicy, type Tenant } from '@passgate/contract';
import type { Database, NewTenantRow, TenantRow, TenantUpdate } from '../../db/schema.ts';
import { reusableQuery } from '../../db/reusable-query.ts';
import { bool, parseJson } from '../../lib/json.ts';

type Executor = Kysely<Database> | Transaction<Database>;

export interface TenantRecord extends Tenant {
  passwordMaxAgeDays: number | null;
  passwordWarningDays: number | null;
  passwordHistorySize: number;
  createdAt: number;
  updatedAt: number;
}

export function toTenantRecord(row: TenantRow): TenantRecord {
  return {
    id: row.id,
    name: row.name,
    brandName: row.brand_name,
    termsUri: row.terms_uri,
    privacyUri: row.privacy_uri,
    passwordlessAuthenticationAllowed: bool(row.passwordless_authentication_allowed),
    passwordBasedAuthenticationAllowed: bool(row.password_based_authentication_allowed),
    registrationAllowed: bool(row.registration_allowed),
    resetPasswordAllowed: bool(row.reset_password_allowed),
    webauthnAllowed: bool(row.webauthn_allowed),
    customRegisterCheckbox: parseJson(row.custom_register_checkbox, null),
    passwordPolicy: parseJson<PasswordPolicy>(row.password_policy, DEFAULT_PASSWORD_POLICY),
    passwordMaxAgeDays: row.password_max_age_days,
    passwordWarningDays: row.password_warning_days,
    passwordHistorySize: row.password_history_size,
    rememberBrowserDays: row.remember_browser_days || null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The public view of a tenant (what `GET /api/v1/me/tenant` and the login screens get). */
export function toPublicTenant(record: TenantRecord): Tenant {
  return {
    id: record.id,
    name: record.name,
    brandName: record.brandName,
    termsUri: record.termsUri,
    privacyUri: record.privacyUri,
    passwordlessAuthenticationAllowed: record.passwordlessAuthenticationAllowed,
    passwordBasedAuthenticationAllowed: record.passwordBasedAuthenticationAllowed,
    registrationAllowed: record.registrationAllowed,
    resetPasswordAllowed: record.resetPasswordAllowed,
    webauthnAllowed: record.webauthnAllowed,
    customRegisterCheckbox: record.customRegisterCheckbox,
    passwordPolicy: record.passwordPolicy,
    rememberBrowserDays: record.rememberBrowserDays,
  };
}

// Read on every authorization request and sign-in: compiled once instead of built at each call.
const tenantById = reusableQuery((db, key: { id: string }) => db.selectFrom('tenants').selectAll().where('id', '=', key.id));

export function createTenantQueries(db: Executor) {
  return {
    async findById(id: string): Promise<TenantRecord | undefined> {
      const row = (await tenantById(db, { id })).rows[0];
      return row && toTenantRecord(row);
    },
    async list(): Promise<TenantRecord[]> {
      const rows = await db.selectFrom('tenants').selectAll().orderBy('id').execute();
      return rows.map(toTenantRecord);
    },
    async insert(row: NewTenantRow): Promise<void> {
      await db.insertInto('tenants').values(row).execute();
    },
    async update(id: string, changes: TenantUpdate): Promise<boolean> {
      const result = await db.updateTable('tenants').set(changes).where('id', '=', id).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async remove(id: string): Promise<boolean> {
      const result = await db.deleteFrom('tenants').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
export type TenantQueries = ReturnType<typeof createTenantQueries>;
