import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { clientMetadata } from '../../oidc/provider.ts';
import { createClientQueries, findProviderClient } from './clients.queries.ts';

/** The OpenID provider reads its clients through a narrow, compiled query of its own (`findProviderClient`). */
describe('the provider’s view of a client', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('holds the same registration metadata as the whole client record, for every seeded client', async () => {
    const clients = await createClientQueries(server.ctx.db).list();
    expect(clients.map((client) => client.id)).toEqual(expect.arrayContaining(['account', 'demo-app', 'partner-shop']));
    for (const client of clients) {
      const narrow = await findProviderClient(server.ctx.db, client.id);
      expect(narrow && clientMetadata(narrow)).toEqual(clientMetadata(client));
      const loaded = await server.ctx.provider.Client.find(client.id);
      expect(loaded?.redirectUris).toEqual(client.redirectUris);
      expect(loaded?.tokenEndpointAuthMethod).toBe(client.tokenEndpointAuthMethod);
    }
    expect(await findProviderClient(server.ctx.db, 'no-such-client')).toBeUndefined();
    expect(await server.ctx.provider.Client.find('no-such-client')).toBeUndefined();
  });

  // At once on SQLite, within moments on PostgreSQL (features/clients/provider-client-cache.ts).
  it('sees an operator’s change and a removal', async () => {
    const clients = createClientQueries(server.ctx.db);
    await clients.update('partner-shop', { redirect_uris: JSON.stringify(['https://shop.example/changed']) });
    await expect.poll(async () => (await server.ctx.provider.Client.find('partner-shop'))?.redirectUris).toEqual(['https://shop.example/changed']);
    await server.ctx.db.deleteFrom('clients').where('id', '=', 'partner-shop').execute();
    await expect.poll(() => server.ctx.provider.Client.find('partner-shop')).toBeUndefined();
  });
});
