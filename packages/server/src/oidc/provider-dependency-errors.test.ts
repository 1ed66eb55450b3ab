import { afterEach, describe, expect, it, vi } from 'vitest';
import { TestBrowser } from '../../test/browser.ts';
import { authorizationRequest, finishSignIn, relyingParty, startSignIn } from '../../test/relying-party.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;

/**
 * Holds the table of the provider's database artifacts against writes, as a long migration or a
 * stuck transaction would: reads go on, writes wait for the statement timeout.
 */
async function holdProviderWrites(server: TestServer): Promise<() => Promise<void>> {
  const pg = await import('pg');
  const other = new pg.default.Client({ connectionString: server.ctx.config.databaseUrl });
  await other.connect();
  await other.query('begin');
  await other.query('lock table oidc_payloads in exclusive mode');
  return async () => {
    await other.query('rollback');
    await other.end();
  };
}

describe('a dependency failing after the provider has chosen its answer', () => {
  afterEach(() => vi.restoreAllMocks());

  // The provider saves the session after its own error handler has run, so this failure used to
  // reach Koa's default handler: 500 'Internal Server Error' and a stack printed on stderr. With
  // Redis the resume writes nothing else to the database (its code goes to Redis), so the session
  // save is the write that fails; without Redis the code's own write fails first, inside the handler.
  it.runIf(postgresUrl && process.env.REDIS_URL)("answers a sign-in's resume 503 with Retry-After when the session cannot be saved, logged once without a stack or the challenge", async () => {
    const server = await startTestServer({ captureLogs: true, env: { DATABASE_STATEMENT_TIMEOUT_MS: '1000' } });
    const printed = vi.spyOn(console, 'error');
    try {
      const rp = await relyingParty(server.url, 'demo-app', 'demo-secret');
      const browser = new TestBrowser();
      const challenge = await startSignIn(browser, server.url, await authorizationRequest(rp));
      const login = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username: 'demo@example.com', password: 'Passw0rd!', client_id: 'demo-app' });
      expect(login.status).toBe(200);
      const { redirectTo } = (await login.json()) as { redirectTo: string };

      const release = await holdProviderWrites(server);
      let resume: Response;
      try {
        resume = await browser.fetch(redirectTo, { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
      } finally {
        await release();
      }
      expect(resume.status).toBe(503);
      expect(resume.headers.get('retry-after')).toBe('5');
      const requestId = resume.headers.get('x-request-id');
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(printed).not.toHaveBeenCalled();

      const lines = server.logs.flatMap((chunk) => chunk.split('\n')).filter(Boolean);
      const warning = lines.filter((line) => line.includes('"oidc-provider: a dependency (database or Redis) cannot serve"'));
      expect(warning, lines.filter((l) => !l.includes('"level":30')).join('\n')).toHaveLength(1);
      expect(JSON.parse(warning[0]!)).toMatchObject({ requestId, path: '/oidc/auth/[redacted]', status: 503 });
      expect(warning[0]).not.toContain('"stack"');
      expect(lines.filter((line) => line.includes(challenge))).toEqual([]);

      // Nothing was left half done: the next sign-in goes through.
      const again = new TestBrowser();
      const auth = await authorizationRequest(rp);
      const next = await startSignIn(again, server.url, auth);
      const ok = await again.postJson(`${server.url}/api/v1/users/login`, { challenge: next, username: 'demo@example.com', password: 'Passw0rd!', client_id: 'demo-app' });
      const tokens = await finishSignIn(again, server.url, rp, auth, ((await ok.json()) as { redirectTo: string }).redirectTo);
      expect(tokens.access_token).toBeTruthy();
    } finally {
      await server.close();
    }
  }, 60_000);
});
