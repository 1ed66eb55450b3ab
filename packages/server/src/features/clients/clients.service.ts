import type { Kysely } from 'kysely';
import { clientCreateSchema, clientUpdateSchema, type ClientUpdateInput } from '@passgate/contract';
import type { ClientUpdate, Database } from '../../db/schema.ts';
import type { ServerKeys } from '../../lib/server-keys.ts';
import { bit, toJson } from '../../lib/json.ts';
import { randomToken } from '../../lib/ids.ts';
import { digestClientSecret } from './client-secrets.ts';
import { createAuditQueries } from '../audit/audit.queries.ts';
import { createTenantQueries } from '../tenants/tenants.queries.ts';
import { actorEvent, inTransaction, type AdminActor } from '../tenants/tenants.service.ts';
import { AdminInputError, parseAdminInput, type AdminInputProblem } from '../admin-input-error.ts';
import { createClientQueries, type ClientRecord } from './clients.queries.ts';

/** A client as an operator sees it: everything but the secret hash and the encrypted reCAPTCHA and Facebook secrets. */
export interface ClientView extends Omit<ClientRecord, 'secretHash' | 'recaptcha' | 'facebookAppSecretEnc'> {
  /** False for public clients (token endpoint auth method `none`). */
  confidential: boolean;
  hasSecret: boolean;
  recaptcha: { enabled: boolean; siteKey: string | null; secretSet: boolean };
  facebookAppSecretSet: boolean;
}

export function toClientView(client: ClientRecord): ClientView {
  const { secretHash, recaptcha, facebookAppSecretEnc, ...rest } = client;
  return {
    ...rest,
    confidential: client.tokenEndpointAuthMethod !== 'none',
    hasSecret: secretHash !== null,
    recaptcha: { enabled: recaptcha.enabled, siteKey: recaptcha.siteKey, secretSet: recaptcha.secretEnc !== null },
    facebookAppSecretSet: facebookAppSecretEnc !== null,
  };
}

export interface ClientCreated {
  client: ClientView;
  /** The secret generated for a confidential client created without one: shown once, never stored in clear. */
  generatedSecret?: string;
}

const DEFAULT_GRANT_TYPES = ['authorization_code', 'refresh_token'];
const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];

// Username policy patterns are checked by the shared schema (usernamePolicyInputSchema in the
// contract): parseAdminInput refuses one the linear-time engine cannot run, naming its field.

/** The columns for the given settings; secrets are handled by the caller. */
function clientColumns(input: ClientUpdateInput): ClientUpdate {
  const c: ClientUpdate = {};
  if (input.tenantId !== undefined) c.tenant_id = input.tenantId;
  if (input.name !== undefined) c.name = input.name;
  if (input.logoUri !== undefined) c.logo_uri = input.logoUri;
  if (input.theme !== undefined) c.theme = toJson(input.theme);
  if (input.i18n !== undefined) c.i18n = toJson(input.i18n);
  if (input.permissions !== undefined) c.permissions = toJson(unique(input.permissions));
  if (input.googleAppId !== undefined) c.google_app_id = input.googleAppId;
  if (input.facebookAppId !== undefined) c.facebook_app_id = input.facebookAppId;
  if (input.usernamePolicy !== undefined) c.username_policy = input.usernamePolicy ? toJson(input.usernamePolicy) : null;
  if (input.recaptcha !== undefined) {
    c.recaptcha_enabled = bit(input.recaptcha.enabled);
    c.recaptcha_site_key = input.recaptcha.siteKey ?? null;
  }
  if (input.termsPrivacy !== undefined) c.terms_privacy = toJson(input.termsPrivacy);
  if (input.redirectUris !== undefined) c.redirect_uris = toJson(unique(input.redirectUris));
  if (input.postLogoutRedirectUris !== undefined) c.post_logout_redirect_uris = toJson(unique(input.postLogoutRedirectUris));
  if (input.clientUri !== undefined) c.client_uri = input.clientUri;
  if (input.initiateLoginUri !== undefined) c.initiate_login_uri = input.initiateLoginUri;
  if (input.backchannelLogoutUri !== undefined) c.backchannel_logout_uri = input.backchannelLogoutUri;
  if (input.backchannelLogoutSessionRequired !== undefined) c.backchannel_logout_session_required = bit(input.backchannelLogoutSessionRequired);
  if (input.grantTypes !== undefined) c.grant_types = toJson(unique(input.grantTypes));
  if (input.tokenEndpointAuthMethod !== undefined) c.token_endpoint_auth_method = input.tokenEndpointAuthMethod;
  return c;
}

