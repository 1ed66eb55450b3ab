import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Db } from '../db/database.ts';
import { loadConfig } from '../config.ts';
import { verifySecret } from '../lib/passwords.ts';
import { createServerKeys } from '../lib/server-keys.ts';
import { loadServerSecrets } from '../oidc/server-secrets.ts';
import { checkClientSecret } from '../features/clients/client-secrets.ts';
import { run } from './main.ts';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
let dir: string;
let env: NodeJS.ProcessEnv;
let db: Db;

interface Outcome {
  code: number;
  out: string;
  err: string;
}

async function cli(args: string[], extraEnv: Record<string, string> = {}): Promise<Outcome> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(args, { out: (l) => out.push(l), err: (l) => err.push(l), env: { ...env, ...extraEnv } });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Whether a stored client secret hash is the digest of `secret` under this database's APP_SECRET. */
async function secretMatches(stored: unknown, secret: string): Promise<boolean> {
  const keys = createServerKeys((await loadServerSecrets(db, loadConfig(env))).appSecret);
  return (await checkClientSecret(keys, stored as string, secret)).matches;
}

async function json<T>(args: string[]): Promise<T> {
  const result = await cli(args);
  expect(result.code, result.err).toBe(0);
  return JSON.parse(result.out) as T;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'passgate-cli-'));
  env = { NODE_ENV: 'test', DATABASE_URL: `sqlite:${join(dir, 'cli.sqlite')}`, LOG_LEVEL: 'silent' };
  // The schema exists once the first command ran; this handle reads what the commands wrote.
  expect((await cli(['tenant', 'list'])).code).toBe(0);
  db = createDatabase(env.DATABASE_URL as string);
});

