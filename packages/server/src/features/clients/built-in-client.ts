import type { AppContext } from '../../context.ts';
import { createClientService } from './clients.service.ts';

/** What a built-in client (Passgate's own pages: `account`, `admin-console`) is, for a PUBLIC_URL. */
export interface BuiltInClientSettings {
  name: string;
  tokenEndpointAuthMethod: 'none';
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  initiateLoginUri: string;
  grantTypes: string[];
  permissions?: string[];
}

export interface EnsureOptions {
  /** The tenant to create it in when it does not exist yet. */
  tenantId?: string;
  /** Whether an existing one's redirect and post-logout URIs, auth method and grant types are brought back to `settings` (the server's start). */
  realign?: boolean;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * Makes sure the public PKCE client `id` of one of Passgate's own pages exists. An existing one keeps
 * its tenant and settings, but at the server's start (`realign`) its URIs and auth method follow
 * PUBLIC_URL again and its grant types are Passgate's own (an account client made by an earlier
 * version was allowed refresh tokens); the command line does not realign, since it may run without the server's
 * PUBLIC_URL. A missing one is created in `options.tenantId`, else in `defaultTenant()`, when that
 * tenant exists; otherwise nothing is created (undefined). Answers the client's tenant.
 */
export async function ensureBuiltInClient(
  ctx: AppContext,
  id: string,
  settings: BuiltInClientSettings,
  options: EnsureOptions,
  defaultTenant: () => Promise<string | undefined>,
): Promise<string | undefined> {
  const service = createClientService({ db: ctx.db, keys: ctx.keys });
  const actor = { by: 'system' };

  const existing = await ctx.clients.findById(id);
  if (existing) {
    if (options.realign === false) return existing.tenantId;
    const drifted =
      !sameList(existing.redirectUris, settings.redirectUris) ||
      !sameList(existing.postLogoutRedirectUris, settings.postLogoutRedirectUris) ||
      existing.tokenEndpointAuthMethod !== 'none' ||
      !sameList(existing.grantTypes, settings.grantTypes);
    if (drifted) {
      const { redirectUris, postLogoutRedirectUris, tokenEndpointAuthMethod, grantTypes } = settings;
      await service.update(id, { redirectUris, postLogoutRedirectUris, tokenEndpointAuthMethod, grantTypes }, actor);
    }
    return existing.tenantId;
  }

  const tenantId = options.tenantId ?? (await defaultTenant());
  if (!tenantId || !(await ctx.tenants.findById(tenantId))) return undefined;
  try {
    await service.create({ id, tenantId, ...settings }, actor);
  } catch (error) {
    // Another instance starting on the same database may have created it a moment ago.
    const created = await ctx.clients.findById(id);
    if (!created) throw error;
    return created.tenantId;
  }
  return tenantId;
}
