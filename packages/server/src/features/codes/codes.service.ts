import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ErrorCode, OTP_LENGTH } from '@passgate/contract';
import type { Database } from '../../db/schema.ts';
import type { ServerKeys } from '../../lib/server-keys.ts';
import { newId } from '../../lib/ids.ts';
import { accountBudgetKey, consume, takeTry, type RateLimits } from '../../plugins/rate-limits.ts';
import { inTransaction } from '../tenants/tenants.service.ts';
import { createCodeQueries, type CodeKey } from './codes.queries.ts';

/** What a one-time code is for. Each purpose has codes of its own, even for the same destination. */
export type CodePurpose = 'activation' | 'recovery' | 'email_change' | 'phone_change' | 'passwordless' | 'mfa' | 'mfa_setup' | 'webauthn_activation' | 'webauthn_deletion' | 'social_link' | 'account_deletion';

/** DESIGN.md section 7: valid 10 minutes, at most 5 tries. */
export const CODE_TTL_MS = 10 * 60_000;
export const CODE_MAX_ATTEMPTS = 5;

export interface CodeTarget {
  tenantId: string;
  purpose: CodePurpose;
  /** The e-mail address (lower case) or phone number the code is sent to. */
  destination: string;
}

/**
 * - ok: the code is right (and consumed, unless asked to keep it); `codeId` consumes it later.
 * - wrong: a wrong code while the code is still open (the try is spent).
 * - expired: no open code, an expired one, a used one, or one whose tries are spent.
 */
export type CodeCheck =
  | { result: 'ok'; codeId: string; userId: string | null; payload: string | null }
  | { result: 'wrong' }
  | { result: 'expired' };

export interface StoredTarget extends CodeTarget {
  userId: string | null;
  /** Extra data the purpose needs (JSON). */
  payload?: string | null;
}

/** A target whose code belongs to an account: its sends also count against that account's budget. */
export interface AccountTarget extends StoredTarget {
  userId: string;
}

export interface CodeSend {
  /** Sends the message carrying `code`; when it throws, nothing is stored and the cooldown is given back. */
  deliver: (code: string) => Promise<void>;
  /** Other writes to make in the same transaction as the code, before it is stored (so a failed write stores no code). */
  saveWith?: (trx: Kysely<Database>) => Promise<void>;
}

export interface CodeServiceDeps {
  db: Kysely<Database>;
  keys: ServerKeys;
  rateLimits: Pick<RateLimits, 'codeResend' | 'codeSendPerIp' | 'codeCheckPerAccount'>;
  /** Tests shorten it. */
  ttlMs?: number;
}

/**
 * The key of a target's 60 s resend cooldown. Keyed like every account budget: the destination is
 * an address or a number, or whatever was typed as a username (a password, at times), and the
 * limiter's store (Redis) keeps its keys in clear.
 */
export function resendCooldownKey(keys: ServerKeys, target: CodeTarget): string {
  return accountBudgetKey(keys, 'resend', target.tenantId, target.purpose, target.destination);
}

/**
 * One-time codes (DESIGN.md section 7): 6 digits from the CSPRNG, stored only as a keyed hash,
 * valid 10 minutes, single use, dead after 5 wrong tries, compared in constant time; a new code
 * for the same tenant, purpose and destination replaces the old one. The 60 s resend cooldown and
 * the per-address send budget are rate limiters, so they hold across instances (Redis).
 */
