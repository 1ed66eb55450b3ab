import type { Kysely } from 'kysely';
import { tenantCreateSchema, tenantUpdateSchema, type TenantUpdateInput } from '@passgate/contract';
import type { Database, TenantUpdate } from '../../db/schema.ts';
import { bit, toJson } from '../../lib/json.ts';
import { createAuditQueries } from '../audit/audit.queries.ts';
import { createClientQueries } from '../clients/clients.queries.ts';
import { AdminInputError, parseAdminInput, type AdminInputProblem } from '../admin-input-error.ts';
import { createTenantQueries, type TenantRecord } from './tenants.queries.ts';

/** Who made an administrative change, for the audit record ('cli', 'seed', 'admin'…). */
export interface AdminActor {
  by?: string;
  /** The admin console's signed-in admin (admin API calls): the record's details.actorUserId. */
  actorUserId?: string;
  ip?: string | null;
  userAgent?: string | null;
}

/** What an administrative change's audit record says about its actor: `details` fields, and the request's IP and user agent. */
export function actorOf(actor: AdminActor): { details: { by: string; actorUserId?: string }; ip: string | null; userAgent: string | null } {
  return {
    details: { by: actor.by ?? 'admin', ...(actor.actorUserId ? { actorUserId: actor.actorUserId } : {}) },
    ip: actor.ip ?? null,
    userAgent: actor.userAgent ?? null,
  };
}

/** The audit event fields of an actor: `{ ip, userAgent, details }` with `extra` merged into details. */
export function actorEvent(actor: AdminActor, extra: Record<string, unknown> = {}) {
  const { details, ip, userAgent } = actorOf(actor);
  return { ip, userAgent, details: { ...details, ...extra } };
}

