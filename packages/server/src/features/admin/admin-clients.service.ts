import { ErrorCode, type AdminClient, type AdminClientAnswer, type AdminListQuery } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../plugins/errors.ts';
import { ACCOUNT_CLIENT_ID } from '../../plugins/account-auth.ts';
import { createClientQueries, type ClientRecord } from '../clients/clients.queries.ts';
import { createClientService, toClientView } from '../clients/clients.service.ts';
import { assertProviderAccepts } from '../clients/provider-accepts.ts';
import { inTransaction, type AdminActor } from '../tenants/tenants.service.ts';
import { ADMIN_CONSOLE_CLIENT_ID, type AdminPrincipal } from './admin-auth.ts';
import { createAdminCatalogQueries } from './admin-catalog.queries.ts';
import { wireField } from './admin-errors.ts';

/** Passgate's own clients: never deleted through the API, changed only by operators and never in how they sign in. */
export const BUILT_IN_CLIENTS: readonly string[] = [ACCOUNT_CLIENT_ID, ADMIN_CONSOLE_CLIENT_ID];
/** What a built-in client keeps as Passgate set it: changing it could send its tokens elsewhere or lock the admins out. */
const BUILT_IN_FIXED = ['redirectUris', 'postLogoutRedirectUris', 'grantTypes', 'tokenEndpointAuthMethod', 'backchannelLogoutUri'];

const iso = (millis: number) => new Date(millis).toISOString();

export function toAdminClient(record: ClientRecord): AdminClient {
  const view = toClientView(record);
  return { ...view, builtIn: BUILT_IN_CLIENTS.includes(record.id), createdAt: iso(record.createdAt), updatedAt: iso(record.updatedAt) };
}

/**
 * A tenant's clients in the admin API, through the command line's service (same validation, same
 * audit, the admin as actor). Every change is checked by the provider itself (`Client.validate`,
 * what it runs when it loads the client for a sign-in) inside the transaction that writes it, so a
 * client the provider would refuse is never stored.
 */
export function createAdminClientService(ctx: AppContext) {
  /** 404 (1061) unless the client exists in this very tenant: another tenant's client is not found here. */
  async function mustFind(tenantId: string, clientId: string): Promise<ClientRecord> {
    const client = await ctx.clients.findById(clientId);
    if (!client || client.tenantId !== tenantId) throw new ApiError(ErrorCode.ClientNotFound, 404, 'clientId');
    return client;
  }

  /** Runs a change in a transaction, checks the client it leaves with the provider, and answers it. */
  async function checked(clientId: string, change: (service: ReturnType<typeof createClientService>) => Promise<{ generatedSecret?: string }>): Promise<AdminClientAnswer> {
    return inTransaction(ctx.db, async (trx) => {
      const { generatedSecret } = await change(createClientService({ db: trx, keys: ctx.keys }));
      const record = await createClientQueries(trx).findById(clientId);
      if (!record) throw new Error(`client '${clientId}' vanished while it was written`);
      await assertProviderAccepts(ctx.provider, record, wireField);
      return { client: toAdminClient(record), ...(generatedSecret ? { clientSecret: generatedSecret } : {}) };
    });
  }

  return {
    mustFind,

    async list(tenantId: string, query: AdminListQuery) {
      const { items, total } = await createAdminCatalogQueries(ctx.db).listClients(tenantId, query);
      return { items: items.map(toAdminClient), page: query.page, pageSize: query.page_size, total };
    },

    /** A confidential client always gets a generated secret, answered this once. */
    async create(tenantId: string, input: Record<string, unknown> & { id: string }, actor: AdminActor): Promise<AdminClientAnswer> {
      if (await ctx.clients.findById(input.id)) throw new ApiError(ErrorCode.ClientExists, 409, 'id');
      return checked(input.id, (service) => service.create({ ...input, tenantId }, actor));
    },

    async update(admin: AdminPrincipal, tenantId: string, clientId: string, input: Record<string, unknown>, actor: AdminActor): Promise<AdminClientAnswer> {
      await mustFind(tenantId, clientId);
      if (BUILT_IN_CLIENTS.includes(clientId)) {
        if (!admin.operator) throw new ApiError(ErrorCode.ClientLacksPermission, 403);
        const fixed = BUILT_IN_FIXED.find((field) => input[field] !== undefined);
        if (fixed) throw new ApiError(ErrorCode.InvalidField, 400, wireField(fixed), `${wireField(fixed)} of Passgate's own client '${clientId}' is fixed`);
      }
      return checked(clientId, (service) => service.update(clientId, input, actor));
    },

    async remove(tenantId: string, clientId: string, actor: AdminActor): Promise<void> {
      await mustFind(tenantId, clientId);
      if (BUILT_IN_CLIENTS.includes(clientId)) throw new ApiError(ErrorCode.ClientLacksPermission, 403, 'clientId', `Passgate's own client '${clientId}' cannot be deleted`);
      await createClientService({ db: ctx.db, keys: ctx.keys }).remove(clientId, actor);
    },

    /**
     * A new random secret (256 bits) for a confidential client, answered once; the old one stops
     * working at once. A public client has none (400).
     */
    async rotateSecret(tenantId: string, clientId: string, actor: AdminActor): Promise<AdminClientAnswer> {
      const existing = await mustFind(tenantId, clientId);
      if (existing.tokenEndpointAuthMethod === 'none') throw new ApiError(ErrorCode.InvalidField, 400, 'clientId', 'a public client (auth method none) has no secret');
      const { client, secret } = await createClientService({ db: ctx.db, keys: ctx.keys }).rotateSecret(clientId, actor);
      const record = await ctx.clients.findById(client.id);
      if (!record) throw new ApiError(ErrorCode.ClientNotFound, 404, 'clientId');
      return { client: toAdminClient(record), clientSecret: secret };
    },
  };
}
