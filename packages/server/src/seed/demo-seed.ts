import { capabilities } from '@passgate/contract';
import type { AppContext } from '../context.ts';
import { createTenantService, inTransaction } from '../features/tenants/tenants.service.ts';
import { accountClientSettings } from '../features/account/account-client.ts';
import { ACCOUNT_CLIENT_ID } from '../plugins/account-auth.ts';
import { createClientService } from '../features/clients/clients.service.ts';
import { createUserService } from '../features/users/users.service.ts';
import { createAdminRoleQueries } from '../features/admin/admin-roles.queries.ts';

export const DEMO_TENANT_ID = 'demo';
export const DEMO_USER = { email: 'demo@example.com', password: 'Passw0rd!' } as const;
/** The seeded relying parties and their secrets (development only; the /demo page signs in with them). */
export const DEMO_CLIENT_SECRETS: Readonly<Record<string, string>> = { 'demo-app': 'demo-secret', 'partner-shop': 'partner-secret' };

/**
 * Development data, seeded once into an empty database (nothing happens when it holds any tenant): tenant `demo` with
 * every switch on, the `account` client of the SPA, two themed relying parties and a demo user, who
 * is an operator of the admin console.
 * Everything goes through the services, so it is validated and audited like operator input.
 */
export async function seedDemo(ctx: AppContext): Promise<void> {
  if (await ctx.tenants.findById(DEMO_TENANT_ID)) return;
  // A database with tenants of its own (a production one, started in development mode by mistake)
  // gets no accounts with published passwords and no operator; the seed failed there halfway before,
  // on the account client its first tenant had brought, and stopped the start.
  const tenants = await ctx.tenants.list();
  if (tenants.length > 0) {
    ctx.log.warn({ tenants: tenants.length }, 'the database already has tenants of its own: no demo data is seeded into it');
    return;
  }
  const url = ctx.config.publicUrl;
  const actor = { by: 'seed' };

  try {
    await seed(ctx, url, actor);
  } catch (error) {
    // Another instance starting on the same database may have seeded it a moment ago.
    if (await ctx.tenants.findById(DEMO_TENANT_ID)) return;
    throw error;
  }
}

async function seed(ctx: AppContext, url: string, actor: { by: string }): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    const tenants = createTenantService({ db: trx });
    const clients = createClientService({ db: trx, keys: ctx.keys });
    const users = createUserService({ db: trx });

    await tenants.create(
      {
        id: DEMO_TENANT_ID,
        name: 'Demo',
        brandName: 'Passgate Demo',
        passwordlessAuthenticationAllowed: true,
        passwordBasedAuthenticationAllowed: true,
        registrationAllowed: true,
        resetPasswordAllowed: true,
        webauthnAllowed: true,
        passwordPolicy: null,
        // A new password may not repeat the current one or the two before it.
        passwordHistorySize: 3,
        // The 2-step screen offers 'Don't ask again on this browser for 30 days' (off for new tenants).
        rememberBrowserDays: 30,
      },
      actor,
    );

    await clients.create({ id: ACCOUNT_CLIENT_ID, tenantId: DEMO_TENANT_ID, ...accountClientSettings(url) }, actor);

    const relyingParty = { tenantId: DEMO_TENANT_ID, tokenEndpointAuthMethod: 'client_secret_basic', redirectUris: [`${url}/demo/callback`], postLogoutRedirectUris: [`${url}/demo`], grantTypes: ['authorization_code', 'refresh_token'] };
    await clients.create(
      {
        ...relyingParty,
        id: 'demo-app',
        name: 'Demo App',
        clientUri: `${url}/demo`,
        initiateLoginUri: `${url}/demo/login?client=demo-app`,
        secret: DEMO_CLIENT_SECRETS['demo-app'],
        permissions: [...capabilities],
        theme: {
          primaryColor: '#1565C0',
          buttonColor: '#1565C0',
          backgroundColor: '#E3F2FD',
          title: 'Demo App',
          iconUri: `${url}/themes/demo-app-icon.svg`,
          hyperlink: `${url}/demo`,
          hyperlinkedText: 'Back to Demo App',
          hyperlinkedTextI18n: { vi: 'Quay lại Demo App' },
        },
        logoUri: `${url}/themes/demo-app-logo.svg`,
        i18n: { defaultLocale: 'vi' },
        termsPrivacy: { brandName: 'Demo App' },
      },
      actor,
    );
    await clients.create(
      {
        ...relyingParty,
        id: 'partner-shop',
        name: 'Partner Shop',
        clientUri: `${url}/demo`,
        initiateLoginUri: `${url}/demo/login?client=partner-shop`,
        secret: DEMO_CLIENT_SECRETS['partner-shop'],
        permissions: ['users:email:login'],
        theme: {
          primaryColor: '#2E7D32',
          buttonColor: '#F57C00',
          backgroundColor: '#FFF8E1',
          backgroundImageUri: `${url}/themes/partner-shop-bg.svg`,
          title: 'Partner Shop',
          iconUri: `${url}/themes/partner-shop-icon.svg`,
        },
        logoUri: `${url}/themes/partner-shop-logo.svg`,
        i18n: { defaultLocale: 'en' },
      },
      actor,
    );

    const demoUser = await users.createUser({ tenantId: DEMO_TENANT_ID, email: DEMO_USER.email, name: 'Demo User', password: DEMO_USER.password, status: 'active' }, actor);
    // The demo user is an operator of the admin console (/admin), once it has set up 2-step verification.
    await createAdminRoleQueries(trx).grant(demoUser.id, 'operator', null, 'seed');
  });
}
