import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { authorizationRequest, relyingParty, startSignIn } from '../../../test/relying-party.ts';
import { createTenant, postJson } from '../../../test/visitor.ts';
import { adminCall, adminSignIn, createAdmin } from '../../../test/admin.ts';
import { runCli } from '../../../test/cli.ts';

/**
 * Username policy patterns (a tenant admin's input) against usernames (anyone's input): matched
 * in linear time, so no pattern can hold the event loop; patterns the engine cannot run are
 * refused where they are written, and one stored before is refused at sign-in without a crash.
 */
describe('username policy patterns', () => {
  let server: TestServer;
  let token: string;
  // Exponential on a backtracking engine: 29 ones then x took 6 s, each extra character doubling it.
  const catastrophic = '^(\\d+)+$';
  const hostile = `${'1'.repeat(29)}x`;
  const longest = `${'1'.repeat(253)}x`;
  const patch = (body: unknown) => adminCall(server.url, 'PATCH', '/tenants/acme/clients/acme-sur', { token, body });
  const storedPolicy = async () => (await server.ctx.db.selectFrom('clients').select('username_policy').where('id', '=', 'acme-sur').executeTakeFirstOrThrow()).username_policy;
  const recover = (username: string) => postJson(server.url, '/api/v1/password/recover', { client_id: 'acme-sur', username });

  /** Posts to a sign-in API (`username` into `body`) with a fresh sign-in request of acme-sur. */
  async function signInCall(path: string, body: Record<string, unknown>) {
    const browser = new TestBrowser();
    const challenge = await startSignIn(browser, server.url, await authorizationRequest(await relyingParty(server.url, 'acme-sur')));
    const response = await browser.postJson(`${server.url}${path}`, { challenge, ...body });
    return { status: response.status, body: (await response.json()) as any };
  }
  const login = (username: string) => signInCall('/api/v1/users/login', { username, password: 'Whatever1!' });

  beforeAll(async () => {
    server = await startTestServer({ captureLogs: true, env: { CODE_SENDS_PER_IP_PER_HOUR: '1000', LOGIN_RATE_LIMIT_PER_IP: '1000' } });
    await createTenant(server.ctx, { id: 'acme', name: 'Acme', passwordlessAuthenticationAllowed: true });
    token = await adminSignIn(server.url, await createAdmin(server.ctx, 'acme-admin@example.com', [{ role: 'tenant-admin', tenantId: 'acme' }]));
    const created = await adminCall(server.url, 'POST', '/tenants/acme/clients', {
      token,
      body: {
        id: 'acme-sur',
        name: 'Acme Survey',
        token_endpoint_auth_method: 'none',
        redirect_uris: [`${server.url}/demo/callback`],
        permissions: ['users:phoneNumber:login', 'password:reset', 'passwordless:login'],
      },
    });
    expect(created.status).toBe(201);
  });
  afterAll(() => server?.close());

  it('matches a catastrophic pattern in linear time: the hostile username gets the normal refusal at once, and the server keeps answering', async () => {
    expect(await patch({ username_policy: { phone: { regexValidation: catastrophic } } })).toMatchObject({ status: 200 });

    // Each answer is the usual 'invalid format', not a hang: with a backtracking engine the longest
    // username (254 characters) would take longer than the universe's age, and the test would time out.
    const [refused, alive] = await Promise.all([recover(longest), fetch(`${server.url}/health/live`)]);
    expect(refused).toMatchObject({ status: 400, body: { error: { code: 1015, field: 'username' } } });
    expect(alive.status).toBe(200);
    expect(await recover(hostile)).toMatchObject({ status: 400, body: { error: { code: 1015, field: 'username' } } });
    expect(await login(hostile)).toMatchObject({ status: 400, body: { error: { code: 1015, field: 'username' } } });
    expect(await login(longest)).toMatchObject({ status: 400, body: { error: { code: 1015, field: 'username' } } });
    expect(await signInCall('/api/v1/passwordless/send', { phone_number: hostile })).toMatchObject({ status: 400, body: { error: { code: 1015, field: 'phone_number' } } });

    // What the pattern accepts is accepted as before (an unknown username is answered like a known one).
    expect(await recover('0912345678')).toMatchObject({ status: 200 });
  });

  it('refuses a pattern with a backreference or a lookaround where it is written, naming the field, and changes nothing', async () => {
    expect(await patch({ username_policy: { phone: { regexValidation: '^09\\d{8}$' } } })).toMatchObject({ status: 200 });
    const before = await storedPolicy();

    for (const [body, field] of [
      [{ phone: { regexValidation: '^(\\d)\\1+$' } }, 'username_policy.phone.regexValidation'],
      [{ phone: { regexValidation: '^(?=09)\\d{10}$' } }, 'username_policy.phone.regexValidation'],
      [{ email: { regexValidation: '(?<!x)@acme\\.example$' } }, 'username_policy.email.regexValidation'],
    ] as const) {
      const refused = await patch({ username_policy: body, name: 'Renamed' });
      expect(refused).toMatchObject({ status: 400, body: { error: { code: 1002, field } } });
    }
    expect(await storedPolicy()).toBe(before);
    expect((await adminCall(server.url, 'GET', '/tenants/acme/clients/acme-sur', { token })).body.name).toBe('Acme Survey');

    const create = await adminCall(server.url, 'POST', '/tenants/acme/clients', {
      token,
      body: { id: 'acme-bad', name: 'Bad', redirect_uris: ['https://acme.example/cb'], username_policy: { phone: { regexValidation: '(?=1)1' } } },
    });
    expect(create).toMatchObject({ status: 400, body: { error: { code: 1002, field: 'username_policy.phone.regexValidation' } } });
    expect(await server.ctx.db.selectFrom('clients').select('id').where('id', '=', 'acme-bad').executeTakeFirst()).toBeUndefined();

    const cli = await runCli(server, ['client', 'update', '--id', 'acme-sur', '--phone-regex', '^(\\d)\\1$']);
    expect(cli.code).toBe(1);
    expect(cli.err).toContain('--phone-regex');
    expect(await storedPolicy()).toBe(before);
  });

  it('refuses usernames governed by a stored pattern the engine cannot run, logging the client and not the username', async () => {
    await server.ctx.db
      .updateTable('clients')
      .set({ username_policy: JSON.stringify({ phone: { regexValidation: '^(\\d)\\1{9}$' } }) })
      .where('id', '=', 'acme-sur')
      .execute();
    const secretish = '0000000000';

    expect(await recover(secretish)).toMatchObject({ status: 400, body: { error: { code: 1015, field: 'username' } } });
    expect(await login(secretish)).toMatchObject({ status: 400, body: { error: { code: 1015, field: 'username' } } });
    // The client still reads back (its views use the stored policy as it is).
    expect(await adminCall(server.url, 'GET', '/tenants/acme/clients/acme-sur', { token })).toMatchObject({ status: 200, body: { usernamePolicy: { phone: { regexValidation: '^(\\d)\\1{9}$' } } } });

    const warnings = server.logs.filter((line) => line.includes('linear-time engine cannot run'));
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings[0]).toContain('"clientId":"acme-sur"');
    expect(warnings.join('\n')).not.toContain(secretish);
  });
});
