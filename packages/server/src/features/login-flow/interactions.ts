import type Provider from 'oidc-provider';
import type { InteractionResults } from 'oidc-provider';
import { ErrorCode, type LoginRequestInfo } from '@passgate/contract';
import { ApiError } from '../../plugins/errors.ts';
import type { BrowserHold } from '../../plugins/browser-binding.ts';

type Interaction = InstanceType<Provider['Interaction']>;

const expired = () => new ApiError(ErrorCode.RequestExpired, 400, 'challenge');

/**
 * 1026 unless the calling browser holds the interaction `uid` (DESIGN.md section 7): it started
 * the authorization request itself and so carries the provider's signed interaction cookie.
 * Without this, a challenge sent to someone else (login CSRF) would let their credentials finish
 * the sender's request, and the code would land in the sender's browser.
 */
export function requireHeldInteraction(browser: BrowserHold, uid: string): void {
  if (browser.interactionUid === undefined || browser.interactionUid !== uid) throw expired();
}

async function findOpen(provider: Provider, uid: string): Promise<Interaction> {
  const interaction = await provider.Interaction.find(uid);
  if (!interaction || interaction.exp * 1000 <= Date.now()) throw expired();
  return interaction;
}

/** The interaction behind a challenge, for the browser that started it (else 1026, before anything changes). */
export async function loadInteraction(provider: Provider, uid: string, browser: BrowserHold): Promise<Interaction> {
  requireHeldInteraction(browser, uid);
  return findOpen(provider, uid);
}

/**
 * The interaction behind a device sign-in request, for the second device that approves it (the
 * verify-device page, opened from the QR code, holds no cookie of the first browser). It can only
 * approve: the sign-in finishes in the first browser, which must hold the interaction to poll.
 */
export function loadInteractionForSecondDevice(provider: Provider, uid: string): Promise<Interaction> {
  return findOpen(provider, uid);
}

export function interactionClientId(interaction: Interaction): string {
  return String(interaction.params.client_id);
}

/** What the sign-in screens need of the relying party's request: its login_hint and ui_locales. */
export function oidcContextOf(interaction: Interaction): LoginRequestInfo['oidcContext'] {
  return {
    ...(typeof interaction.params.login_hint === 'string' ? { loginHint: interaction.params.login_hint } : {}),
    ...(typeof interaction.params.ui_locales === 'string' ? { uiLocales: interaction.params.ui_locales } : {}),
  };
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

async function finish(provider: Provider, interaction: Interaction, result: InteractionResults): Promise<string> {
  // A sign-in of any kind answers prompt=create: the provider would otherwise find the prompt
  // still pending on resume and send the visitor back to the registration screen.
  const asked = typeof interaction.params.prompt === 'string' ? interaction.params.prompt.split(' ') : [];
  interaction.result = asked.includes('create') ? { ...result, create: {} } : result;
  await interaction.save(Math.max(1, interaction.exp - Math.floor(Date.now() / 1000)));
  return resumeUrl(provider, interaction);
}

/**
 * The provider's resume URL for the interaction, under the issuer (PUBLIC_URL/oidc) and nowhere
 * else: the stored returnTo was built from the request that started the flow, whose headers
 * (Host, X-Forwarded-*) are the caller's to choose.
 */
export function resumeUrl(provider: Provider, interaction: Interaction): string {
  return `${provider.issuer}/auth/${encodeURIComponent(interaction.uid)}`;
}

/** Records a completed sign-in for `accountId` and answers the provider's resume URL. */
export async function completeLogin(provider: Provider, interaction: Interaction, accountId: string, amr: string[]): Promise<string> {
  const grantId = await grantFor(provider, interaction, accountId);
  return finish(provider, interaction, { login: { accountId, amr, remember: true }, consent: { grantId } });
}

/** For a session that is already signed in: grants what this request asks for, keeping the original sign-in. */
export async function completeConsent(provider: Provider, interaction: Interaction, accountId: string): Promise<string> {
  const grantId = await grantFor(provider, interaction, accountId);
  return finish(provider, interaction, { consent: { grantId } });
}

export type { Interaction };
