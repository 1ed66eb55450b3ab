import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../test/cli.ts';
import { relyingParty, signIn } from '../../../test/relying-party.ts';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { DEMO_CLIENT_SECRETS } from '../../seed/demo-seed.ts';
import { CLIENT_ENTRY_TTL_MS, createProviderClientSource, type ProviderClientSource } from './provider-client-cache.ts';

const onPostgres = Boolean(process.env.DATABASE_URL?.startsWith('postgres'));
const DEMO_USER = { email: 'demo@example.com', password: 'Passw0rd!' };
const silent = pino({ level: 'silent' });

async function redirectUrisOf(source: ProviderClientSource, id: string) {
  return (await source.find(id))?.redirectUris;
}

/** Changes the client without firing the change notice: only a lookup that reads the database sees it. */
async function changeQuietly(server: TestServer, id: string, redirectUri: string) {
  await server.ctx.db.transaction().execute(async (trx) => {
    await sql`alter table clients disable trigger clients_changed`.execute(trx);
    await trx.updateTable('clients').set({ redirect_uris: JSON.stringify([redirectUri]) }).where('id', '=', id).execute();
    await sql`alter table clients enable trigger clients_changed`.execute(trx);
  });
}

/** Two instances on one database, as behind a load balancer, for the tests of one describe. */
function twoInstances() {
  const instances = {} as { server: TestServer; second: TestServer };
  beforeAll(async () => {
    instances.server = await startTestServer();
    instances.second = await startTestServer({ shareWith: instances.server });
  });
  afterAll(async () => {
    await instances.second?.close();
    await instances.server?.close();
  });
  return instances;
}

describe.runIf(!onPostgres)('the provider’s clients on SQLite', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('are read from the database on every lookup, so a change applies at once', async () => {
    const source = server.ctx.providerClients;
    await source.find('partner-shop');
    expect(source.remembering()).toBe(false);
    await server.ctx.clients.update('partner-shop', { redirect_uris: JSON.stringify(['https://shop.example/at-once']) });
    expect(await redirectUrisOf(source, 'partner-shop')).toEqual(['https://shop.example/at-once']);
  });
});

