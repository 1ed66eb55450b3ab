import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../db/database.ts';
import { createServerKeys } from '../../lib/server-keys.ts';
import { redactUrl } from '../../lib/redact-url.ts';
import { run } from '../../cli/main.ts';
import { appSecretProof } from './facebook.ts';
import { emailOf, truthy } from './provider-http.ts';
import { maskEmail } from './social-accounts.ts';

describe('social sign-in helpers', () => {
  it('computes Facebook\'s appsecret_proof as HMAC-SHA256 of the token keyed by the app secret, in hex', () => {
    // Computed independently: python3 -c "import hmac,hashlib; print(hmac.new(b'app-secret', b'user-token', hashlib.sha256).hexdigest())"
    expect(appSecretProof('user-token', 'app-secret')).toBe('b5a94d985eb7b68467d28ca5375162d12b9ca8fe238615acc927c8a9c08d2e95');
    expect(appSecretProof('user-token', 'app-secret')).not.toBe(appSecretProof('user-token', 'other-secret'));
  });

  it('masks e-mail addresses and reads providers\' values', () => {
    expect(maskEmail('ann@example.com')).toBe('a***@example.com');
    expect(maskEmail('x@y.example')).toBe('x***@y.example');
    expect(emailOf(' Ann+Shop@Gmail.com ')).toBe('ann+shop@gmail.com');
    expect(emailOf('not an address')).toBeNull();
    expect(emailOf(42)).toBeNull();
    expect([truthy(true), truthy('true'), truthy('false'), truthy(undefined)]).toEqual([true, true, false, false]);
  });

  it('keeps access tokens, input tokens and proofs out of logged URLs', () => {
    const url = redactUrl('/debug_token?input_token=USER-TOKEN&access_token=123|APP-SECRET&appsecret_proof=PROOF&fields=id');
    expect(url).not.toMatch(/USER-TOKEN|APP-SECRET|PROOF/);
    expect(url).toContain('fields=id');
    expect(redactUrl('/oauth2/v3/tokeninfo?access_token=ya29.SECRET')).not.toContain('ya29');
  });
});

describe('the Facebook app secret through the command line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'passgate-social-cli-'));
  const appSecret = 'x'.repeat(40);
  const env = { NODE_ENV: 'test', DATABASE_URL: `sqlite:${join(dir, 'cli.sqlite')}`, LOG_LEVEL: 'silent', APP_SECRET: appSecret };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function cli(args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await run(args, { out: (l) => out.push(l), err: (l) => err.push(l), env });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('is stored encrypted with the server key, never shown, and can be removed', async () => {
    expect((await cli(['tenant', 'create', '--id', 'acme', '--name', 'Acme'])).code).toBe(0);
    const created = await cli(['client', 'create', '--id', 'fb-shop', '--tenant', 'acme', '--name', 'FB Shop', '--redirect-uris', 'https://shop.example/cb', '--auth-method', 'none', '--facebook-app-id', '123456']);
    expect(created.code, created.err).toBe(0);
    const updated = await cli(['client', 'update', '--id', 'fb-shop', '--facebook-app-secret', 'Facebook-Secret-Value']);
    expect(updated.code, updated.err).toBe(0);
    expect(updated.out).not.toContain('Facebook-Secret-Value');
    const shown = await cli(['client', 'show', '--id', 'fb-shop']);
    expect(shown.out).not.toContain('Facebook-Secret-Value');
    expect(JSON.parse(shown.out)).toMatchObject({ facebookAppId: '123456', facebookAppSecretSet: true });

    const db = createDatabase(env.DATABASE_URL);
    try {
      const row = await db.selectFrom('clients').select('facebook_app_secret_encrypted').where('id', '=', 'fb-shop').executeTakeFirstOrThrow();
      expect(row.facebook_app_secret_encrypted).not.toContain('Facebook-Secret-Value');
      expect(createServerKeys(appSecret).decrypt(row.facebook_app_secret_encrypted as string)).toBe('Facebook-Secret-Value');
      expect((await cli(['client', 'update', '--id', 'fb-shop', '--facebook-app-secret', ''])).code).toBe(0);
      expect((await db.selectFrom('clients').select('facebook_app_secret_encrypted').where('id', '=', 'fb-shop').executeTakeFirstOrThrow()).facebook_app_secret_encrypted).toBeNull();
    } finally {
      await db.destroy();
    }
    expect(JSON.parse((await cli(['client', 'show', '--id', 'fb-shop'])).out)).toMatchObject({ facebookAppSecretSet: false });
  });
});
