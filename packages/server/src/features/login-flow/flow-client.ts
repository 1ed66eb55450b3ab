import { ErrorCode, effectiveCapabilities, type Capability, type TenantSwitches } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../plugins/errors.ts';
import type { ClientRecord } from '../clients/clients.queries.ts';
import type { TenantRecord } from '../tenants/tenants.queries.ts';
import { usernameKinds } from './visitor-input.ts';

/** The client a login-flow call names, with its tenant and what it may do (SPEC.md section 6). */
export interface FlowClient {
  client: ClientRecord;
  tenant: TenantRecord;
  capabilities: Set<Capability>;
}

export async function resolveFlowClient(ctx: Pick<AppContext, 'clients' | 'tenants'>, clientId: string): Promise<FlowClient> {
  const client = await ctx.clients.findById(clientId);
  if (!client) throw new ApiError(ErrorCode.ClientNotFound, 404, 'client_id');
  const tenant = await ctx.tenants.findById(client.tenantId);
  if (!tenant) throw new ApiError(ErrorCode.MissingTenant, 500);
  return { client, tenant, capabilities: effectiveCapabilities(client.permissions) };
}

/** 1303 unless the tenant switch is on. */
export function requireTenantSwitch(flow: FlowClient, name: keyof TenantSwitches): void {
  if (!flow.tenant[name]) throw new ApiError(ErrorCode.TenantDisallows, 403);
}

/** 1301 unless the client has at least one of the capabilities. */
export function requireCapability(flow: FlowClient, ...any: Capability[]): void {
  if (!any.some((capability) => flow.capabilities.has(capability))) throw new ApiError(ErrorCode.ClientLacksPermission, 403);
}

/**
 * Whether the client's registration screen is open (SPEC.md section 6: the tenant's
 * registrationAllowed and a register capability), as the sign-in screens decide it. False for an
 * unknown client or tenant.
 */
export async function registrationOpen(ctx: Pick<AppContext, 'clients' | 'tenants'>, clientId: string): Promise<boolean> {
  const client = await ctx.clients.findById(clientId);
  const tenant = client && (await ctx.tenants.findById(client.tenantId));
  if (!client || !tenant?.registrationAllowed) return false;
  return usernameKinds({ client, tenant, capabilities: effectiveCapabilities(client.permissions) }, 'register').length > 0;
}
