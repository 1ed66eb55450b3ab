import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

describe('where relying parties look for the metadata', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server/oidc', '/.well-known/oauth-authorization-server', '/.well-known/openid-configuration/oidc'])(
    '%s leads to the issuer’s discovery document, whose issuer says what to configure',
    async (path) => {
      const answer = await fetch(`${server.url}${path}`, { redirect: 'manual' });
      expect(answer.status).toBe(308);
      const location = answer.headers.get('location');
      expect(location).toBe(`${server.ctx.config.publicUrl}/oidc/.well-known/openid-configuration`);
      const followed = await fetch(`${server.url}${path}`);
      expect(followed.status).toBe(200);
      const metadata = (await followed.json()) as { issuer: string; authorization_endpoint: string };
      expect(metadata.issuer).toBe(`${server.ctx.config.publicUrl}/oidc`);
      expect(metadata.authorization_endpoint).toBe(`${server.ctx.config.publicUrl}/oidc/auth`);
    },
  );
});
