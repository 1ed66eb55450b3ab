import type {
  CodeSentResponse,
  MfaLoginBody,
  MfaTriggerBody,
  PasswordlessLoginBody,
  PasswordlessLoginResponse,
  PasswordlessResendBody,
  PasswordlessSendBody,
} from '@passgate/contract';
import { api } from './client.ts';

/** The second step of a sign-in (SPEC.md section 7): the MFA code after the password. */
export const mfaLoginApi = {
  triggerChallenge: (body: MfaTriggerBody) => api.post<CodeSentResponse>('/v1/mfa/trigger-challenge', { ...body }),
  login: (body: MfaLoginBody) => api.post<{ redirectTo: string }>('/v1/mfa/login', { ...body }),
};

/** Passwordless sign-in by phone and SMS code (SPEC.md sections 2 and 4). */
export const passwordlessApi = {
  send: (body: PasswordlessSendBody) => api.post<CodeSentResponse>('/v1/passwordless/send', { ...body }),
  resend: (body: PasswordlessResendBody) => api.post<CodeSentResponse>('/v1/passwordless/resend', { ...body }),
  login: (body: PasswordlessLoginBody) => api.post<PasswordlessLoginResponse>('/v1/passwordless/login', { ...body }),
};
