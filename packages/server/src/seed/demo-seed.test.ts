import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilities } from '@passgate/contract';
import { loadConfig } from '../config.ts';
import { createAppContext, type AppContext } from '../context.ts';
import { verifySecret } from '../lib/passwords.ts';
import { checkClientSecret } from '../features/clients/client-secrets.ts';
import { seedDemo } from './demo-seed.ts';
import { createTenantService } from '../features/tenants/tenants.service.ts';
import { ensureOwnClients } from '../features/clients/own-clients.ts';

let dir: string;
let ctx: AppContext;
const url = 'http://localhost:4321';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'passgate-seed-'));
  ctx = await createAppContext(loadConfig({ NODE_ENV: 'test', PUBLIC_URL: url, DATABASE_URL: `sqlite:${join(dir, 'seed.sqlite')}`, LOG_LEVEL: 'silent' }));
});

afterAll(async () => {
  await ctx?.close();
  rmSync(dir, { recursive: true, force: true });
});

const count = async (table: 'tenants' | 'clients' | 'users' | 'password_history' | 'audit_events') =>
  Number((await ctx.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

describe('seedDemo', () => {
  it('seeds the demo tenant, clients and user once (idempotent)', async () => {
    await seedDemo(ctx);
    const counts = { tenants: await count('tenants'), clients: await count('clients'), users: await count('users'), history: await count('password_history'), audit: await count('audit_events') };
    expect(counts).toMatchObject({ tenants: 1, clients: 3, users: 1, history: 1 });
    await seedDemo(ctx);
    expect({ tenants: await count('tenants'), clients: await count('clients'), users: await count('users'), history: await count('password_history'), audit: await count('audit_events') }).toEqual(counts);
  });

  it('creates tenant demo with every switch on and the default password policy', async () => {
    expect(await ctx.tenants.findById('demo')).toMatchObject({
      name: 'Demo',
      brandName: 'Passgate Demo',
      passwordlessAuthenticationAllowed: true,
      passwordBasedAuthenticationAllowed: true,
      registrationAllowed: true,
      resetPasswordAllowed: true,
      webauthnAllowed: true,
      passwordPolicy: { minLength: 6, uppercase: 0, number: 0, special: 0 },
    });
  });

  it('creates the account client (public) and the two themed relying parties', async () => {
    const account = await ctx.clients.findById('account');
    expect(account).toMatchObject({
      tenantId: 'demo',
      name: 'Passgate Account',
      tokenEndpointAuthMethod: 'none',
      secretHash: null,
      redirectUris: [`${url}/user/callback`],
      postLogoutRedirectUris: [`${url}/user/dashboard`, `${url}/`],
      // No refresh tokens for the account area (README, security model).
      grantTypes: ['authorization_code'],
    });

    const demoApp = await ctx.clients.findById('demo-app');
    expect(demoApp).toMatchObject({
      name: 'Demo App',
      tokenEndpointAuthMethod: 'client_secret_basic',
      permissions: [...capabilities],
      theme: {
        primaryColor: '#1565C0',
        buttonColor: '#1565C0',
        backgroundColor: '#E3F2FD',
        title: 'Demo App',
        iconUri: `${url}/themes/demo-app-icon.svg`,
        hyperlink: `${url}/demo`,
        hyperlinkedText: 'Back to Demo App',
      },
      logoUri: `${url}/themes/demo-app-logo.svg`,
      i18n: { defaultLocale: 'vi' },
      termsPrivacy: { brandName: 'Demo App' },
      redirectUris: [`${url}/demo/callback`],
      postLogoutRedirectUris: [`${url}/demo`],
    });
    expect(await checkClientSecret(ctx.keys, demoApp?.secretHash as string, 'demo-secret')).toEqual({ matches: true });

    const partner = await ctx.clients.findById('partner-shop');
    expect(partner).toMatchObject({
      permissions: ['users:email:login'],
      theme: { primaryColor: '#2E7D32', buttonColor: '#F57C00', backgroundColor: '#FFF8E1', backgroundImageUri: `${url}/themes/partner-shop-bg.svg`, title: 'Partner Shop' },
      logoUri: `${url}/themes/partner-shop-logo.svg`,
      i18n: { defaultLocale: 'en' },
      redirectUris: [`${url}/demo/callback`],
      grantTypes: ['authorization_code', 'refresh_token'],
    });
    expect(await checkClientSecret(ctx.keys, partner?.secretHash as string, 'partner-secret')).toEqual({ matches: true });
  });

  it('creates the demo user with a verifying password', async () => {
    const user = await ctx.users.findByEmail('demo', 'demo@example.com');
    expect(user).toMatchObject({ name: 'Demo User', email_verified: 1, status: 'active', registration_method: 'password' });
    expect(user?.password_changed_at).toBeGreaterThan(0);
    expect(await verifySecret(user?.password_hash as string, 'Passw0rd!')).toBe(true);
    expect(await verifySecret(user?.password_hash as string, 'wrong')).toBe(false);
  });
});

describe('seedDemo on a database with tenants of its own', () => {
  it('seeds nothing there (no published password, no operator), and the start goes on', async () => {
    const own = mkdtempSync(join(tmpdir(), 'passgate-seed-own-'));
    const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: url, DATABASE_URL: `sqlite:${join(own, 'own.sqlite')}`, LOG_LEVEL: 'silent' });
    const existing = await createAppContext(config);
    try {
      await createTenantService({ db: existing.db }).create({ id: 'acme', name: 'Acme' }, { by: 'test' });
      await ensureOwnClients(existing);
      await seedDemo(existing);
      expect(await existing.tenants.findById('demo')).toBeUndefined();
      expect((await existing.tenants.list()).map((t) => t.id)).toEqual(['acme']);
      expect(await existing.db.selectFrom('users').select('id').execute()).toEqual([]);
      expect((await existing.clients.findById('account'))?.tenantId).toBe('acme');
    } finally {
      await existing.close();
      rmSync(own, { recursive: true, force: true });
    }
  });
});

