import { clientRemembersBrowsers } from '../mfa/remembered-browsers.ts';
import type { Kysely, Transaction } from 'kysely';
import {
  effectiveCapabilities,
  type ClientI18n,
  type PublicClient,
  type TermsPrivacy,
  type Theme,
  type UsernamePolicy,
} from '@passgate/contract';
import type { ClientRow, ClientUpdate, Database, NewClientRow } from '../../db/schema.ts';
import { reusableQuery } from '../../db/reusable-query.ts';
import { bool, parseJson } from '../../lib/json.ts';
import { toPublicTenant, type TenantRecord } from '../tenants/tenants.queries.ts';

type Executor = Kysely<Database> | Transaction<Database>;

export interface ClientRecord {
  id: string;
  tenantId: string;
  name: string;
  logoUri: string | null;
  theme: Theme;
  i18n: ClientI18n;
  /** As configured; an empty list means every capability (see `effectiveCapabilities`). */
  permissions: string[];
  googleAppId: string | null;
  facebookAppId: string | null;
  /** The Facebook app secret, encrypted with the server key (ctx.keys); never returned. */
  facebookAppSecretEnc: string | null;
  usernamePolicy: UsernamePolicy | null;
  recaptcha: { enabled: boolean; siteKey: string | null; secretEnc: string | null };
  termsPrivacy: TermsPrivacy;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  clientUri: string | null;
  initiateLoginUri: string | null;
  /** Where logout tokens are posted when a session of the client ends (Back-Channel Logout); null for none. */
  backchannelLogoutUri: string | null;
  /** Whether those logout tokens carry the session's sid. */
  backchannelLogoutSessionRequired: boolean;
  grantTypes: string[];
  tokenEndpointAuthMethod: string;
  secretHash: string | null;
  createdAt: number;
  updatedAt: number;
}

/** The columns the OpenID provider reads of a client (its registration metadata): no theme, texts or policies. */
const PROVIDER_COLUMNS = [
  'id',
  'name',
  'logo_uri',
  'redirect_uris',
  'post_logout_redirect_uris',
  'grant_types',
  'token_endpoint_auth_method',
  'secret_hash',
  'backchannel_logout_uri',
  'backchannel_logout_session_required',
] as const;

export type ProviderClient = Pick<
  ClientRecord,
  'id' | 'name' | 'logoUri' | 'redirectUris' | 'postLogoutRedirectUris' | 'grantTypes' | 'tokenEndpointAuthMethod' | 'secretHash' | 'backchannelLogoutUri' | 'backchannelLogoutSessionRequired'
>;

function toProviderClient(row: Pick<ClientRow, (typeof PROVIDER_COLUMNS)[number]>): ProviderClient {
  return {
    id: row.id,
    name: row.name,
    logoUri: row.logo_uri,
    redirectUris: parseJson(row.redirect_uris, []),
    postLogoutRedirectUris: parseJson(row.post_logout_redirect_uris, []),
    grantTypes: parseJson(row.grant_types, ['authorization_code']),
    tokenEndpointAuthMethod: row.token_endpoint_auth_method,
    secretHash: row.secret_hash,
    backchannelLogoutUri: row.backchannel_logout_uri ?? null,
    backchannelLogoutSessionRequired: bool(row.backchannel_logout_session_required ?? 0),
  };
}

