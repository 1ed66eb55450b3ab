import type Provider from 'oidc-provider';
import type { InteractionResults } from 'oidc-provider';
import { ErrorCode } from '@passgate/contract';
import { ApiError } from '../../plugins/errors.ts';

type Interaction = InstanceType<Provider['Interaction']>;

/**
 * The provider's interactions, loaded by uid through its own model (DESIGN.md section 1). The
 * resume step still checks the provider's browser-bound cookie, so a challenge alone cannot
 * finish someone else's sign-in.
 */
export async function loadInteraction(provider: Provider, uid: string): Promise<Interaction> {
  const interaction = await provider.Interaction.find(uid);
  if (!interaction || interaction.exp * 1000 <= Date.now()) throw new ApiError(ErrorCode.RequestExpired, 400, 'challenge');
  return interaction;
}

export function interactionClientId(interaction: Interaction): string {
  return String(interaction.params.client_id);
}

/** Grants the requested scopes and claims to the client for this account (first-party: no consent screen). */
async function grantFor(provider: Provider, interaction: Interaction, accountId: string): Promise<string> {
  const clientId = interactionClientId(interaction);
  const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
  const grant = existing && existing.accountId === accountId ? existing : new provider.Grant({ accountId, clientId });
  if (typeof interaction.params.scope === 'string') grant.addOIDCScope(interaction.params.scope);
  if (typeof interaction.params.claims === 'string') {
    try {
      const requested = JSON.parse(interaction.params.claims) as { id_token?: object; userinfo?: object };
      const names = [...Object.keys(requested.id_token ?? {}), ...Object.keys(requested.userinfo ?? {})];
      if (names.length > 0) grant.addOIDCClaims(names);
    } catch {
      // The provider has already rejected malformed claims parameters; nothing more to grant.
    }
  }
  return grant.save();
}

async function finish(interaction: Interaction, result: InteractionResults): Promise<string> {
  interaction.result = result;
  await interaction.save(Math.max(1, interaction.exp - Math.floor(Date.now() / 1000)));
  return interaction.returnTo;
}

/** Records a completed sign-in for `accountId` and answers the provider's resume URL. */
export async function completeLogin(provider: Provider, interaction: Interaction, accountId: string, amr: string[]): Promise<string> {
  const grantId = await grantFor(provider, interaction, accountId);
  return finish(interaction, { login: { accountId, amr, remember: true }, consent: { grantId } });
}

/** For a session that is already signed in: grants what this request asks for, keeping the original sign-in. */
export async function completeConsent(provider: Provider, interaction: Interaction, accountId: string): Promise<string> {
  const grantId = await grantFor(provider, interaction, accountId);
  return finish(interaction, { consent: { grantId } });
}

export type { Interaction };