describe.runIf(onPostgres)('the provider’s clients on PostgreSQL, remembered while their change notices are heard', () => {
  const instances = twoInstances();

  it('answers from memory, and forgets as soon as anyone changes the table', async () => {
    const { server, second } = instances;
    const source = server.ctx.providerClients;
    await source.find('partner-shop');
    await expect.poll(() => source.remembering()).toBe(true);
    const before = await redirectUrisOf(source, 'partner-shop');

    // A change without its notice stays unseen: the lookup was answered from memory.
    await changeQuietly(server, 'partner-shop', 'https://shop.example/quiet');
    expect(await redirectUrisOf(source, 'partner-shop')).toEqual(before);

    // Any statement on the table (here an operator's own SQL) makes every instance read it again.
    await sql`update clients set updated_at = updated_at where id = 'demo-app'`.execute(server.ctx.db);
    await expect.poll(() => redirectUrisOf(source, 'partner-shop')).toEqual(['https://shop.example/quiet']);
    await expect.poll(() => redirectUrisOf(second.ctx.providerClients, 'partner-shop')).toEqual(['https://shop.example/quiet']);

    await server.ctx.db.deleteFrom('clients').where('id', '=', 'partner-shop').execute();
    await expect.poll(() => source.find('partner-shop')).toBeUndefined();
    await expect.poll(() => second.ctx.providerClients.find('partner-shop')).toBeUndefined();
  });

  it('does not trust a remembered client longer than CLIENT_ENTRY_TTL_MS, should the notices stop without an error', async () => {
    const { server } = instances;
    let clock = Date.now();
    const { config } = server.ctx;
    const source = createProviderClientSource({ db: server.ctx.db, databaseUrl: config.databaseUrl, connectTimeoutMs: 5000, log: silent, now: () => clock });
    try {
      await source.find('demo-app');
      await expect.poll(() => source.remembering()).toBe(true);
      const before = await redirectUrisOf(source, 'demo-app');
      await changeQuietly(server, 'demo-app', 'https://demo.example/ttl');
      clock += CLIENT_ENTRY_TTL_MS - 1;
      expect(await redirectUrisOf(source, 'demo-app')).toEqual(before);
      clock += 1;
      expect(await redirectUrisOf(source, 'demo-app')).toEqual(['https://demo.example/ttl']);
    } finally {
      await source.close();
    }
  });

  it('remembers nothing while its connection is lost, and listens again once it is back', async () => {
    const { server } = instances;
    const applicationName = `passgate-client-changes-test-${process.pid}-${Date.now()}`;
    const { config } = server.ctx;
    const source = createProviderClientSource({ db: server.ctx.db, databaseUrl: config.databaseUrl, connectTimeoutMs: 5000, log: silent, applicationName });
    try {
      await source.find('account');
      await expect.poll(() => source.remembering()).toBe(true);
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${applicationName}`.execute(server.ctx.db);
      await expect.poll(() => source.remembering()).toBe(false);

      // Unheard while the connection is down, and still seen: the lookup reads the database.
      await changeQuietly(server, 'account', 'https://account.example/while-down');
      expect(await redirectUrisOf(source, 'account')).toEqual(['https://account.example/while-down']);

      // Back within its first retry delay: remembering again, and hearing the notices again.
      await expect.poll(() => source.remembering(), { timeout: 5000 }).toBe(true);
      await source.find('account');
      await changeQuietly(server, 'account', 'https://account.example/unheard');
      expect(await redirectUrisOf(source, 'account')).toEqual(['https://account.example/while-down']);
      await server.ctx.clients.update('account', { redirect_uris: JSON.stringify(['https://account.example/heard']) });
      await expect.poll(() => redirectUrisOf(source, 'account')).toEqual(['https://account.example/heard']);
    } finally {
      await source.close();
    }
  });
});

describe.runIf(onPostgres)('a client secret rotated by the operator, on two instances behind one load balancer', () => {
  const instances = twoInstances();

  /** A refresh grant sent to one instance, as the relying party's back end sends it. */
  async function refreshAt(instance: TestServer, refreshToken: string, secret: string) {
    const response = await fetch(`${instance.url}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`demo-app:${secret}`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    });
    const body = (await response.json()) as { error?: string; refresh_token?: string };
    return { status: response.status, error: body.error, refreshToken: body.refresh_token };
  }

  it('stops working on both within moments, though each had the client in memory', async () => {
    const { server, second } = instances;
    const leaked = DEMO_CLIENT_SECRETS['demo-app'] as string;
    const rp = await relyingParty(server.url, 'demo-app', leaked);
    const { tokens } = await signIn(server.url, rp, DEMO_USER.email, DEMO_USER.password, undefined, { scope: 'openid email offline_access' });
    // Both instances use the client, and remember it, before the rotation.
    await second.ctx.providerClients.find('demo-app');
    await expect.poll(() => server.ctx.providerClients.remembering() && second.ctx.providerClients.remembering()).toBe(true);
    let refreshToken = tokens.refresh_token!;
    for (const instance of [server, second]) {
      const refreshed = await refreshAt(instance, refreshToken, leaked);
      expect({ status: refreshed.status, error: refreshed.error }).toEqual({ status: 200, error: undefined });
      refreshToken = refreshed.refreshToken ?? refreshToken;
    }

    const rotated = await runCli(server, ['client', 'rotate-secret', '--id', 'demo-app']);
    expect(rotated.code).toBe(0);
    for (const instance of [server, second]) {
      await expect.poll(async () => {
        const { status, error } = await refreshAt(instance, refreshToken, leaked);
        return { status, error };
      }).toEqual({ status: 401, error: 'invalid_client' });
    }
  });
});
