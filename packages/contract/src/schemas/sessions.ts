import { z } from 'zod';

/**
 * The signed-in user's provider sessions, as the Security page lists them ('Where you're signed in').
 * Every call needs the account area's bearer token.
 */

/** One application (relying party) signed in through a session. */
export const sessionApplicationSchema = z.object({
  clientId: z.string(),
  name: z.string(),
});

export const activeSessionSchema = z.object({
  /** Opaque and stable for the session; neither its cookie value nor its uid. */
  id: z.string(),
  /** 'Chrome 131'; empty when the browser did not say. */
  browser: z.string(),
  /** 'Windows 10'; empty when the browser did not say. */
  os: z.string(),
  /** The address it signed in from (or was last active from), when known. */
  ip: z.string().nullable(),
  /** An approximate place for the address ('Hanoi, Vietnam'), only when the server has a local GeoIP database. */
  place: z.string().optional(),
  /** ISO 8601. */
  signedInAt: z.string(),
  /** ISO 8601. */
  lastActiveAt: z.string(),
  applications: z.array(sessionApplicationSchema),
  /** The session this very request comes from. */
  current: z.boolean(),
});
export type ActiveSession = z.infer<typeof activeSessionSchema>;

/** GET /api/v1/me/sessions: the current session first, then the others, most recently active first. */
export const activeSessionsSchema = z.object({ items: z.array(activeSessionSchema) });
export type ActiveSessions = z.infer<typeof activeSessionsSchema>;

/** DELETE /api/v1/me/sessions/{id} */
export const sessionIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** POST /api/v1/me/sessions/sign-out-others: how many sessions were ended. */
export const sessionsSignedOutSchema = z.object({ signedOut: z.number().int().min(0) });
export type SessionsSignedOut = z.infer<typeof sessionsSignedOutSchema>;
