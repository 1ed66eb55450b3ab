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

  it('refuses production without a public URL and real mail and SMS settings', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/PUBLIC_URL, SMTP_URL, SMS_PROVIDER/);
    const config = loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://id.example.com/', SMTP_URL: 'smtps://u:p@smtp.example.com', SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 't', TWILIO_FROM: '+15005550006' });
    expect(config).toMatchObject({ publicUrl: 'https://id.example.com', seedDemo: false, devTools: false });
  });
});
