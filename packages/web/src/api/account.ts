import type { z } from 'zod';
import type { AccountDeletionBody,
  PasswordChangeBody,
  PasswordChangeResponse,
  AvatarUploadBody,
  CodeSentResponse,
  emailUpdateBodySchema,
  emailVerifyBodySchema,
  phoneUpdateBodySchema,
  phoneVerifyBodySchema,
  MfaAssociateBody,
  MfaAssociateResponse,
  MfaConfigResponse,
  MfaConfirmBody,
  MfaConfirmResponse,
  BackupCodesResponse,
  BackupCodesStatus,
  MfaPasswordBody,
  Profile,
  ProfileUpdateBody,
  RememberedBrowsers,
  Tenant, SecurityEvents, ActiveSessions, SessionsSignedOut } from '@passgate/contract';
import { api } from './client.ts';

export type EmailVerifyBody = z.output<typeof emailVerifyBodySchema>;
export type EmailUpdateBody = z.output<typeof emailUpdateBodySchema>;
export type PhoneVerifyBody = z.output<typeof phoneVerifyBodySchema>;
export type PhoneUpdateBody = z.output<typeof phoneUpdateBodySchema>;

/** The signed-in calls (SPEC.md section 7): each sends the account area's bearer access token. */
export const accountApi = {
  me: (token: string) => api.get<Profile>('/v1/me', { token }),
  tenant: (token: string) => api.get<Tenant>('/v1/me/tenant', { token }),
  updateProfile: (token: string, body: ProfileUpdateBody) => api.patch<Profile>('/v1/me', { ...body }, { token }),
  /** `image` is a data: URL (`data:image/jpeg;base64,…`), which carries its own type. */
  uploadAvatar: (token: string, body: AvatarUploadBody) => api.post<Profile>('/v1/me/avatar', { ...body }, { token }),
  verifyEmail: (token: string, body: EmailVerifyBody) => api.post<CodeSentResponse>('/v1/me/email/verify', { ...body }, { token }),
  updateEmail: (token: string, body: EmailUpdateBody) => api.post<Profile>('/v1/me/email/update', { ...body }, { token }),
  verifyPhoneNumber: (token: string, body: PhoneVerifyBody) => api.post<CodeSentResponse>('/v1/me/phoneNumber/verify', { ...body }, { token }),
  updatePhoneNumber: (token: string, body: PhoneUpdateBody) => api.post<Profile>('/v1/me/phoneNumber/update', { ...body }, { token }),
  /** 204: the account, its sessions and grants are gone. Needs the typed confirmation and the password, or the deletion code. */
  deleteAccount: (token: string, body: AccountDeletionBody) => api.delete<unknown>('/v1/me', { token }, { ...body }),
  /** Sends the deletion code of an account without a password to its verified e-mail address or phone. */
  sendDeletionCode: (token: string) => api.post<CodeSentResponse>('/v1/me/deletion/code', {}, { token }),
  /** The password re-check before the security settings: answers whether 2-step verification is on. */
  mfaConfig: (token: string, body: MfaPasswordBody) => api.post<MfaConfigResponse>('/v1/me/mfa/config', { ...body }, { token }),
  /** totp: the QR code and secret; sms/email: sends the code. */
  mfaAssociate: (token: string, body: MfaAssociateBody) => api.post<MfaAssociateResponse>('/v1/me/mfa/associate', { ...body }, { token }),
  /** Turning 2-step on also answers the ten backup codes, this once. */
  mfaConfirm: (token: string, body: MfaConfirmBody) => api.post<MfaConfirmResponse>('/v1/me/mfa/confirm', { ...body }, { token }),
  mfaDisable: (token: string, body: MfaPasswordBody) => api.post<Profile>('/v1/me/mfa/disable', { ...body }, { token }),
  /** How many backup codes are left (never the codes). */
  backupCodes: (token: string) => api.get<BackupCodesStatus>('/v1/me/mfa/backup-codes', { token }),
  /** New backup codes, shown this once; the earlier ones stop working. */
  regenerateBackupCodes: (token: string, body: MfaPasswordBody) => api.post<BackupCodesResponse>('/v1/me/mfa/backup-codes', { ...body }, { token }),
  /** The account's recent security events (sign-ins, failures, changes), newest first. */
  securityEvents: (token: string) => api.get<SecurityEvents>('/v1/me/security-events', { token }),
  /** Changes the password (the current one re-checked); the other sessions are signed out. */
  changePassword: (token: string, body: PasswordChangeBody) => api.post<PasswordChangeResponse>('/v1/me/password', { ...body }, { token }),
  /** How many browsers skip the 2-step verification ('Remember this browser'). */
  rememberedBrowsers: (token: string) => api.get<RememberedBrowsers>('/v1/me/remembered-browsers', { token }),
  /** 'Forget all browsers': each asks for the 2-step code again at its next sign-in. */
  forgetRememberedBrowsers: (token: string) => api.delete<RememberedBrowsers>('/v1/me/remembered-browsers', { token }),
  /** Where the user is signed in: each provider session, this one first. */
  sessions: (token: string) => api.get<ActiveSessions>('/v1/me/sessions', { token }),
  /** 204: that session, its applications' grants and tokens are gone. */
  signOutSession: (token: string, id: string) => api.delete<unknown>(`/v1/me/sessions/${encodeURIComponent(id)}`, { token }),
  signOutOtherSessions: (token: string) => api.post<SessionsSignedOut>('/v1/me/sessions/sign-out-others', {}, { token }),
};

type AccountApi = typeof accountApi;
type Bound<F> = F extends (token: string, ...args: infer A) => Promise<infer R> ? (...args: A) => Promise<R> : never;
/** The account calls with the token filled in. */
export type BoundAccountApi = { [K in keyof AccountApi]: Bound<AccountApi[K]> };

/**
 * Binds every call to `token`; `onError` sees each failure first (the account area sends a 401 to
 * the session-expired alert there), then the caller gets it as usual.
 */
export function bindAccountApi(token: string, onError: (error: unknown) => void): BoundAccountApi {
  const bound = {} as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const [name, call] of Object.entries(accountApi) as [string, (token: string, ...args: unknown[]) => Promise<unknown>][]) {
    bound[name] = async (...args) => {
      try {
        return await call(token, ...args);
      } catch (error) {
        onError(error);
        throw error;
      }
    };
  }
  return bound as BoundAccountApi;
}
