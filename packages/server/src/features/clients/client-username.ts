import { classifyUsername, linearUsernamePatternTest, type UsernameKind } from '@passgate/contract';
import type { Logger } from 'pino';
import type { ClientRecord } from './clients.queries.ts';

/**
 * `classifyUsername` with the client's username policy, its patterns matched in linear time
 * (contract's username-pattern.ts). A stored pattern the engine cannot run refuses the username
 * as having an invalid format and logs a warning naming the client and the pattern, never the
 * username (what people type there is at times their password).
 */
export function classifyClientUsername(
  log: Pick<Logger, 'warn'>,
  client: Pick<ClientRecord, 'id' | 'usernamePolicy'>,
  username: string,
  kinds: readonly UsernameKind[],
): UsernameKind | null {
  const test = linearUsernamePatternTest((pattern, reason) =>
    log.warn({ clientId: client.id, pattern, reason }, "the client's username policy has a pattern the linear-time engine cannot run: usernames it governs are refused (client update --email-regex/--phone-regex)"),
  );
  return classifyUsername(username, kinds, client.usernamePolicy, test);
}
