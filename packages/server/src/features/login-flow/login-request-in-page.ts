import type { LoginRequestInfo } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import type { BrowserHold } from '../../plugins/browser-binding.ts';
import { toPublicClient } from '../clients/clients.queries.ts';
import { resolveFlowClient } from './flow-client.ts';
import { interactionClientId, loadInteraction, oidcContextOf } from './interactions.ts';

/**
 * What GET /api/v1/requests/login/{challenge} would answer the browser loading /login, for the page
 * to carry so the sign-in screen paints without that request (spa.ts). Only a plain sign-in screen:
 * a challenge this browser does not hold, an ended request, or a signed-in user whose request the
 * API would complete at once (skip) is left to the API call, which alone reports errors and has
 * effects.
 */
export async function loginRequestForPage(ctx: AppContext, challenge: string, browser: BrowserHold): Promise<LoginRequestInfo | null> {
  try {
    const interaction = await loadInteraction(ctx.provider, challenge, browser);
    if (interaction.prompt.name !== 'login' && interaction.session?.accountId) return null;
    const { client, tenant } = await resolveFlowClient(ctx, interactionClientId(interaction));
    return {
      challenge,
      skip: false,
      client: toPublicClient(client, tenant),
      oidcContext: oidcContextOf(interaction),
    };
  } catch {
    return null;
  }
}
