import type { Kysely, Transaction } from 'kysely';
import type { Database, WebauthnChallengeRow, WebauthnCredentialRow } from '../../db/schema.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** The header is the caller's to make as long as it likes; the column (and the parser) stop at 512. */
const MAX_USER_AGENT = 512;

export type ChallengeKind = 'registration' | 'activation' | 'deletion' | 'authn';
export type ChallengeState = 'pending' | 'approved' | 'consumed' | 'denied';

export interface NewCredential {
  id: string;
  tenantId: string;
  userId: string;
  credentialId: string;
  publicKey: Uint8Array;
  counter: number;
  transports: string[] | undefined;
  deviceName: string;
  /** What the browser said (credProps) of whether it made a discoverable credential (a passkey); undefined: it did not say. */
  discoverable?: boolean | undefined;
  /** Whether the authenticator said the credential is backed up (synced to other devices). */
  backedUp?: boolean | undefined;
  at: number;
}

export interface NewChallenge {
  id: string;
  tenantId: string;
  type: ChallengeKind;
  userId: string;
  clientId: string;
  interactionUid?: string | null;
  credentialId?: string | null;
  webauthnChallenge?: string | null;
  redirectKeyHash?: string | null;
  /** A device sign-in's first device: its address and User-Agent header (cut here to the column's 512). */
  requesterIp?: string | null;
  requesterUserAgent?: string | null;
  expiresAt: number;
  at: number;
}

/**
 * The `webauthn_credentials` and `webauthn_challenges` tables. As with one-time codes, every
 * change that decides whether a challenge may still be used, or whether a signature counter
 * moves on, is one conditional UPDATE whose row count is checked: two requests racing cannot
 * both win.
 */
export function createWebauthnQueries(db: Executor) {
  return {
    async listForUser(userId: string): Promise<WebauthnCredentialRow[]> {
      return db.selectFrom('webauthn_credentials').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
    },

    async findForUser(userId: string, id: string): Promise<WebauthnCredentialRow | undefined> {
      return db.selectFrom('webauthn_credentials').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    },

    async findByCredentialId(tenantId: string, credentialId: string): Promise<WebauthnCredentialRow | undefined> {
      return db.selectFrom('webauthn_credentials').selectAll().where('tenant_id', '=', tenantId).where('credential_id', '=', credentialId).executeTakeFirst();
    },

    async insertCredential(c: NewCredential): Promise<void> {
      await db
        .insertInto('webauthn_credentials')
        .values({
          id: c.id,
          tenant_id: c.tenantId,
          user_id: c.userId,
          credential_id: c.credentialId,
          public_key: Buffer.from(c.publicKey),
          counter: c.counter,
          transports: c.transports ? JSON.stringify(c.transports) : null,
          device_name: c.deviceName,
          active: 0,
          created_at: c.at,
          last_used_at: null,
          discoverable: c.discoverable === undefined ? null : Number(c.discoverable),
          backed_up: c.backedUp === undefined ? null : Number(c.backedUp),
        })
        .execute();
    },

    /** Activates the user's inactive device: false when it is gone or already active. */
    async activate(userId: string, id: string): Promise<boolean> {
      const result = await db.updateTable('webauthn_credentials').set({ active: 1 }).where('id', '=', id).where('user_id', '=', userId).where('active', '=', 0).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async deleteCredential(userId: string, id: string): Promise<boolean> {
      const result = await db.deleteFrom('webauthn_credentials').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    async deleteForUser(userId: string): Promise<void> {
      await db.deleteFrom('webauthn_credentials').where('user_id', '=', userId).execute();
    },

    /**
     * Records a verified assertion: the new counter and the time of use, only while the device is
     * active and the counter moves forward (a counter of 0 stays 0 for authenticators that do not
     * count). False means a replayed or cloned authenticator's assertion, or a device deactivated meanwhile.
     */
    async recordUse(id: string, newCounter: number, at: number): Promise<boolean> {
      const result = await db
        .updateTable('webauthn_credentials')
        .set({ counter: newCounter, last_used_at: at })
        .where('id', '=', id)
        .where('active', '=', 1)
        .where((eb) => (newCounter === 0 ? eb('counter', '=', 0) : eb('counter', '<', newCounter)))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async insertChallenge(c: NewChallenge): Promise<void> {
      // The user's challenges that can no longer be used go at the same time.
      await db.deleteFrom('webauthn_challenges').where('user_id', '=', c.userId).where('expires_at', '<=', c.at).execute();
      await db
        .insertInto('webauthn_challenges')
        .values({
          id: c.id,
          tenant_id: c.tenantId,
          type: c.type,
          user_id: c.userId,
          client_id: c.clientId,
          interaction_uid: c.interactionUid ?? null,
          credential_id: c.credentialId ?? null,
          webauthn_challenge: c.webauthnChallenge ?? null,
          redirect_key_hash: c.redirectKeyHash ?? null,
          state: 'pending',
          expires_at: c.expiresAt,
          created_at: c.at,
          requester_ip: c.requesterIp ?? null,
          requester_user_agent: c.requesterUserAgent ? c.requesterUserAgent.slice(0, MAX_USER_AGENT) : null,
        })
        .execute();
    },

    async findChallenge(id: string): Promise<WebauthnChallengeRow | undefined> {
      return db.selectFrom('webauthn_challenges').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Moves an unexpired challenge from one state to the next: true for the one caller that did so. */
    async transition(id: string, from: ChallengeState, to: ChallengeState, now: number): Promise<boolean> {
      const result = await db
        .updateTable('webauthn_challenges')
        .set({ state: to })
        .where('id', '=', id)
        .where('state', '=', from)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Gives a consumed registration ceremony back (its device could not be stored): nothing else changed. */
    async reopen(id: string): Promise<void> {
      await db.updateTable('webauthn_challenges').set({ state: 'pending' }).where('id', '=', id).where('state', '=', 'consumed').execute();
    },
  };
}
export type WebauthnQueries = ReturnType<typeof createWebauthnQueries>;
