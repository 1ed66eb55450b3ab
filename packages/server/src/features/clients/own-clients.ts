import type { AppContext } from '../../context.ts';
import { ensureAccountClient } from '../account/account-client.ts';
import { ensureAdminConsoleClient } from '../admin/admin-console-client.ts';

/**
 * At every start, in every mode: Passgate's own clients, the account area's and then the admin
 * console's (which goes to the account area's tenant), each once its tenant exists, with their
 * addresses following PUBLIC_URL. Without the account area's, /user signs nobody in: said in the log.
 */
export async function ensureOwnClients(ctx: AppContext): Promise<void> {
  if (!(await ensureAccountClient(ctx))) {
    ctx.log.warn(
      'the account area (/user) has no client yet, so it signs nobody in: the first tenant brings it (npm run passgate -- tenant create …), ' +
        'or name its tenant with npm run passgate -- admin grant --tenant <id> …',
    );
  }
  await ensureAdminConsoleClient(ctx);
}
