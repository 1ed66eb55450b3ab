import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oidc from 'openid-client';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

describe('where relying parties look for the metadata', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server'])(
    '%s (the site’s root) leads to the issuer’s discovery document, whose issuer says what to configure',
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

  it.each(['/.well-known/oauth-authorization-server/oidc', '/.well-known/openid-configuration/oidc'])(
    '%s (the issuer’s path after the well-known name, RFC 8414 section 3.1) answers the document itself, 200, with CORS',
    async (path) => {
      const answer = await fetch(`${server.url}${path}`, { redirect: 'manual', headers: { origin: 'https://spa.example' } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(answer.headers.get('access-control-allow-origin')).toBeTruthy();
      const metadata = (await answer.json()) as Record<string, unknown>;
      const direct = (await (await fetch(`${server.url}/oidc/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
      expect(metadata).toEqual(direct);
      expect(metadata.token_endpoint).toBe(`${server.ctx.config.publicUrl}/oidc/token`);
      // A longer path is no metadata address; a method the document does not take is 405 as at /oidc.
      expect((await fetch(`${server.url}${path}/more`)).status).toBe(404);
      const posted = await fetch(`${server.url}${path}`, { method: 'POST' });
      expect(posted.status).toBe(405);
      expect(posted.headers.get('allow')).toBe('GET, HEAD');
    },
  );

  it('lets openid-client discover the provider by RFC 8414 (algorithm oauth2), which follows no redirect', async () => {
    const config = await oidc.discovery(new URL(`${server.url}/oidc`), 'demo-app', 'demo-secret', undefined, {
      algorithm: 'oauth2',
      execute: [oidc.allowInsecureRequests],
    });
    expect(config.serverMetadata()).toMatchObject({
      issuer: `${server.url}/oidc`,
      authorization_endpoint: `${server.url}/oidc/auth`,
      token_endpoint: `${server.url}/oidc/token`,
    });
  });
});