export function toClientRecord(row: ClientRow): ClientRecord {
  return {
    ...toProviderClient(row),
    tenantId: row.tenant_id,
    theme: parseJson(row.theme, {}),
    i18n: parseJson(row.i18n, {}),
    permissions: parseJson(row.permissions, []),
    googleAppId: row.google_app_id,
    facebookAppId: row.facebook_app_id,
    facebookAppSecretEnc: row.facebook_app_secret_encrypted ?? null,
    usernamePolicy: parseJson(row.username_policy, null),
    recaptcha: { enabled: bool(row.recaptcha_enabled), siteKey: row.recaptcha_site_key, secretEnc: row.recaptcha_secret_enc },
    termsPrivacy: parseJson(row.terms_privacy, {}),
    clientUri: row.client_uri ?? null,
    initiateLoginUri: row.initiate_login_uri ?? null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

// The provider looks its client up on every token, userinfo and sign-in request: compiled once, and
// only the metadata columns read and parsed (the whole record cost three times as much CPU).
const providerClientById = reusableQuery((db, key: { id: string }) => db.selectFrom('clients').select(PROVIDER_COLUMNS).where('id', '=', key.id));

/** The client as the OpenID provider needs it, read from the database (the provider asks through provider-client-cache.ts, which remembers it on PostgreSQL). */
export async function findProviderClient(db: Executor, id: string): Promise<ProviderClient | undefined> {
  const row = (await providerClientById(db, { id })).rows[0];
  return row && toProviderClient(row);
}

/** Where the screens lead back to the client (see PublicClient.homeUri): only addresses its operator registered. */
export function clientHomeUri(client: ClientRecord): string | null {
  if (client.initiateLoginUri) return client.initiateLoginUri;
  if (client.clientUri) return client.clientUri;
  const first = client.redirectUris[0];
  if (!first) return null;
  try {
    const { origin } = new URL(first);
    // A native app's custom scheme has no origin to open in a browser.
    return origin === 'null' ? null : `${origin}/`;
  } catch {
    return null;
  }
}

/** What the login-flow screens may know about a client: never its secrets or OIDC metadata. */
export function toPublicClient(client: ClientRecord, tenant: TenantRecord): PublicClient {
  return {
    clientId: client.id,
    clientName: client.name,
    logoUri: client.logoUri,
    theme: client.theme,
    i18n: client.i18n,
    permissions: [...effectiveCapabilities(client.permissions)],
    ggApp: client.googleAppId ? { clientId: client.googleAppId } : null,
    fbApp: client.facebookAppId ? { clientId: client.facebookAppId } : null,
    tenantId: client.tenantId,
    // The 2-step screen offers 'Remember this browser' only where it would be honoured.
    tenant: clientRemembersBrowsers(client.id) ? toPublicTenant(tenant) : { ...toPublicTenant(tenant), rememberBrowserDays: null },
    usernamePolicy: client.usernamePolicy,
    recaptchaConfiguration: {
      enabled: client.recaptcha.enabled,
      ...(client.recaptcha.siteKey ? { siteKey: client.recaptcha.siteKey } : {}),
    },
    termsPrivacy: client.termsPrivacy,
    homeUri: clientHomeUri(client),
  };
}

export function createClientQueries(db: Executor) {
  return {
    async findById(id: string): Promise<ClientRecord | undefined> {
      const row = await db.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toClientRecord(row);
    },
    async list(tenantId?: string): Promise<ClientRecord[]> {
      let query = db.selectFrom('clients').selectAll().orderBy('id');
      if (tenantId) query = query.where('tenant_id', '=', tenantId);
      return (await query.execute()).map(toClientRecord);
    },
    async countForTenant(tenantId: string): Promise<number> {
      const row = await db.selectFrom('clients').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async insert(row: NewClientRow): Promise<void> {
      await db.insertInto('clients').values(row).execute();
    },
    async update(id: string, changes: ClientUpdate): Promise<boolean> {
      const result = await db.updateTable('clients').set(changes).where('id', '=', id).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /** Replaces the stored secret hash only while it is still `from` (a secret rotated meanwhile stays). */
    async replaceSecretHash(id: string, from: string, to: string): Promise<void> {
      await db.updateTable('clients').set({ secret_hash: to }).where('id', '=', id).where('secret_hash', '=', from).execute();
    },
    async remove(id: string): Promise<boolean> {
      const result = await db.deleteFrom('clients').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
export type ClientQueries = ReturnType<typeof createClientQueries>;