/** Runs `fn` in a transaction, or in the caller's when `db` already is one. */
export async function inTransaction<T>(db: Kysely<Database>, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

/** The columns an update (or the settings part of a creation) sets, from validated input. */
function tenantColumns(input: TenantUpdateInput): TenantUpdate {
  const c: TenantUpdate = {};
  if (input.name !== undefined) c.name = input.name;
  if (input.brandName !== undefined) c.brand_name = input.brandName || null;
  if (input.termsUri !== undefined) c.terms_uri = input.termsUri;
  if (input.privacyUri !== undefined) c.privacy_uri = input.privacyUri;
  if (input.passwordlessAuthenticationAllowed !== undefined) c.passwordless_authentication_allowed = bit(input.passwordlessAuthenticationAllowed);
  if (input.passwordBasedAuthenticationAllowed !== undefined) c.password_based_authentication_allowed = bit(input.passwordBasedAuthenticationAllowed);
  if (input.registrationAllowed !== undefined) c.registration_allowed = bit(input.registrationAllowed);
  if (input.resetPasswordAllowed !== undefined) c.reset_password_allowed = bit(input.resetPasswordAllowed);
  if (input.webauthnAllowed !== undefined) c.webauthn_allowed = bit(input.webauthnAllowed);
  if (input.passwordPolicy !== undefined) c.password_policy = input.passwordPolicy ? toJson(input.passwordPolicy) : null;
  if (input.passwordMaxAgeDays !== undefined) c.password_max_age_days = input.passwordMaxAgeDays;
  if (input.passwordWarningDays !== undefined) c.password_warning_days = input.passwordWarningDays;
  if (input.passwordHistorySize !== undefined) c.password_history_size = input.passwordHistorySize;
  // 0 and null both turn 'Remember this browser' off; stored as null.
  if (input.rememberBrowserDays !== undefined) c.remember_browser_days = input.rememberBrowserDays || null;
  if (input.customRegisterCheckbox !== undefined) c.custom_register_checkbox = input.customRegisterCheckbox ? toJson(input.customRegisterCheckbox) : null;
  return c;
}

function expiryProblems(maxAge: number | null, warning: number | null): AdminInputProblem[] {
  if (maxAge !== null && warning !== null && warning >= maxAge) {
    return [{ field: 'passwordWarningDays', message: `must be less than the password's maximum age (${maxAge} days)` }];
  }
  return [];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Creating, reading, changing and removing tenants (the command line and the demo seed use it). */
export function createTenantService({ db }: { db: Kysely<Database> }) {
  const tenants = createTenantQueries(db);

  async function mustFind(id: string): Promise<TenantRecord> {
    const tenant = await tenants.findById(id);
    if (!tenant) throw AdminInputError.of('id', `tenant '${id}' does not exist`);
    return tenant;
  }

  return {
    async create(raw: unknown, actor: AdminActor = {}): Promise<TenantRecord> {
      const input = parseAdminInput(tenantCreateSchema, raw);
      const problems = expiryProblems(input.passwordMaxAgeDays ?? null, input.passwordWarningDays ?? null);
      if (await tenants.findById(input.id)) problems.unshift({ field: 'id', message: `tenant '${input.id}' already exists` });
      if (problems.length > 0) throw new AdminInputError(problems);

      const now = Date.now();
      return inTransaction(db, async (trx) => {
        const { id, ...settings } = input;
        await createTenantQueries(trx).insert({
          id,
          name: input.name,
          brand_name: null,
          terms_uri: null,
          privacy_uri: null,
          passwordless_authentication_allowed: 1,
          password_based_authentication_allowed: 1,
          registration_allowed: 1,
          reset_password_allowed: 1,
          webauthn_allowed: 1,
          password_policy: null,
          password_max_age_days: null,
          password_warning_days: null,
          password_history_size: 0,
          custom_register_checkbox: null,
          ...tenantColumns(settings),
          created_at: now,
          updated_at: now,
        });
        await createAuditQueries(trx).record({ type: 'tenant.created', tenantId: id, ...actorEvent(actor, { fields: Object.keys(settings) }) }, now);
        const created = await createTenantQueries(trx).findById(id);
        if (!created) throw new Error(`tenant '${id}' vanished after it was created`);
        return created;
      });
    },

    list(): Promise<TenantRecord[]> {
      return tenants.list();
    },

    show(id: string): Promise<TenantRecord> {
      return mustFind(id);
    },

    /** Sets the given fields; returns the tenant as it now is and the names of the fields given. */
    async update(id: string, raw: unknown, actor: AdminActor = {}): Promise<{ tenant: TenantRecord; changed: string[] }> {
      const input = parseAdminInput(tenantUpdateSchema, raw);
      const existing = await mustFind(id);
      const problems = expiryProblems(
        input.passwordMaxAgeDays === undefined ? existing.passwordMaxAgeDays : input.passwordMaxAgeDays,
        input.passwordWarningDays === undefined ? existing.passwordWarningDays : input.passwordWarningDays,
      );
      if (problems.length > 0) throw new AdminInputError(problems);
      const changed = Object.keys(input).filter((k) => input[k as keyof TenantUpdateInput] !== undefined);
      if (changed.length === 0) throw AdminInputError.of('(input)', 'nothing to change: give at least one field to set');

      const now = Date.now();
      return inTransaction(db, async (trx) => {
        await createTenantQueries(trx).update(id, { ...tenantColumns(input), updated_at: now });
        await createAuditQueries(trx).record({ type: 'tenant.updated', tenantId: id, ...actorEvent(actor, { fields: changed }) }, now);
        return { tenant: await mustFindIn(trx, id), changed };
      });
    },

    /** Refuses while the tenant still has clients or users. */
    async remove(id: string, actor: AdminActor = {}): Promise<void> {
      await mustFind(id);
      const clientCount = await createClientQueries(db).countForTenant(id);
      const userRow = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('tenant_id', '=', id)
        .executeTakeFirstOrThrow();
      const userCount = Number(userRow.n);
      if (clientCount > 0 || userCount > 0) {
        const what = [clientCount > 0 && plural(clientCount, 'client'), userCount > 0 && plural(userCount, 'user')].filter(Boolean).join(' and ');
        throw AdminInputError.of('id', `tenant '${id}' still has ${what}; remove them first`);
      }
      await inTransaction(db, async (trx) => {
        await createTenantQueries(trx).remove(id);
        await createAuditQueries(trx).record({ type: 'tenant.removed', tenantId: id, ...actorEvent(actor) });
      });
    },
  };
}
export type TenantService = ReturnType<typeof createTenantService>;

async function mustFindIn(db: Kysely<Database>, id: string): Promise<TenantRecord> {
  const tenant = await createTenantQueries(db).findById(id);
  if (!tenant) throw AdminInputError.of('id', `tenant '${id}' does not exist`);
  return tenant;
}
