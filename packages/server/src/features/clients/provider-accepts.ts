import { ErrorCode } from '@passgate/contract';
import type Provider from 'oidc-provider';
import { clientMetadata } from '../../oidc/provider.ts';
import { ApiError } from '../../plugins/errors.ts';
import type { ClientRecord } from './clients.queries.ts';

/** The OIDC metadata names the provider's errors speak of, and the fields of ours they come from. */
const METADATA_FIELDS: Record<string, string> = {
  post_logout_redirect_uris: 'postLogoutRedirectUris',
  redirect_uris: 'redirectUris',
  backchannel_logout_uri: 'backchannelLogoutUri',
  backchannel_logout_session_required: 'backchannelLogoutSessionRequired',
  grant_types: 'grantTypes',
  token_endpoint_auth_method: 'tokenEndpointAuthMethod',
  logo_uri: 'logoUri',
  client_name: 'name',
};

/**
 * Refuses a client the provider would refuse when it loads it for a sign-in (`Client.validate`:
 * a redirect URI with a fragment, say), with 400/1002 naming our field through `field`. Run inside
 * the transaction that writes the client, by every way a client is written (the admin API and the
 * command line), so such a client is never stored.
 */
export async function assertProviderAccepts(provider: Provider, record: ClientRecord, field: (name: string) => string = (name) => name): Promise<void> {
  try {
    await provider.Client.validate(clientMetadata(record) as Parameters<typeof provider.Client.validate>[0]);
  } catch (error) {
    const { error: kind, error_description: description } = error as { error?: string; error_description?: string };
    if (kind !== 'invalid_client_metadata' && kind !== 'invalid_redirect_uri') throw error;
    const name = Object.keys(METADATA_FIELDS).find((key) => description?.includes(key));
    throw new ApiError(ErrorCode.InvalidField, 400, name ? field(METADATA_FIELDS[name] as string) : undefined, description);
  }
}