afterAll(async () => {
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('tenant commands', () => {
  it('creates, lists, shows, updates and removes a tenant', async () => {
    const created = await cli([
      'tenant', 'create', '--id', 'acme', '--name', 'Acme', '--brand-name', 'Acme Inc', '--terms-uri', 'https://acme.example/terms',
      '--registration-allowed', 'false', '--password-min-length', '8', '--password-number', '1', '--password-history-size', '2',
      '--password-max-age-days', '90', '--password-warning-days', '7', '--custom-checkbox-name', 'Send me offers',
    ]);
    expect(created).toMatchObject({ code: 0, err: '' });
    expect(created.out).toContain("Created tenant 'acme'");
    // The first tenant is the account area's: without its client, /user would sign nobody in.
    expect(created.out).toContain("The account area (/user) signs in the users of 'acme' (client 'account')");
    expect(await db.selectFrom('clients').selectAll().where('id', '=', 'account').executeTakeFirst()).toMatchObject({ tenant_id: 'acme', token_endpoint_auth_method: 'none', secret_hash: null });

    const list = await json<{ id: string }[]>(['tenant', 'list']);
    expect(list.map((t) => t.id)).toContain('acme');

    const shown = await json<Record<string, unknown>>(['tenant', 'show', '--id', 'acme']);
    expect(shown).toMatchObject({
      id: 'acme',
      brandName: 'Acme Inc',
      termsUri: 'https://acme.example/terms',
      registrationAllowed: false,
      passwordlessAuthenticationAllowed: true,
      passwordPolicy: { minLength: 8, uppercase: 0, number: 1, special: 0 },
      passwordMaxAgeDays: 90,
      passwordWarningDays: 7,
      passwordHistorySize: 2,
      customRegisterCheckbox: { name: 'Send me offers' },
    });

    const updated = await cli(['tenant', 'update', '--id', 'acme', '--name', 'Acme Corp', '--password-special', '2', '--password-max-age-days', 'none', '--brand-name', '']);
    expect(updated.code, updated.err).toBe(0);
    expect(updated.out).toMatch(/Updated tenant 'acme': .*name/);
    const after = await json<Record<string, unknown>>(['tenant', 'show', '--id', 'acme']);
    // Only the given policy field changed; the rest of the policy stayed.
    expect(after).toMatchObject({ name: 'Acme Corp', brandName: null, passwordMaxAgeDays: null, passwordPolicy: { minLength: 8, number: 1, special: 2 } });

    const second = await cli(['tenant', 'create', '--id', 'gone', '--name', 'Gone']);
    expect(second.code).toBe(0);
    expect(second.out).not.toContain('account area');
    const removed = await cli(['tenant', 'remove', '--id', 'gone']);
    expect(removed).toMatchObject({ code: 0, out: "Removed tenant 'gone'." });
    expect((await cli(['tenant', 'show', '--id', 'gone'])).err).toBe("--id: tenant 'gone' does not exist");

    const audit = await db.selectFrom('audit_events').select('type').where('tenant_id', '=', 'acme').execute();
    expect(audit.map((a) => a.type)).toEqual(expect.arrayContaining(['tenant.created', 'tenant.updated']));
  });

  it('rejects bad values one line per problem, naming the flags', async () => {
    const result = await cli(['tenant', 'create', '--id', 'Bad Id', '--name', 'X', '--webauthn-allowed', 'yes', '--password-min-length', 'ten']);
    expect(result.code).toBe(1);
    expect(result.err.split('\n').sort()).toEqual([
      "--password-min-length: must be a whole number (got 'ten')",
      "--webauthn-allowed: must be true or false (got 'yes')",
    ]);
    const schema = await cli(['tenant', 'create', '--id', 'Bad Id', '--name', 'X', '--privacy-uri', 'not a url']);
    expect(schema.code).toBe(1);
    expect(schema.err).toMatch(/^--id: .*\(got 'Bad Id'\)$/m);
    expect(schema.err).toMatch(/^--privacy-uri: .*\(got 'not a url'\)$/m);
    expect((await cli(['tenant', 'create', '--name', 'X'])).err).toBe('--id: is required');
    expect((await cli(['tenant', 'create', '--id', 'acme', '--name', 'Again'])).err).toBe("--id: tenant 'acme' already exists");
  });

  it('refuses to remove a tenant that still has clients', async () => {
    await cli(['tenant', 'create', '--id', 'busy', '--name', 'Busy']);
    expect((await cli(['client', 'create', '--id', 'busy-app', '--tenant', 'busy', '--name', 'Busy', '--redirect-uris', 'https://busy.example/cb'])).code).toBe(0);
    const result = await cli(['tenant', 'remove', '--id', 'busy']);
    expect(result).toMatchObject({ code: 1, err: "--id: tenant 'busy' still has 1 client; remove them first" });
  });
});

describe('client commands', () => {
  it('refuses a client the provider would refuse at every sign-in, and stores nothing of it', async () => {
    // A redirect URI with a fragment parses as a URL, but OAuth forbids it and the provider
    // answers every authorization request of such a client with an error page.
    const created = await cli(['client', 'create', '--id', 'frag-app', '--tenant', 'acme', '--name', 'Frag', '--redirect-uris', 'https://frag.example/cb#done']);
    expect(created.code).toBe(1);
    expect(created.err).toMatch(/^passgate client create: failed: .*redirect_uris.*fragment/m);
    expect(await db.selectFrom('clients').select('id').where('id', '=', 'frag-app').executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom('audit_events').select('type').where('type', '=', 'client.created').where('details', 'like', '%frag-app%').execute()).toEqual([]);

    expect((await cli(['client', 'create', '--id', 'frag-ok', '--tenant', 'acme', '--name', 'Frag', '--redirect-uris', 'https://frag.example/cb'])).code).toBe(0);
    const before = await db.selectFrom('clients').selectAll().where('id', '=', 'frag-ok').executeTakeFirstOrThrow();
    const updated = await cli(['client', 'update', '--id', 'frag-ok', '--redirect-uris', 'https://frag.example/cb,https://frag.example/#x', '--name', 'Renamed']);
    expect(updated.code).toBe(1);
    expect(updated.err).toMatch(/redirect_uris/);
    expect(await db.selectFrom('clients').selectAll().where('id', '=', 'frag-ok').executeTakeFirstOrThrow()).toEqual(before);
    expect((await cli(['client', 'remove', '--id', 'frag-ok'])).code).toBe(0);
  });

  it('creates a confidential client with every kind of field, and never prints the given secret', async () => {
    const secret = 'a-given-secret-value';
    const result = await cli([
      'client', 'create', '--id', 'shop', '--tenant', 'acme', '--name', 'Shop', '--redirect-uris', 'https://shop.example/cb,https://shop.example/cb2',
      '--post-logout-redirect-uris', 'https://shop.example/', '--logo-uri', 'https://shop.example/logo.svg', '--primary-color', '#112233',
      '--button-color', '#445566', '--title', 'Shop', '--hyperlink', 'https://shop.example', '--hyperlinked-text', 'Back to the shop',
      '--hyperlinked-text-vi', 'Quay lại cửa hàng', '--client-uri', 'https://shop.example/', '--initiate-login-uri', 'https://shop.example/login',
      '--default-locale', 'en', '--permissions', 'users:email:login,password:reset', '--google-app-id', 'g-123',
      '--email-allowed-domains', 'shop.example,example.com', '--phone-regex', '^09\\d{8}$', '--recaptcha-enabled', 'true',
      '--recaptcha-site-key', 'site-key', '--recaptcha-secret', 'recaptcha-secret-value', '--terms-brand-name', 'Shop Ltd',
      '--auth-method', 'client_secret_post', '--secret', secret,
    ]);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toContain("Created client 'shop' in tenant 'acme' (confidential, client_secret_post)");
    expect(result.out).not.toContain(secret);
    expect(result.out).not.toMatch(/will not be shown again/);

    const shown = await cli(['client', 'show', '--id', 'shop']);
    expect(shown.out).not.toContain(secret);
    expect(shown.out).not.toContain('recaptcha-secret-value');
    expect(shown.out).not.toMatch(/argon2|secretHash|secretEnc/);
    expect(JSON.parse(shown.out)).toMatchObject({
      tenantId: 'acme',
      logoUri: 'https://shop.example/logo.svg',
      theme: {
        primaryColor: '#112233',
        buttonColor: '#445566',
        title: 'Shop',
        hyperlink: 'https://shop.example',
        hyperlinkedText: 'Back to the shop',
        hyperlinkedTextI18n: { vi: 'Quay lại cửa hàng' },
      },
      clientUri: 'https://shop.example/',
      initiateLoginUri: 'https://shop.example/login',
      i18n: { defaultLocale: 'en' },
      permissions: ['users:email:login', 'password:reset'],
      googleAppId: 'g-123',
      usernamePolicy: { email: { allowedDomains: ['shop.example', 'example.com'] }, phone: { regexValidation: '^09\\d{8}$' } },
      recaptcha: { enabled: true, siteKey: 'site-key', secretSet: true },
      termsPrivacy: { brandName: 'Shop Ltd' },
      redirectUris: ['https://shop.example/cb', 'https://shop.example/cb2'],
      postLogoutRedirectUris: ['https://shop.example/'],
      tokenEndpointAuthMethod: 'client_secret_post',
      hasSecret: true,
    });

    const row = await db.selectFrom('clients').selectAll().where('id', '=', 'shop').executeTakeFirstOrThrow();
    expect(row.secret_hash).toMatch(/^hmac-sha256\$[\w-]{43}$/);
    expect(await secretMatches(row.secret_hash, secret)).toBe(true);
    expect(await secretMatches(row.secret_hash, `${secret}x`)).toBe(false);
    expect(row.recaptcha_secret_enc).not.toContain('recaptcha-secret-value');
  });

  it('prints a generated secret once, and updates keep the rest of the theme', async () => {
    const created = await cli(['client', 'create', '--id', 'gen', '--tenant', 'acme', '--name', 'Gen', '--redirect-uris', 'https://gen.example/cb', '--primary-color', '#000000', '--title', 'Gen']);
    expect(created.code, created.err).toBe(0);
    const generated = /will not be shown again, store it now\): (\S+)$/m.exec(created.out)?.[1];
    expect(generated).toBeTruthy();
    const row = await db.selectFrom('clients').select('secret_hash').where('id', '=', 'gen').executeTakeFirstOrThrow();
    expect(await secretMatches(row.secret_hash, generated as string)).toBe(true);
    expect((await cli(['client', 'list', '--tenant', 'acme'])).out).not.toContain(generated);

    const updated = await cli(['client', 'update', '--id', 'gen', '--primary-color', '#ABCDEF', '--title', '', '--name', 'Gen 2', '--secret', 'rotated-secret-1']);
    expect(updated.code, updated.err).toBe(0);
    expect(updated.out).not.toContain('rotated-secret-1');
    const shown = await json<{ name: string; theme: Record<string, string> }>(['client', 'show', '--id', 'gen']);
    expect(shown).toMatchObject({ name: 'Gen 2', theme: { primaryColor: '#ABCDEF' } });
    expect(shown.theme.title).toBeUndefined();
    const rotated = await db.selectFrom('clients').select('secret_hash').where('id', '=', 'gen').executeTakeFirstOrThrow();
    expect(await secretMatches(rotated.secret_hash, 'rotated-secret-1')).toBe(true);

    const list = await json<{ id: string }[]>(['client', 'list', '--tenant', 'acme']);
    // 'acme' was the first tenant: the account area's client came with it.
    expect(list.map((c) => c.id)).toEqual(['account', 'gen', 'shop']);
    expect((await cli(['client', 'remove', '--id', 'gen'])).out).toBe("Removed client 'gen'.");
    expect((await cli(['client', 'show', '--id', 'gen'])).code).toBe(1);
  });

  it('creates a public client without a secret and refuses one', async () => {
    const ok = await cli(['client', 'create', '--id', 'spa', '--tenant', 'acme', '--name', 'SPA', '--redirect-uris', 'https://spa.example/cb', '--auth-method', 'none']);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toBe("Created client 'spa' in tenant 'acme' (public, none).");
    const bad = await cli(['client', 'create', '--id', 'spa2', '--tenant', 'acme', '--name', 'SPA', '--redirect-uris', 'https://spa.example/cb', '--auth-method', 'none', '--secret', 'some-secret-x']);
    expect(bad).toMatchObject({ code: 1, err: '--secret: a public client (auth method none) has no secret' });
    expect(bad.err).not.toContain('some-secret-x');
  });

  it('takes the secret of a new client from PASSGATE_CLIENT_SECRET, and turning a client public drops its secret', async () => {
    const created = await cli(['client', 'create', '--id', 'envy', '--tenant', 'acme', '--name', 'Envy', '--redirect-uris', 'https://envy.example/cb'], {
      PASSGATE_CLIENT_SECRET: 'secret-from-the-environment',
    });
    expect(created.code, created.err).toBe(0);
    expect(created.out).not.toContain('secret-from-the-environment');
    const row = await db.selectFrom('clients').select('secret_hash').where('id', '=', 'envy').executeTakeFirstOrThrow();
    expect(await secretMatches(row.secret_hash, 'secret-from-the-environment')).toBe(true);

    const nothing = await cli(['client', 'update', '--id', 'envy']);
    expect(nothing).toMatchObject({ code: 1, err: 'nothing to change: give at least one field to set' });
    const publicNow = await cli(['client', 'update', '--id', 'envy', '--auth-method', 'none']);
    expect(publicNow.code, publicNow.err).toBe(0);
    expect(await json(['client', 'show', '--id', 'envy'])).toMatchObject({ confidential: false, hasSecret: false });
    const confidentialAgain = await cli(['client', 'update', '--id', 'envy', '--auth-method', 'client_secret_basic']);
    expect(confidentialAgain.out).toMatch(/will not be shown again/);
    expect((await cli(['client', 'remove', '--id', 'envy'])).code).toBe(0);
  });

  it('rejects a bad colour, an unknown tenant and a duplicate id, naming the flags', async () => {
    const colour = await cli(['client', 'create', '--id', 'c1', '--tenant', 'acme', '--name', 'C', '--redirect-uris', 'https://c.example/cb', '--primary-color', '#12345']);
    expect(colour).toMatchObject({ code: 1, err: "--primary-color: Colours are #RRGGBB (got '#12345')" });
    const updateColour = await cli(['client', 'update', '--id', 'shop', '--background-color', 'blue']);
    expect(updateColour).toMatchObject({ code: 1, err: "--background-color: Colours are #RRGGBB (got 'blue')" });

    const tenant = await cli(['client', 'create', '--id', 'c2', '--tenant', 'nope', '--name', 'C', '--redirect-uris', 'https://c.example/cb']);
    expect(tenant).toMatchObject({ code: 1, err: "--tenant: tenant 'nope' does not exist" });

    const duplicate = await cli(['client', 'create', '--id', 'shop', '--tenant', 'acme', '--name', 'Again', '--redirect-uris', 'https://c.example/cb']);
    expect(duplicate).toMatchObject({ code: 1, err: "--id: client 'shop' already exists" });

    const uris = await cli(['client', 'create', '--id', 'c3', '--tenant', 'acme', '--name', 'C', '--redirect-uris', 'https://ok.example/cb,not-a-uri', '--permissions', 'users:email:login,flying']);
    expect(uris.code).toBe(1);
    expect(uris.err).toMatch(/^--redirect-uris: .*\(got 'not-a-uri'\)$/m);
    expect(uris.err).toMatch(/^--permissions: .*\(got 'flying'\)$/m);

    const missing = await cli(['client', 'create', '--id', 'c4', '--tenant', 'acme']);
    expect(missing.err.split('\n')).toEqual(['--name: is required', '--redirect-uris: is required']);
  });
});

describe('user commands', () => {
  it('creates a user and sets passwords by the tenant policy and history', async () => {
    // Tenant acme: at least 8 characters, 1 digit, 2 special characters, last 2 passwords refused.
    const weak = await cli(['user', 'create', '--tenant', 'acme', '--email', 'ann@acme.example', '--name', 'Ann', '--password', 'short']);
    expect(weak.code).toBe(1);
    expect(weak.err).toMatch(/^--password: does not meet the password policy of tenant 'acme' \(needs at least 8 characters, at least 1 digit, at least 2 special characters\)$/);
    expect(weak.err).not.toContain('short');

    const first = 'First#1!pass';
    const created = await cli(['user', 'create', '--tenant', 'acme', '--email', 'Ann@Acme.example', '--phone', '0912345678', '--name', 'Ann'], { PASSGATE_PASSWORD: first });
    expect(created.code, created.err).toBe(0);
    expect(created.out).toMatch(/^Created user 'ann@acme.example' \(id [0-9a-f-]+\) in tenant 'acme', status active\.$/);
    expect(created.out).not.toContain(first);

    const again = await cli(['user', 'create', '--tenant', 'acme', '--email', 'ann@acme.example', '--phone', '12345', '--name', ' ', '--password', first]);
    expect(again.code).toBe(1);
    expect(again.err.split('\n')).toEqual([
      "--email: ann@acme.example is already registered in tenant 'acme'",
      '--phone: 12345 has an invalid format (10 digits)',
      '--name: must not be blank',
    ]);
    expect((await cli(['user', 'create', '--tenant', 'nope', '--email', 'x@y.example', '--name', 'X', '--password', first])).err).toBe("--tenant: tenant 'nope' does not exist");

    const second = 'Second#2!pass';
    const set = await cli(['user', 'set-password', '--tenant', 'acme', '--username', 'ann@acme.example', '--password', second]);
    expect(set.code, set.err).toBe(0);
    expect(set.out).not.toContain(second);
    // The two most recent passwords are refused; the policy is checked too.
    const reuse = await cli(['user', 'set-password', '--tenant', 'acme', '--username', '0912345678'], { PASSGATE_PASSWORD: first });
    expect(reuse).toMatchObject({ code: 1, err: "PASSGATE_PASSWORD: was used recently: tenant 'acme' refuses the last 2 passwords" });
    expect((await cli(['user', 'set-password', '--tenant', 'acme', '--username', 'ann@acme.example', '--password', second])).code).toBe(1);
    expect((await cli(['user', 'set-password', '--tenant', 'acme', '--username', 'ann@acme.example', '--password', 'nodigits!!'])).err).toMatch(/^--password: does not meet/);
    // Past the policy, the list of common breached passwords, in any case ('g00dpa$$w0rd' is on it).
    const common = await cli(['user', 'set-password', '--tenant', 'acme', '--username', 'ann@acme.example', '--password', 'G00dPa$$w0rd']);
    expect(common).toMatchObject({ code: 1, err: '--password: is on the list of common breached passwords: choose another one' });
    expect(common.err).not.toContain('G00dPa');
    expect((await cli(['user', 'create', '--tenant', 'acme', '--email', 'cy@acme.example', '--name', 'Cy'], { PASSGATE_PASSWORD: 'g00dPA$$w0rd' })).err).toBe(
      'PASSGATE_PASSWORD: is on the list of common breached passwords: choose another one',
    );
    expect((await cli(['user', 'set-password', '--tenant', 'acme', '--username', 'bob@acme.example', '--password', second])).err).toBe(
      "--username: no user 'bob@acme.example' in tenant 'acme'",
    );

    const user = await db.selectFrom('users').selectAll().where('email', '=', 'ann@acme.example').executeTakeFirstOrThrow();
    expect(user).toMatchObject({ phone_number: '0912345678', email_verified: 1, status: 'active', registration_method: 'password' });
    expect(await verifySecret(user.password_hash as string, second)).toBe(true);
    const history = await db.selectFrom('password_history').select('id').where('user_id', '=', user.id).execute();
    expect(history).toHaveLength(2);
    const audit = await db.selectFrom('audit_events').select('type').where('user_id', '=', user.id).execute();
    // Setting the password signed the account out everywhere, as a reset does (set-password.test.ts over HTTP).
    expect(audit.map((a) => a.type).sort()).toEqual(['password.changed', 'sessions.ended', 'user.created']);
  });
});

describe('keys commands', () => {
  it('rotates the signing keys with an overlap and the cookie keys, and says that instances need a restart', async () => {
    const listed = await cli(['keys', 'list']);
    expect(listed.code, listed.err).toBe(0);
    const signing = listed.out.split('\n').filter((l) => / signing$/.test(l));
    expect(signing).toHaveLength(2);

    // Step 1: new keys published, the same ones still sign.
    const published = await cli(['keys', 'rotate-signing']);
    expect(published.code, published.err).toBe(0);
    expect(published.out).toContain('Step 1 of 2');
    expect(published.out.split('\n').filter((l) => / signing$/.test(l))).toEqual(signing);
    const next = published.out.split('\n').filter((l) => /next: published, signs after the next rotation$/.test(l));
    expect(next).toHaveLength(2);
    expect(published.out).toContain('restart every instance');
    expect(published.out).toContain("run 'keys rotate-signing' again");

    // Step 2: they sign; the keys that signed before only verify, until the longest token lifetime (1 h by default) has passed.
    const rotated = await cli(['keys', 'rotate-signing']);
    expect(rotated.code, rotated.err).toBe(0);
    expect(rotated.out).toContain('Step 2 of 2');
    const lines = rotated.out.split('\n');
    const kids = (list: string[]) => list.map((l) => l.trim().split(' ')[0]).sort();
    expect(kids(lines.filter((l) => / signing$/.test(l)))).toEqual(kids(next));
    const verifying = lines.filter((l) => /verifying only, published until \d{4}-\d\d-\d\dT/.test(l));
    expect(kids(verifying)).toEqual(kids(signing));
    expect(rotated.out).toContain('restart every instance');

    const cookies = await cli(['keys', 'rotate-cookies']);
    expect(cookies.code, cookies.err).toBe(0);
    expect(cookies.out).toContain('The next cookie key');
    await cli(['keys', 'rotate-cookies']);

    // Still sealed with APP_SECRET: no private key member and nothing readable in the stored rows.
    const rows = await db.selectFrom('server_secrets').select(['name', 'value']).where('name', 'in', ['oidc_jwks', 'cookie_keys']).execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.value).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('refuses to rotate keys that come from the environment, naming the variable', async () => {
    const result = await cli(['keys', 'rotate-cookies'], { COOKIE_KEYS: 'an-environment-cookie-key-0123456789' });
    expect(result.code).toBe(1);
    expect(result.err).toContain('COOKIE_KEYS is set');
    const unknown = await cli(['keys', 'frob']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('keys commands: list, rotate-signing, rotate-cookies');
  });
});

describe('usage', () => {
  it('prints help and answers 2 for unknown commands and flags', async () => {
    const help = await cli(['help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('--passwordless-allowed true|false');
    expect(help.out).toContain('PASSGATE_PASSWORD');
    expect(help.out).toContain('keys rotate-signing');
    expect((await cli(['tenant', 'frob'])).code).toBe(2);
    expect((await cli([])).code).toBe(2);
    const unknownFlag = await cli(['tenant', 'list', '--name', 'x']);
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.err).toContain("unknown flag '--name' for 'tenant list'");
  });

  it('runs as a program with the right exit codes (npm run passgate)', () => {
    const spawnEnv = { ...process.env, ...env };
    const ok = spawnSync('npm', ['run', '--silent', 'passgate', '--', 'tenant', 'show', '--id', 'acme'], { cwd: repoRoot, env: spawnEnv, encoding: 'utf8' });
    expect(ok.status, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ id: 'acme' });
    const bad = spawnSync('npx', ['tsx', 'packages/server/src/cli/main.ts', 'client', 'update', '--id', 'shop', '--primary-color', '#12345'], { cwd: repoRoot, env: spawnEnv, encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain("--primary-color: Colours are #RRGGBB (got '#12345')");
    const usage = spawnSync('npx', ['tsx', 'packages/server/src/cli/main.ts', 'nonsense'], { cwd: repoRoot, env: spawnEnv, encoding: 'utf8' });
    expect(usage.status).toBe(2);
    // Three processes, each loading TypeScript through tsx: slow on a busy two-core machine.
  }, 90_000);
});
