import type { SocialLinkBody, SocialLinkCodeSent, SocialLinkSendCodeBody, SocialLoginBody, SocialLoginResponse } from '@passgate/contract';
import { api } from './client.ts';

/** Sign-in with Google and Facebook (SPEC.md section 7), and linking such a sign-in to an existing account. */
export const socialApi = {
  login: (body: SocialLoginBody) => api.post<SocialLoginResponse>('/v1/social/login', { ...body }),
  sendLinkCode: (body: SocialLinkSendCodeBody) => api.post<SocialLinkCodeSent>('/v1/social/link/send-code', { ...body }),
  link: (body: SocialLinkBody) => api.post<{ redirectTo: string }>('/v1/social/link', { ...body }),
};
