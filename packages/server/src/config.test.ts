import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

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
    const config = loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://id.example.com/', SMTP_URL: 'smtps://u:p@smtp.example.com', SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 't', TWILIO_FROM: '+15005550006' });
    expect(config).toMatchObject({ publicUrl: 'https://id.example.com', seedDemo: false, devTools: false });
  });
});
