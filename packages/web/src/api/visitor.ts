import type { CodeSentResponse, ConfirmBody, ConfirmResponse, RegisterBody, RegisterResponse, ResetPasswordBody, SendCodeBody } from '@passgate/contract';
import { api } from './client.ts';

/** The visitor calls of the login flow (SPEC.md section 7): registration, activation, password recovery. */
export const visitorApi = {
  register: (body: RegisterBody) => api.post<RegisterResponse>('/v1/users/register', { ...body }),
  confirm: (body: ConfirmBody) => api.post<ConfirmResponse>('/v1/users/confirm', { ...body }),
  resendActivation: (body: SendCodeBody) => api.post<CodeSentResponse>('/v1/users/activation/resend', { ...body }),
  recoverPassword: (body: SendCodeBody) => api.post<CodeSentResponse>('/v1/password/recover', { ...body }),
  resetPassword: (body: ResetPasswordBody) => api.post<{ ok: true }>('/v1/password/reset', { ...body }),
};
