import { z } from 'zod';

/** GET /api/v1/config: what the SPA needs at run time, so one build serves every deployment. */
export const runtimeConfigSchema = z.object({
  apiUrl: z.string(),
  authority: z.string(),
  clientId: z.string(),
  redirectUri: z.string(),
  postLogoutRedirectUri: z.string(),
  scope: z.string(),
  googleAppId: z.string().nullable(),
  facebookAppId: z.string().nullable(),
  policyUrl: z.string(),
  trackingAppId: z.string().nullable(),
  /** The admin console's public client (`admin-console`) and its addresses under /admin. */
  adminConsole: z.object({ clientId: z.string(), redirectUri: z.string(), postLogoutRedirectUri: z.string() }).optional(),
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;