/**
 * Creating, reading, changing and removing relying parties. Client secrets are stored only as
 * keyed digests (HMAC-SHA-256, client-secrets.ts); reCAPTCHA and Facebook app secrets encrypted
 * with the server key. None is ever returned.
 */
export function createClientService({ db, keys }: { db: Kysely<Database>; keys: ServerKeys }) {
  const clients = createClientQueries(db);
  const tenants = createTenantQueries(db);

  async function mustFind(id: string): Promise<ClientRecord> {
    const client = await clients.findById(id);
    if (!client) throw AdminInputError.of('id', `client '${id}' does not exist`);
    return client;
  }

  async function tenantProblems(tenantId: string | undefined): Promise<AdminInputProblem[]> {
    if (tenantId === undefined || (await tenants.findById(tenantId))) return [];
    return [{ field: 'tenantId', message: `tenant '${tenantId}' does not exist` }];
  }

  function recaptchaProblems(recaptcha: ClientUpdateInput['recaptcha'], hasStoredSecret: boolean): AdminInputProblem[] {
    if (!recaptcha?.enabled) return [];
    const problems: AdminInputProblem[] = [];
    if (!recaptcha.siteKey) problems.push({ field: 'recaptcha.siteKey', message: 'is required when reCAPTCHA is enabled' });
    if (!recaptcha.secret && !hasStoredSecret) problems.push({ field: 'recaptcha.secret', message: 'is required when reCAPTCHA is enabled' });
    return problems;
  }

  return {
    async create(raw: unknown, actor: AdminActor = {}): Promise<ClientCreated> {
      const input = parseAdminInput(clientCreateSchema, raw);
      const method = input.tokenEndpointAuthMethod ?? 'client_secret_basic';
      const problems: AdminInputProblem[] = [];
      if (await clients.findById(input.id)) problems.push({ field: 'id', message: `client '${input.id}' already exists` });
      problems.push(...(await tenantProblems(input.tenantId)));
      if (method === 'none' && input.secret) {
        problems.push({ field: 'secret', message: 'a public client (auth method none) has no secret' });
      }
      problems.push(...recaptchaProblems(input.recaptcha, false));
      if (problems.length > 0) throw new AdminInputError(problems);

      const generatedSecret = method !== 'none' && !input.secret ? randomToken(32) : undefined;
      const secret = method === 'none' ? null : (input.secret ?? generatedSecret ?? null);
      const secretHash = secret ? digestClientSecret(keys, secret) : null;
      const recaptchaSecretEnc = input.recaptcha?.secret ? keys.encrypt(input.recaptcha.secret) : null;
      const facebookAppSecretEnc = input.facebookAppSecret ? keys.encrypt(input.facebookAppSecret) : null;

      const now = Date.now();
      const { id, ...settings } = input;
      const client = await inTransaction(db, async (trx) => {
        await createClientQueries(trx).insert({
          id,
          tenant_id: input.tenantId,
          name: input.name,
          logo_uri: null,
          theme: '{}',
          i18n: '{}',
          permissions: '[]',
          google_app_id: null,
          facebook_app_id: null,
          username_policy: null,
          recaptcha_enabled: 0,
          recaptcha_site_key: null,
          recaptcha_secret_enc: recaptchaSecretEnc,
          terms_privacy: '{}',
          redirect_uris: '[]',
          post_logout_redirect_uris: '[]',
          grant_types: toJson(DEFAULT_GRANT_TYPES),
          ...clientColumns(settings),
          facebook_app_secret_encrypted: facebookAppSecretEnc,
          token_endpoint_auth_method: method,
          secret_hash: secretHash,
          created_at: now,
          updated_at: now,
        });
        await createAuditQueries(trx).record(
          {
            type: 'client.created',
            tenantId: input.tenantId,
            clientId: id,
            ...actorEvent(actor, { tokenEndpointAuthMethod: method, fields: Object.keys(settings).filter((k) => k !== 'secret') }),
          },
          now,
        );
        const created = await createClientQueries(trx).findById(id);
        if (!created) throw new Error(`client '${id}' vanished after it was created`);
        return created;
      });
      return { client: toClientView(client), ...(generatedSecret ? { generatedSecret } : {}) };
    },

    async list(tenantId?: string): Promise<ClientView[]> {
      return (await clients.list(tenantId)).map(toClientView);
    },

    async show(id: string): Promise<ClientView> {
      return toClientView(await mustFind(id));
    },

    /**
     * Sets the given fields. A new secret is re-hashed; a client that turns confidential without
     * being given a secret gets a generated one (returned once); a client that turns public loses its secret.
     */
    async update(id: string, raw: unknown, actor: AdminActor = {}): Promise<ClientCreated & { changed: string[] }> {
      const input = parseAdminInput(clientUpdateSchema, raw);
      const existing = await mustFind(id);
      const changed = Object.keys(input).filter((k) => input[k as keyof ClientUpdateInput] !== undefined);
      if (changed.length === 0) throw AdminInputError.of('(input)', 'nothing to change: give at least one field to set');

      const method = input.tokenEndpointAuthMethod ?? existing.tokenEndpointAuthMethod;
      const problems = await tenantProblems(input.tenantId);
      if (method === 'none' && input.secret) problems.push({ field: 'secret', message: 'a public client (auth method none) has no secret' });
      if (method !== 'none' && input.secret === null) problems.push({ field: 'secret', message: 'a confidential client needs a secret' });
      problems.push(...recaptchaProblems(input.recaptcha, existing.recaptcha.secretEnc !== null));
      if (problems.length > 0) throw new AdminInputError(problems);

      const columns = clientColumns(input);
      let generatedSecret: string | undefined;
      if (method === 'none') {
        columns.secret_hash = null;
      } else if (input.secret) {
        columns.secret_hash = digestClientSecret(keys, input.secret);
      } else if (!existing.secretHash) {
        generatedSecret = randomToken(32);
        columns.secret_hash = digestClientSecret(keys, generatedSecret);
      }
      if (input.recaptcha?.secret) columns.recaptcha_secret_enc = keys.encrypt(input.recaptcha.secret);
      if (input.facebookAppSecret !== undefined) columns.facebook_app_secret_encrypted = input.facebookAppSecret ? keys.encrypt(input.facebookAppSecret) : null;

      const now = Date.now();
      const client = await inTransaction(db, async (trx) => {
        await createClientQueries(trx).update(id, { ...columns, updated_at: now });
        await createAuditQueries(trx).record(
          { type: 'client.updated', tenantId: input.tenantId ?? existing.tenantId, clientId: id, ...actorEvent(actor, { fields: changed }) },
          now,
        );
        const updated = await createClientQueries(trx).findById(id);
        if (!updated) throw new Error(`client '${id}' vanished while it was updated`);
        return updated;
      });
      return { client: toClientView(client), changed, ...(generatedSecret ? { generatedSecret } : {}) };
    },

    /** A new generated secret (256 random bits) for a confidential client: answered once, only its digest stored; the old one stops working. */
    async rotateSecret(id: string, actor: AdminActor = {}): Promise<{ client: ClientView; secret: string }> {
      const existing = await mustFind(id);
      if (existing.tokenEndpointAuthMethod === 'none') throw AdminInputError.of('id', `client '${id}' is public (auth method none): it has no secret`);
      const secret = randomToken(32);
      const now = Date.now();
      const client = await inTransaction(db, async (trx) => {
        await createClientQueries(trx).update(id, { secret_hash: digestClientSecret(keys, secret), updated_at: now });
        await createAuditQueries(trx).record({ type: 'client.secret_rotated', tenantId: existing.tenantId, clientId: id, ...actorEvent(actor) }, now);
        const updated = await createClientQueries(trx).findById(id);
        if (!updated) throw new Error(`client '${id}' vanished while its secret was rotated`);
        return updated;
      });
      return { client: toClientView(client), secret };
    },

    async remove(id: string, actor: AdminActor = {}): Promise<void> {
      const existing = await mustFind(id);
      await inTransaction(db, async (trx) => {
        await createClientQueries(trx).remove(id);
        await createAuditQueries(trx).record({ type: 'client.removed', tenantId: existing.tenantId, clientId: id, ...actorEvent(actor) });
      });
    },
  };
}
export type ClientService = ReturnType<typeof createClientService>;
