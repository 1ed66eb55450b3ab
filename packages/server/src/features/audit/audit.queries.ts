import type { Insertable, Kysely, Transaction } from 'kysely';
import type { AuditEventRow, AuditEventsTable, Database } from '../../db/schema.ts';
import { reusableQuery } from '../../db/reusable-query.ts';
import { newId } from '../../lib/ids.ts';
import { redactSecrets } from '../../lib/redact.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** Security-relevant events (DESIGN.md section 7). Add new types here as features arrive. */
export type AuditEventType =
  | 'login.success'
  | 'login.failure'
  | 'login.locked'
  | 'signin.new_browser'
  | 'logout'
  | 'user.created'
  | 'user.registered'
  | 'user.activated'
  | 'user.disabled'
  | 'user.enabled'
  | 'user.unlocked'
  | 'code.sent'
  | 'code.failed'
  | 'code.send_failed'
  | 'password.recovery_requested'
  | 'password.reset'
  | 'password.changed'
  | 'email.changed'
  | 'user.email_released'
  | 'phone.changed'
  | 'account.deleted'
  | 'account.deletion_refused'
  | 'sessions.ended'
  | 'session.ended'
  | 'mfa.enabled'
  | 'mfa.disabled'
  | 'mfa.method_changed'
  | 'mfa.challenge_sent'
  | 'mfa.success'
  | 'mfa.failure'
  | 'mfa.backup_codes_generated'
  | 'mfa.backup_code_used'
  | 'mfa.skipped_remembered'
  | 'mfa.remembered_browser_refused'
  | 'mfa.remembered_browsers_forgotten'
  | 'passwordless.code_sent'
  | 'passwordless.success'
  | 'passwordless.failure'
  | 'webauthn.registered'
  | 'webauthn.activated'
  | 'webauthn.deleted'
  | 'webauthn.login'
  | 'webauthn.login_failed'
  | 'webauthn.login_denied'
  | 'social.login'
  | 'social.registered'
  | 'social.linked'
  | 'social.login_failed'
  | 'sms.send_failed'
  | 'client.created'
  | 'client.updated'
  | 'client.removed'
  | 'client.secret_rotated'
  | 'admin.role_granted'
  | 'admin.role_revoked'
  | 'tenant.created'
  | 'tenant.updated'
  | 'tenant.removed';

export interface AuditEvent {
  type: AuditEventType;
  tenantId?: string | null;
  userId?: string | null;
  clientId?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  details?: Record<string, unknown>;
}

/** Hears each event once it is stored (metrics count sign-ins from them). */
export type AuditObserver = (event: AuditEvent) => void;

// Written on every sign-in (and most account changes): compiled once instead of built at each call.
const insertAuditEvent = reusableQuery((db, row: Insertable<AuditEventsTable>) =>
  db.insertInto('audit_events').values({
    id: row.id,
    type: row.type,
    tenant_id: row.tenant_id,
    user_id: row.user_id,
    client_id: row.client_id,
    ip: row.ip,
    user_agent: row.user_agent,
    details: row.details,
    created_at: row.created_at,
  }),
);

export function createAuditQueries(db: Executor) {
  const observers = new Set<AuditObserver>();
  return {
    /**
     * Only this instance's records are heard: the context's one carries every sign-in event, while
     * the instances made for a transaction stay unobserved.
     */
    observe(observer: AuditObserver): () => void {
      observers.add(observer);
      return () => observers.delete(observer);
    },
    async record(event: AuditEvent, at = Date.now()): Promise<void> {
      await insertAuditEvent(db, {
        id: newId(),
        type: event.type,
        tenant_id: event.tenantId ?? null,
        user_id: event.userId ?? null,
        client_id: event.clientId ?? null,
        ip: event.ip ?? null,
        user_agent: event.userAgent?.slice(0, 512) ?? null,
        details: event.details ? JSON.stringify(redactSecrets(event.details)) : null,
        created_at: at,
      });
      for (const observer of observers) {
        try {
          observer(event);
        } catch {
          // An observer's fault must never fail the request whose event was just stored.
        }
      }
    },
    async listForUser(userId: string, limit = 50): Promise<AuditEventRow[]> {
      return db.selectFrom('audit_events').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').limit(limit).execute();
    },
  };
}
export type AuditQueries = ReturnType<typeof createAuditQueries>;
