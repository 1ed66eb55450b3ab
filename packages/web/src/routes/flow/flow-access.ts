import type { PublicClient, UsernameKind } from '@passgate/contract';
import { loginOptions, registerUsernameKinds } from '../login/login-options.ts';

/** The visitor screens do not care about the browser's device support. */
const anyBrowser = { publicKeyCredential: false };

/** SPEC.md section 6: /register, /activation and /activation/resend need registrationAllowed and a register capability. */
export function canRegister(client: PublicClient): boolean {
  return loginOptions(client, anyBrowser).register;
}

/** SPEC.md section 6: /password/recover and /password/update need resetPasswordAllowed and password:reset. */
export function canResetPassword(client: PublicClient): boolean {
  return loginOptions(client, anyBrowser).forgotPassword;
}

/** SPEC.md section 6: /login/passwordless needs passwordlessAuthenticationAllowed and passwordless:login. */
export function canUsePasswordless(client: PublicClient): boolean {
  return loginOptions(client, anyBrowser).passwordless;
}

/** The kinds of username an existing account of this client may have: those it signs in with or registers. */
export function accountUsernameKinds(client: PublicClient): UsernameKind[] {
  const kinds = new Set([...loginOptions(client, anyBrowser).usernameKinds, ...registerUsernameKinds(client)]);
  return (['email', 'phone'] as const).filter((kind) => kinds.has(kind));
}
