import type { AppContext } from '../src/context.ts';
import { createAdapterFactory } from '../src/oidc/adapter.ts';
import { createUserService, type CreateUserInput } from '../src/features/users/users.service.ts';
import { TestBrowser } from './browser.ts';
import { relyingParty, signIn } from './relying-party.ts';
import { parseAnswerBody, type Answer } from './visitor.ts';

/** Helpers for the account-area tests: users, their `account` client tokens, and calls with them. */

/** Creates an active user of the demo tenant (password 'Passw0rd!' unless given) and answers its id. */
export async function createAccount(ctx: AppContext, input: Partial<CreateUserInput> & { email?: string; phoneNumber?: string }): Promise<string> {
  const user = await createUserService({ db: ctx.db }).createUser({ tenantId: 'demo', name: 'Test User', password: 'Passw0rd!', ...input });
  return user.id;
}

/** Signs in with the account area's client (as the SPA does) and answers the bearer access token and the browser holding the session. */
export async function accountSignIn(baseUrl: string, username: string, password = 'Passw0rd!', browser = new TestBrowser(), params: Record<string, string> = {}) {
  const account = await relyingParty(baseUrl, 'account');
  const { tokens } = await signIn(baseUrl, account, username, password, browser, params);
  return { token: tokens.access_token, tokens, browser };
}

/** A JSON call to the API with a bearer token (or the given Authorization header, or none). */
export async function call(baseUrl: string, method: string, path: string, options: { token?: string; authorization?: string; body?: unknown; language?: string } = {}): Promise<Answer & { headers: Headers }> {
  const headers: Record<string, string> = { 'accept-language': options.language ?? 'vi' };
  const authorization = options.authorization ?? (options.token ? `Bearer ${options.token}` : undefined);
  if (authorization) headers.authorization = authorization;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) } : {}),
  });
  return { status: response.status, body: parseAnswerBody(await response.text()), headers: response.headers };
}

/** Moves an access token's expiry into the past, in whichever store the provider uses (database or Redis). */
export async function expireAccessToken(ctx: AppContext, token: string): Promise<void> {
  const adapter = createAdapterFactory({ db: ctx.db, redis: ctx.redis }, async () => undefined)('AccessToken');
  const payload = await adapter.find(token);
  if (!payload) throw new Error('no such access token');
  await adapter.upsert(token, { ...payload, exp: Math.floor(Date.now() / 1000) - 10 }, 60);
}

/** The users row, for before/after comparisons. */
export async function userById(ctx: AppContext, id: string) {
  return ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}
