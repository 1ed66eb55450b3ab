import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { runtimeConfigSchema, type RuntimeConfig } from '@passgate/contract';
import type { AppContext } from '../context.ts';
import { ACCOUNT_CLIENT_ID } from '../plugins/account-auth.ts';
import type { ClientRecord } from './clients/clients.queries.ts';
import { ADMIN_CONSOLE_CLIENT_ID } from './admin/admin-auth.ts';

/**
 * What the SPA needs at run time, so one build serves every deployment. Every page of the SPA
 * carries it in its HTML (spa.ts), so a first load does not wait for a request to learn it.
 */
export async function runtimeConfigOf(ctx: AppContext): Promise<RuntimeConfig> {
  return runtimeConfigWith(ctx, await ctx.clients.findById(ACCOUNT_CLIENT_ID));
}

/** The runtime configuration given the account area's client (undefined: no social app ids). */
export function runtimeConfigWith(ctx: Pick<AppContext, 'config'>, account: ClientRecord | undefined): RuntimeConfig {
  const { publicUrl, issuer } = ctx.config;
  return {
    apiUrl: `${publicUrl}/api`,
    authority: issuer,
    clientId: ACCOUNT_CLIENT_ID,
    redirectUri: `${publicUrl}/user/callback`,
    postLogoutRedirectUri: `${publicUrl}/user/dashboard`,
    scope: 'openid profile email phone',
    googleAppId: account?.googleAppId ?? null,
    facebookAppId: account?.facebookAppId ?? null,
    policyUrl: `${publicUrl}/privacy`,
    trackingAppId: null,
    adminConsole: { clientId: ADMIN_CONSOLE_CLIENT_ID, redirectUri: `${publicUrl}/admin/callback`, postLogoutRedirectUri: `${publicUrl}/admin` },
  };
}

export async function runtimeConfigRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get('/api/v1/config', {
    schema: { tags: ['configuration'], summary: 'Runtime configuration of the single-page app', response: { 200: runtimeConfigSchema } },
    handler: async (): Promise<RuntimeConfig> => runtimeConfigOf(ctx),
  });
}
