import { expect } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { authorizationRequest, relyingParty, startSignIn, type Authorization, type RelyingParty } from '../../../test/relying-party.ts';
import { createClient, postJson, type Answer } from '../../../test/visitor.ts';
import { startFakeSocialProviders, type FakeSocialProviders } from '../../../test/fake-social-providers.ts';

/** What the social sign-in tests share: a server whose provider URLs point at the local fake, and clients to sign in to. */

export const GOOGLE_APP = 'google-app-1.apps.googleusercontent.com';
export const FACEBOOK_APP = '100200300';
export const FACEBOOK_SECRET = 'facebook-app-secret-1';

export interface SocialTestbed {
  server: TestServer;
  fake: FakeSocialProviders;
  close(): Promise<void>;
}

export async function startSocialTestbed(env: Record<string, string> = {}, options: { captureLogs?: boolean } = {}): Promise<SocialTestbed> {
  const fake = await startFakeSocialProviders();
  fake.facebookApps.set(FACEBOOK_APP, FACEBOOK_SECRET);
  fake.facebookApps.set('999', 'other-app-secret');
  const server = await startTestServer({ env: { ...fake.env, LOGIN_RATE_LIMIT_PER_IP: '1000', CODE_SENDS_PER_IP_PER_HOUR: '1000', ...env }, captureLogs: options.captureLogs });
  const apps = { googleAppId: GOOGLE_APP, facebookAppId: FACEBOOK_APP, facebookAppSecret: FACEBOOK_SECRET };
  const social = ['social:google:login', 'social:google:register', 'social:facebook:login', 'social:facebook:register'];
  await createClient(server.ctx, server.url, { id: 'social-app', tenantId: 'demo', permissions: ['users:email:login', ...social], ...apps });
  await createClient(server.ctx, server.url, { id: 'social-login-only', tenantId: 'demo', permissions: ['social:google:login', 'social:facebook:login'], ...apps });
  await createClient(server.ctx, server.url, { id: 'no-social', tenantId: 'demo', permissions: ['users:email:login'], ...apps });
  await createClient(server.ctx, server.url, { id: 'fb-no-secret', tenantId: 'demo', permissions: social, facebookAppId: FACEBOOK_APP });
  return {
    server,
    fake,
    async close() {
      await server.close();
      await fake.close();
    },
  };
}

export interface SignInStart {
  rp: RelyingParty;
  auth: Authorization;
  browser: TestBrowser;
  challenge: string;
}

/** A relying party's authorization request, followed to the login screen's challenge (demo-app with its secret). */
export async function begin(server: TestServer, clientId = 'social-app', browser = new TestBrowser()): Promise<SignInStart> {
  const rp = await relyingParty(server.url, clientId, clientId === 'demo-app' ? 'demo-secret' : undefined);
  const auth = await authorizationRequest(rp);
  const challenge = await startSignIn(browser, server.url, auth);
  return { rp, auth, browser, challenge };
}

/** The sign-in request behind `challenge` was not finished (nothing for the provider to resume with). */
export async function expectNotSignedIn(server: TestServer, challenge: string): Promise<void> {
  expect((await server.ctx.provider.Interaction.find(challenge))?.result).toBeUndefined();
}

export const socialLogin = (server: TestServer, body: Record<string, unknown>): Promise<Answer> => postJson(server.url, '/api/v1/social/login', body);

/** The body the SPA posts for `authorizer` with this client's app id. */
export const loginBody = (authorizer: 'google' | 'facebook', challenge: string, accessToken: string, extra: Record<string, unknown> = {}) => ({
  authorizer,
  app_id: authorizer === 'google' ? GOOGLE_APP : FACEBOOK_APP,
  challenge,
  access_token: accessToken,
  ...extra,
});

export async function identitiesOf(server: TestServer, userId: string) {
  return server.ctx.db.selectFrom('user_identities').select(['provider', 'subject', 'email']).where('user_id', '=', userId).orderBy('provider').execute();
}

export async function usersWithEmail(server: TestServer, email: string) {
  return server.ctx.db.selectFrom('users').selectAll().where('email', '=', email).execute();
}
