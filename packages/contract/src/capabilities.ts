/** Capability strings of SPEC.md section 3. A client that lists none is assumed to have them all. */
export const capabilities = [
  'social:facebook:login',
  'social:facebook:register',
  'social:google:login',
  'social:google:register',
  'social:apple:login',
  'social:apple:register',
  'passwordless:login',
  'passwordless:register',
  'users:email:login',
  'users:phoneNumber:login',
  'users:email:register',
  'users:phoneNumber:register',
  'ibanking:login',
  'password:reset',
  'webauthn:login',
  'webauthn:register',
] as const;

export type Capability = (typeof capabilities)[number];

export function isCapability(value: string): value is Capability {
  return (capabilities as readonly string[]).includes(value);
}

/** The capabilities a client effectively has: its own list, or every capability when it lists none. */
export function effectiveCapabilities(permissions: readonly string[] | null | undefined): Set<Capability> {
  const listed = (permissions ?? []).filter(isCapability);
  return new Set(listed.length > 0 ? listed : capabilities);
}
