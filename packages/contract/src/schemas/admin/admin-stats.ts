import { z } from 'zod';

/**
 * The admin dashboard's chart (issue 17): finished sign-ins per day by method, failed sign-in
 * attempts and lockouts, for one tenant or (operators) all. Days are calendar days where the
 * viewer is: `utc_offset_minutes` east of UTC (Vietnam: 420).
 */

export const SIGN_IN_METHODS = ['password', 'passwordless', 'google', 'facebook', 'device', 'other'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

export const adminSignInStatsQuerySchema = z.object({
  tenant_id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'not a tenant id').optional(),
  days: z.coerce.number().int().min(1).max(90).default(30),
  utc_offset_minutes: z.coerce.number().int().min(-720).max(840).default(0),
});
export type AdminSignInStatsQuery = z.infer<typeof adminSignInStatsQuerySchema>;

const countsByMethod = z.object(Object.fromEntries(SIGN_IN_METHODS.map((m) => [m, z.number().int()])) as Record<SignInMethod, z.ZodNumber>);

export const adminSignInDaySchema = z.object({
  /** YYYY-MM-DD, in the viewer's time zone. */
  date: z.string(),
  /** Finished sign-ins by first factor: a device is a WebAuthn device, other is a sign-in right after activation. */
  signIns: countsByMethod,
  /** Every finished sign-in of the day. */
  total: z.number().int(),
  /** Refused sign-in attempts: wrong password, wrong code, refused social or device sign-in, wrong second step. */
  failures: z.number().int(),
  /** Accounts (and unknown usernames) locked after repeated failures. */
  lockouts: z.number().int(),
});
export type AdminSignInDay = z.infer<typeof adminSignInDaySchema>;

export const adminSignInStatsSchema = z.object({
  /** The tenant counted, or null for all of them (operators). */
  tenantId: z.string().nullable(),
  methods: z.array(z.enum(SIGN_IN_METHODS)),
  /** Oldest first; every day of the window, zero or not. */
  days: z.array(adminSignInDaySchema),
});
export type AdminSignInStats = z.infer<typeof adminSignInStatsSchema>;
