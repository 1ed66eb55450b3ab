import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const PRODUCTION = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://id.example.com',
  SMTP_URL: 'smtps://u:p@smtp.example.com',
  SMS_PROVIDER: 'twilio',
  TWILIO_ACCOUNT_SID: 'AC1',
  TWILIO_AUTH_TOKEN: 't',
  TWILIO_FROM: '+15005550006',
  APP_SECRET: 'a-production-app-secret-of-at-least-32-characters',
};

describe('configuration from the environment', () => {
  it('runs in development on port 3000 with SQLite when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ env: 'development', port: 3000, publicUrl: 'http://localhost:3000', issuer: 'http://localhost:3000/oidc', databaseUrl: 'sqlite:./data/passgate.sqlite', seedDemo: true, devTools: true });
  });

  it('checks Google and Facebook tokens at the providers by default, or at the URLs given (tests, proxies)', () => {
    expect(loadConfig({}).social).toEqual({ googleApiUrl: 'https://www.googleapis.com', facebookGraphUrl: 'https://graph.facebook.com/v19.0' });
    expect(loadConfig({ GOOGLE_API_URL: 'http://127.0.0.1:9000/', FACEBOOK_GRAPH_URL: 'http://127.0.0.1:9000/v19.0/' }).social).toEqual({
      googleApiUrl: 'http://127.0.0.1:9000',
      facebookGraphUrl: 'http://127.0.0.1:9000/v19.0',
    });
    expect(() => loadConfig({ GOOGLE_API_URL: 'not a url' })).toThrow(/GOOGLE_API_URL/);
    expect(() => loadConfig({ FACEBOOK_GRAPH_URL: 'ftp://graph.example' })).toThrow(/FACEBOOK_GRAPH_URL/);
  });

  it("keeps the parallel password hashes below libuv's thread pool (UV_THREADPOOL_SIZE, 4 by default), one thread left for logs and signatures", () => {
    const saved = process.env.UV_THREADPOOL_SIZE;
    try {
      delete process.env.UV_THREADPOOL_SIZE;
      expect(loadConfig({}).argon2.concurrency).toBeLessThanOrEqual(3);
      expect(loadConfig({ ARGON2_CONCURRENCY: '3' }).argon2).toEqual({ concurrency: 3, maxQueue: 24 });
      expect(() => loadConfig({ ARGON2_CONCURRENCY: '4' })).toThrow(/ARGON2_CONCURRENCY: must be below libuv's thread pool size \(4, UV_THREADPOOL_SIZE\); raise UV_THREADPOOL_SIZE to at least 5/);
      process.env.UV_THREADPOOL_SIZE = '17';
      expect(loadConfig({ ARGON2_CONCURRENCY: '16' }).argon2.concurrency).toBe(16);
    } finally {
      if (saved === undefined) delete process.env.UV_THREADPOOL_SIZE;
      else process.env.UV_THREADPOOL_SIZE = saved;
    }
  });

  it('bounds every wait on the database by default (a few seconds), or as DATABASE_*_TIMEOUT_MS and STARTUP_TIMEOUT_MS say', () => {
    expect(loadConfig({})).toMatchObject({ database: { connectTimeoutMs: 5000, statementTimeoutMs: 10000, busyTimeoutMs: 5000 }, startupTimeoutMs: 30000 });
    expect(
      loadConfig({ DATABASE_CONNECT_TIMEOUT_MS: '1000', DATABASE_STATEMENT_TIMEOUT_MS: '0', DATABASE_BUSY_TIMEOUT_MS: '250', STARTUP_TIMEOUT_MS: '0' }),
    ).toMatchObject({ database: { connectTimeoutMs: 1000, statementTimeoutMs: 0, busyTimeoutMs: 250 }, startupTimeoutMs: 0 });
    expect(() => loadConfig({ DATABASE_CONNECT_TIMEOUT_MS: '0' })).toThrow(/DATABASE_CONNECT_TIMEOUT_MS/);
    expect(() => loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: 'soon' })).toThrow(/DATABASE_STATEMENT_TIMEOUT_MS/);
    expect(() => loadConfig({ STARTUP_TIMEOUT_MS: '-1' })).toThrow(/STARTUP_TIMEOUT_MS/);
  });

  it('refuses a number setting left empty instead of reading it as 0 (no statement timeout, a random port)', () => {
    for (const name of ['PORT', 'DATABASE_STATEMENT_TIMEOUT_MS', 'DATABASE_BUSY_TIMEOUT_MS', 'STARTUP_TIMEOUT_MS', 'REDIS_COMMAND_TIMEOUT_MS', 'ARGON2_MAX_QUEUE']) {
      for (const value of ['', '  ']) expect(() => loadConfig({ [name]: value }), `${name}='${value}'`).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}: is empty`));
    }
    expect(loadConfig({ PORT: ' 8080 ', DATABASE_STATEMENT_TIMEOUT_MS: '0' })).toMatchObject({ port: 8080, database: { statementTimeoutMs: 0 } });
    // METRICS_PORT's empty value has always meant 'no metrics listener'.
    expect(loadConfig({ METRICS_PORT: '' }).metricsPort).toBeUndefined();
  });

  it('refuses a PUBLIC_URL with credentials, a query or a fragment, and a COOKIE_KEYS without a key, naming them', () => {
    for (const url of ['https://ops:hunter2@id.example.com', 'https://id.example.com/?tenant=a', 'https://id.example.com/?', 'https://id.example.com/#top']) {
      let message = '';
      try {
        loadConfig({ ...PRODUCTION, PUBLIC_URL: url });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message, url).toMatch(/^Invalid configuration:\n {2}PUBLIC_URL: must not /);
      expect(message).not.toContain('hunter2');
    }
    expect(loadConfig({ ...PRODUCTION, PUBLIC_URL: 'https://id.example.com/' }).issuer).toBe('https://id.example.com/oidc');
    // Set, COOKIE_KEYS replaces the stored keys: with none in it every sign-in would answer 500.
    for (const value of ['', ' , ,']) expect(() => loadConfig({ COOKIE_KEYS: value })).toThrow(/^Invalid configuration:\n {2}COOKIE_KEYS: holds no key/);
    const [one, two] = ['a-first-cookie-key-of-32-characters', 'the-second-cookie-key-of-32-chars'];
    expect(loadConfig({ COOKIE_KEYS: ` ${one}, ${two} ,` }).cookieKeys).toEqual([one, two]);
    // A short key signs session cookies anyone could forge: refused, naming which one, never quoting it.
    expect(() => loadConfig({ COOKIE_KEYS: `${one},short-key` })).toThrow(/^Invalid configuration:\n {2}COOKIE_KEYS: key 2 is shorter than 32 characters[^\n]*$/);
    expect(() => loadConfig({ COOKIE_KEYS: `${one},short-key` })).not.toThrow(/short-key/);
  });

  it('refuses an SMTP_URL or REDIS_URL the drivers cannot parse, naming it and never quoting it', () => {
    for (const [name, value] of [
      ['SMTP_URL', 'smtps://mailer:hun/ter2#x@smtp.example.com:465'],
      ['SMTP_URL', 'smtp://mailer:hunter2@smtp.example.com:submission'],
      ['REDIS_URL', 'redis://:hun/ter2@cache:6379/0'],
    ]) {
      expect(() => loadConfig({ [name!]: value }), value).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}: is not a valid URL: percent-encode`));
      expect(() => loadConfig({ [name!]: value })).not.toThrow(/ter2/);
    }
    expect(loadConfig({ SMTP_URL: 'smtps://mailer:pa%2Fss%23word@smtp.example.com:465' }).smtpUrl).toBe('smtps://mailer:pa%2Fss%23word@smtp.example.com:465');
  });

  it('refuses a MAIL_FROM that is not one address, which mail servers would refuse or file as spam', () => {
    for (const value of ['notanaddress', 'Passgate <no-reply@example.com', 'Passgate', 'a@example.com, b@example.com', '']) {
      expect(() => loadConfig({ MAIL_FROM: value }), value).toThrow(/^Invalid configuration:\n {2}MAIL_FROM: must be an e-mail address/);
    }
    for (const value of ['no-reply@example.com', 'Passgate <no-reply@example.com>', '"Passgate, Inc." <no-reply@example.com>', 'Đăng nhập <no-reply@example.vn>']) {
      expect(loadConfig({ MAIL_FROM: value }).mailFrom, value).toBe(value);
    }
  });

  it('names the variable whose value is bad', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must start with sqlite: or postgres/);
    expect(() => loadConfig({ OIDC_JWKS: '{"nope":1}' })).toThrow(/OIDC_JWKS/);
    expect(() => loadConfig({ APP_SECRET: 'short' })).toThrow(ConfigError);
  });

  it('reads TRUST_PROXY as no proxy, a hop count (true: one) or the proxies\' addresses, never as trust-all', () => {
    for (const value of [undefined, 'false', '0']) expect(loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy).toBe(false);
    // A hop count believes that many proxies, so the client is the address the outermost one saw.
    const hops = (value: string) => {
      const trust = loadConfig({ TRUST_PROXY: value }).trustProxy;
      if (typeof trust !== 'function') throw new Error(`${value} is not read as a hop count`);
      return [0, 1, 2, 3].filter((hop) => trust('203.0.113.7', hop)).length;
    };
    expect(hops('true')).toBe(1);
    expect(hops('1')).toBe(1);
    expect(hops(' 2 ')).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1' }).trustProxy).toEqual(['127.0.0.1']);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.1 ,fd00::/8,::1,loopback' }).trustProxy).toEqual(['10.0.0.0/8', '192.168.1.1', 'fd00::/8', '::1', 'loopback']);
  });

  it('refuses a TRUST_PROXY it does not understand, naming it', () => {
    for (const value of ['yes', 'TRUE', '', '-1', '1.5', '10.0.0.0/33', '::/129', '10.0.0.0/8/1', '10.0.0.256', '127.0.0.1,', 'proxy.example.com', '*']) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(ConfigError);
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY/);
    }
  });

  it('refuses production without a public URL and real mail and SMS settings', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/PUBLIC_URL, SMTP_URL, SMS_PROVIDER/);
    const config = loadConfig({ ...PRODUCTION, PUBLIC_URL: 'https://id.example.com/' });
    expect(config).toMatchObject({ publicUrl: 'https://id.example.com', seedDemo: false, devTools: false });
  });

  it('refuses the demo seed in production: its password and secrets are published and its user is an operator', () => {
    for (const value of ['true', '1']) {
      expect(() => loadConfig({ ...PRODUCTION, SEED_DEMO: value }), value).toThrow(ConfigError);
      expect(() => loadConfig({ ...PRODUCTION, SEED_DEMO: value }), value).toThrow(/SEED_DEMO: .*refused in production mode/);
    }
    expect(loadConfig({ ...PRODUCTION, SEED_DEMO: 'false' }).seedDemo).toBe(false);
    expect(loadConfig({ SEED_DEMO: 'true' }).seedDemo).toBe(true);
  });

  it('refuses production without APP_SECRET or APP_SECRET_FILE, which must not come from the database it protects', () => {
    const { APP_SECRET: _omitted, ...withoutSecret } = PRODUCTION;
    expect(() => loadConfig(withoutSecret)).toThrow(ConfigError);
    expect(() => loadConfig(withoutSecret)).toThrow(/production mode needs real settings for: APP_SECRET or APP_SECRET_FILE$/);
    expect(loadConfig(PRODUCTION).appSecret).toBe(PRODUCTION.APP_SECRET);
    // Development keeps working with no configuration: the server generates and stores one.
    expect(loadConfig({}).appSecret).toBeUndefined();
  });

  describe('OIDC_JWKS', () => {
    /** A private JWK's members (d is there, and p, q… for RSA). */
    type PrivateJwk = Record<string, string | undefined> & { d: string };
    const jwkOf = (key: KeyObject) => key.export({ format: 'jwk' }) as PrivateJwk;
    const rsaJwk = (modulusLength = 2048) => jwkOf(generateKeyPairSync('rsa', { modulusLength }).privateKey);
    const ecJwk = (namedCurve = 'P-256') => jwkOf(generateKeyPairSync('ec', { namedCurve }).privateKey);
    const okpJwk = (type: 'ed25519' | 'x25519') => jwkOf(type === 'ed25519' ? generateKeyPairSync('ed25519').privateKey : generateKeyPairSync('x25519').privateKey);
    const rsa: PrivateJwk = { ...rsaJwk(), kid: 'rsa-1', alg: 'RS256', use: 'sig' };
    const ec: PrivateJwk = { ...ecJwk(), kid: 'ec-1', alg: 'ES256', use: 'sig' };
    const ed: PrivateJwk = { ...okpJwk('ed25519'), kid: 'ed-1' };
    const jwks = (...keys: unknown[]) => JSON.stringify({ keys });
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...rsaPublic } = rsa;
    /** The refusal for `value`: a ConfigError naming OIDC_JWKS, which quotes none of the key material. */
    const refusal = (value: string) => {
      try {
        loadConfig({ OIDC_JWKS: value });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        const message = (error as Error).message;
        expect(message).toMatch(/^Invalid configuration:\n {2}OIDC_JWKS: /);
        for (const secret of [rsa.d, rsa.p ?? rsa.d, rsa.q ?? rsa.d, ec.d, ed.d, 'c2VjcmV0LWhtYWMta2V5']) expect(message).not.toContain(secret);
        return message;
      }
      throw new Error(`OIDC_JWKS=${value.slice(0, 40)}… was accepted`);
    };

    it('takes a set of private RS256, ES256 and Ed25519 keys as given', () => {
      expect(loadConfig({ OIDC_JWKS: jwks(rsa, ec, ed) }).oidcJwks).toEqual({ keys: [rsa, ec, ed] });
      // No kid, alg or use: oidc-provider fills them in.
      const { kid: _kid, alg: _alg, use: _use, ...bare } = rsa;
      expect(loadConfig({ OIDC_JWKS: jwks(bare) }).oidcJwks).toEqual({ keys: [bare] });
    });

    it('refuses text that is not a key set, without quoting it', () => {
      expect(refusal(`{"keys":[${JSON.stringify(rsa)}`)).toMatch(/OIDC_JWKS: is not valid JSON/);
      expect(refusal('{"nope":1}')).toMatch(/OIDC_JWKS: must be a JSON Web Key Set/);
      expect(refusal('{"keys":[]}')).toMatch(/at least one key/);
      expect(refusal(JSON.stringify([rsa]))).toMatch(/must be a JSON Web Key Set/);
      expect(refusal('null')).toMatch(/must be a JSON Web Key Set/);
    });

    it('refuses a key the provider cannot sign with, naming its place in the set', () => {
      expect(refusal('{"keys":[{"kty":"RSA"}]}')).toMatch(/keys\[0\] is an incomplete RSA private key \(no "n", "e", "d", "p", "q", "dp", "dq", "qi"\)/);
      expect(refusal(jwks(rsa, rsaPublic))).toMatch(/keys\[1\] is a public key; OIDC_JWKS needs the private key/);
      expect(refusal(jwks(rsa, { kty: 'oct', k: 'c2VjcmV0LWhtYWMta2V5', alg: 'HS256' }))).toMatch(/keys\[1\] is a symmetric \("oct"\) key/);
      expect(refusal(jwks(rsa, ecJwk('P-384')))).toMatch(/keys\[1\] is not an RSA, EC P-256 or Ed25519 key/);
      expect(refusal(jwks(rsa, okpJwk('x25519')))).toMatch(/keys\[1\] is not an RSA, EC P-256 or Ed25519 key/);
      expect(refusal(jwks(rsa, 'a key'))).toMatch(/keys\[1\] is not a JSON Web Key/);
      expect(refusal(jwks({ ...rsa, use: 'enc' }))).toMatch(/keys\[0\] has "use" other than "sig"/);
      expect(refusal(jwks({ ...rsa, alg: 'PS256' }))).toMatch(/keys\[0\] is an RSA key with "alg" other than RS256/);
      expect(refusal(jwks(rsa, { ...ec, alg: 'RS256' }))).toMatch(/keys\[1\] is an EC P-256 key with "alg" other than ES256/);
      expect(refusal(jwks({ ...rsa, qi: undefined }))).toMatch(/keys\[0\] is an incomplete RSA private key \(no "qi"\)/);
      expect(refusal(jwks(rsaJwk(1024)))).toMatch(/keys\[0\] is an RSA key shorter than 2048 bits/);
      // A private part that belongs to another key would sign tokens nobody can verify.
      expect(refusal(jwks({ ...rsa, n: rsaJwk().n }))).toMatch(/keys\[0\] is not a valid RSA private key/);
      expect(refusal(jwks(rsa, { ...ec, d: ecJwk().d }))).toMatch(/keys\[1\] is not a valid EC P-256 private key/);
      expect(refusal(jwks(rsa, { ...ed, d: okpJwk('ed25519').d }))).toMatch(/keys\[1\] is not a valid OKP Ed25519 private key/);
      expect(refusal(jwks(rsa, { ...ec, key_ops: 'sign' }))).toMatch(/keys\[1\] has a "key_ops" that is not a list of strings/);
    });

    it('refuses repeated or empty kids, and a set without an RSA key (relying parties get RS256 ID tokens by default)', () => {
      expect(refusal(jwks(rsa, { ...ec, kid: 'rsa-1' }))).toMatch(/keys\[1\] repeats the "kid" of an earlier key/);
      expect(refusal(jwks({ ...rsa, kid: '' }))).toMatch(/keys\[0\] has a "kid" that is not a non-empty string/);
      expect(refusal(jwks(ec, ed))).toMatch(/OIDC_JWKS: needs an RSA key \(RS256\)/);
    });
  });

  describe('GEOIP_DB', () => {
    const dir = mkdtempSync(join(tmpdir(), 'passgate-geoip-config-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('takes a readable file (opened as a MaxMind database at start-up)', () => {
      const path = join(dir, 'city.mmdb');
      writeFileSync(path, 'opened later');
      expect(loadConfig({ GEOIP_DB: path }).geoipDb).toBe(path);
      expect(loadConfig({}).geoipDb).toBeUndefined();
    });

    it('stops start-up naming the variable when the file is missing, a folder or unreadable', () => {
      expect(() => loadConfig({ GEOIP_DB: join(dir, 'missing.mmdb') })).toThrow(ConfigError);
      expect(() => loadConfig({ GEOIP_DB: join(dir, 'missing.mmdb') })).toThrow(/^Invalid configuration:\n {2}GEOIP_DB: cannot read .*missing\.mmdb \(ENOENT\)$/);
      const folder = join(dir, 'folder.mmdb');
      mkdirSync(folder);
      expect(() => loadConfig({ GEOIP_DB: folder })).toThrow(/GEOIP_DB: cannot read .*folder\.mmdb \(not a regular file\)/);
      // root reads through permissions.
      if (process.getuid?.() !== 0) {
        const locked = join(dir, 'locked.mmdb');
        writeFileSync(locked, '');
        chmodSync(locked, 0o000);
        expect(() => loadConfig({ GEOIP_DB: locked })).toThrow(/GEOIP_DB: cannot read .*locked\.mmdb \(EACCES\)/);
      }
    });
  });

  describe('APP_SECRET_FILE', () => {
    const dir = mkdtempSync(join(tmpdir(), 'passgate-config-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const file = (name: string, content: string) => {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    };

    it('reads the secret from the file, without the surrounding whitespace, in production too', () => {
      const secret = 'a-secret-from-a-file-of-at-least-32-characters';
      const path = file('secret', `  ${secret}\n`);
      expect(loadConfig({ APP_SECRET_FILE: path }).appSecret).toBe(secret);
      const { APP_SECRET: _omitted, ...withoutSecret } = PRODUCTION;
      expect(loadConfig({ ...withoutSecret, APP_SECRET_FILE: path }).appSecret).toBe(secret);
    });

    it('stops start-up naming the variable when the file is missing, unreadable or too short', () => {
      expect(() => loadConfig({ APP_SECRET_FILE: join(dir, 'missing') })).toThrow(ConfigError);
      expect(() => loadConfig({ APP_SECRET_FILE: join(dir, 'missing') })).toThrow(/APP_SECRET_FILE: cannot read .*missing \(ENOENT\)/);
      expect(() => loadConfig({ APP_SECRET_FILE: dir })).toThrow(/APP_SECRET_FILE: cannot read/);
      expect(() => loadConfig({ APP_SECRET_FILE: file('short', 'short\n') })).toThrow(/APP_SECRET_FILE: .* must hold at least 32 characters/);
      expect(() => loadConfig({ APP_SECRET_FILE: file('blank', '   \n') })).toThrow(/APP_SECRET_FILE/);
    });

    it('refuses both APP_SECRET and APP_SECRET_FILE', () => {
      const path = file('both', 'b'.repeat(40));
      expect(() => loadConfig({ APP_SECRET: 'a'.repeat(40), APP_SECRET_FILE: path })).toThrow(/APP_SECRET, APP_SECRET_FILE: set one of them, not both/);
    });
  });
});