export function createCodeService({ db, keys, rateLimits, ttlMs = CODE_TTL_MS }: CodeServiceDeps) {
  const hashPurpose = (t: CodeTarget) => `code:${t.purpose}:${t.destination}`;
  const cooldownKey = (t: CodeTarget) => resendCooldownKey(keys, t);
  const key = (t: CodeTarget): CodeKey => ({ tenantId: t.tenantId, purpose: t.purpose, destination: t.destination });

  /** A fresh code; nothing is stored until `store`, so a code that could not be sent never replaces one that was. */
  const generate = (): string => String(randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0');

  /** Stores `code` (as a keyed hash) in place of every earlier one for the target; pass a transaction to store it with other changes. */
  async function store(target: StoredTarget, code: string, executor: Kysely<Database> = db): Promise<void> {
    const now = Date.now();
    // Delete and insert together: a failed insert leaves the earlier code in place. (Two stores at
    // once for one target are kept apart by the resend cooldown; `verify` reads only the newest.)
    await inTransaction(executor, (trx) => createCodeQueries(trx).replace({
      ...key(target),
      id: newId(),
      userId: target.userId,
      codeHash: keys.hmac(hashPurpose(target), code),
      payload: target.payload ?? null,
      expiresAt: now + ttlMs,
      at: now,
    }));
  }

  /** Gives the cooldown back when the message could not be sent, so the visitor may retry at once. */
  async function releaseSend(target: CodeTarget): Promise<void> {
    await rateLimits.codeResend.delete(cooldownKey(target)).catch(() => undefined);
  }

  /**
   * Spends the send budgets before a code is sent: one send per target per 60 s, and the per-IP
   * hourly budget. Answers 429 when either is spent: 1291 for the cooldown, 1290 for the per-IP budget (both say 'try again in N s'). Callers reserve
   * before they know whether the account exists, so the cooldown applies to every username alike.
   */
  async function reserveSend(target: CodeTarget, ip: string): Promise<void> {
    await consume(rateLimits.codeResend, cooldownKey(target), ErrorCode.ResendTooSoon);
    try {
      await consume(rateLimits.codeSendPerIp, ip);
    } catch (error) {
      await releaseSend(target);
      throw error;
    }
  }

  /**
   * The rest of a send once `reserveSend` passed, for callers that reserve before they look the
   * account up (and call `releaseSend` themselves if they stop before this). The code is stored only
   * once its message went out, so a code that could not be sent never replaces one that was.
   */
  async function sendReserved(target: StoredTarget, { deliver, saveWith }: CodeSend): Promise<void> {
    const code = generate();
    try {
      await deliver(code);
    } catch (error) {
      await releaseSend(target);
      throw error;
    }
    try {
      if (!saveWith) await store(target, code);
      else {
        await inTransaction(db, async (trx) => {
          await saveWith(trx);
          await store(target, code, trx);
        });
      }
    } catch (error) {
      // The message went out, but its code was never stored (the database failed meanwhile) and
      // does not work: the cooldown must not keep the visitor, told to try again, from a code that does.
      await releaseSend(target);
      throw error;
    }
  }

  return {
    generate,
    store,

    /** generate + store: the code to send. */
    async issue(target: StoredTarget): Promise<string> {
      const code = generate();
      await store(target, code);
      return code;
    },

    reserveSend,
    releaseSend,
    sendReserved,

    /**
     * Sends a new code for an account already known (signed in, or identified by an MFA, link or
     * device token) and stores it once the message went out. The account's own budget (the per-IP
     * limiter keyed by account) comes first: one account may not mail or text the world from many IPs.
     */
    async sendToAccount(target: AccountTarget, ip: string, send: CodeSend): Promise<void> {
      await consume(rateLimits.codeSendPerIp, `account:${target.userId}`);
      await reserveSend(target, ip);
      await sendReserved(target, send);
    },

    /**
     * Checks `code` for the target. With `keep`, a right code stays open (its try is given back)
     * so the caller can check more before consuming it with `consume(codeId)`.
     */
    async verify(target: CodeTarget, code: string, options: { keep?: boolean } = {}): Promise<CodeCheck> {
      // Every wrong code counts against the destination's budget too (429 past it), for all
      // purposes together: a guesser who asks for code after code, from address after address,
      // gets 10 tries in 15 minutes, not 5 per code.
      const giveBack = await takeTry(rateLimits.codeCheckPerAccount, accountBudgetKey(keys, 'code', target.tenantId, target.destination));
      const queries = createCodeQueries(db);
      const row = await queries.findOpen(key(target));
      const now = Date.now();
      if (!row || !(await queries.takeAttempt(row.id, CODE_MAX_ATTEMPTS, now))) {
        await giveBack();
        return { result: 'expired' };
      }
      if (!keys.hmacEquals(hashPurpose(target), code, row.code_hash)) return { result: 'wrong' };
      await giveBack();
      if (options.keep) {
        await queries.returnAttempt(row.id);
      } else if (!(await queries.consume(row.id, now))) {
        return { result: 'expired' };
      }
      return { result: 'ok', codeId: row.id, userId: row.user_id, payload: row.payload };
    },

    /** Consumes a code `verify(…, { keep: true })` accepted: false when another request used it first (or it expired meanwhile). */
    async consume(codeId: string, executor: Kysely<Database> = db): Promise<boolean> {
      return createCodeQueries(executor).consume(codeId, Date.now());
    },
  };
}
export type CodeService = ReturnType<typeof createCodeService>;
