const DAY = 86_400_000;

export interface PasswordExpiry {
  expired: boolean;
  warning: boolean;
  expiresAt: number;
}

/** Whether a password set at `changedAt` has expired, or is inside the tenant's warning period. */
export function passwordExpiry(
  changedAt: number | null,
  tenant: { passwordMaxAgeDays: number | null; passwordWarningDays: number | null },
  now: number,
): PasswordExpiry {
  if (!tenant.passwordMaxAgeDays || changedAt === null) return { expired: false, warning: false, expiresAt: Number.POSITIVE_INFINITY };
  const expiresAt = changedAt + tenant.passwordMaxAgeDays * DAY;
  const warnFrom = expiresAt - (tenant.passwordWarningDays ?? 0) * DAY;
  return { expired: now >= expiresAt, warning: now < expiresAt && now >= warnFrom, expiresAt };
}
