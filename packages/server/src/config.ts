import { isIP } from 'node:net';
import { createPrivateKey, createPublicKey, sign, verify, type JsonWebKey, type KeyObject } from 'node:crypto';
import { accessSync, constants as fsConstants, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { EsmsSettings } from './messaging/sms/esms.ts';
import type { TwilioSettings } from './messaging/sms/twilio.ts';
import { canonicalHost } from './lib/public-fetch.ts';
import { packageRoot } from './lib/package-root.ts';
import { defaultArgon2Limits, threadPoolSize, type Argon2Limits } from './lib/passwords.ts';
import { NOT_A_VALID_URL } from './lib/mask-url.ts';

/**
 * Configuration from the environment, parsed and checked once at start-up. A bad value stops
 * start-up with a message naming the variable. `.env.example` lists every variable.
 */

const boolish = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/**
 * A whole number from the environment, between min and max. z.coerce.number() alone reads an empty
 * value as 0, so `DATABASE_STATEMENT_TIMEOUT_MS=` (a variable left blank in a compose file or unit)
 * would silently turn the timeout off and `PORT=` would listen on a random port: an empty value is
 * refused instead, naming the variable, like any other bad value.
 */
const wholeNumber = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.string().trim().min(1, 'is empty: set a whole number, or leave the variable out for the default').pipe(z.coerce.number<string>().int().min(min).max(max));

/**
 * A connection URL the drivers can read. nodemailer and ioredis parse with Node's legacy url.parse,
 * which takes an invalid one (a password with an unencoded / or #, a port that is not a number) and
 * prints it whole, password included, in a deprecation warning on stderr; the send or connection
 * then fails with a bare 'Invalid URL'. Refused here instead, naming the variable, never quoting it.
 */
const VALID_URL = [(text: string) => URL.canParse(text), NOT_A_VALID_URL] as const;

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: wholeNumber(0, 65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** Port of the separate listener serving GET /metrics; unset (or empty), there is no such listener. */
  METRICS_PORT: z.preprocess((value) => (value === '' ? undefined : value), wholeNumber(0, 65535).optional()),
  /** Address of the metrics listener: loopback unless the scraper needs more. */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^(sqlite:|postgres:\/\/|postgresql:\/\/)/, 'must start with sqlite: or postgres://')
    .default('sqlite:./data/passgate.sqlite'),
  /** How long opening a PostgreSQL connection may take (pg's connectionTimeoutMillis) before the request fails with 503. */
  DATABASE_CONNECT_TIMEOUT_MS: wholeNumber(100, 120000).default(5000),
  /**
   * How long one PostgreSQL statement may run (statement_timeout on the server, and a client-side
   * read timeout a little longer for a server that went silent); 0 turns both off.
   */
  DATABASE_STATEMENT_TIMEOUT_MS: wholeNumber(0, 3600000).default(10000),
  /** How long a SQLite write waits for another writer's lock before failing with 503. */
  DATABASE_BUSY_TIMEOUT_MS: wholeNumber(0, 120000).default(5000),
  /** How long start-up keeps retrying an unreachable database before giving up with a non-zero exit. */
  STARTUP_TIMEOUT_MS: wholeNumber(0, 600000).default(30000),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must start with redis:// or rediss://').refine(...VALID_URL).optional(),
  /** Prefix of every Redis key, so deployments (or test runs) can share one Redis. */
  REDIS_KEY_PREFIX: z.string().regex(/^[A-Za-z0-9:_-]{1,64}$/).default('passgate:'),
  /** How long a connection attempt to Redis may take before it is dropped and retried. */
  REDIS_CONNECT_TIMEOUT_MS: wholeNumber(100, 60000).default(3000),
  /** How long one Redis command may wait (queued during a reconnect, or unanswered) before it fails with 503. */
  REDIS_COMMAND_TIMEOUT_MS: wholeNumber(100, 60000).default(2000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** JSON Web Key Set (private keys) to sign tokens with; generated and stored on first start when unset. */
  OIDC_JWKS: z.string().optional(),
  /** Comma-separated secrets to sign the provider's cookies with; generated and stored when unset. */
  COOKIE_KEYS: z.string().optional(),
  /** Secret for keyed hashes of one-time codes and encryption of stored secrets and keys; generated (development only) when unset. */
  APP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** A file holding APP_SECRET (a container or systemd secret), instead of the variable. */
  APP_SECRET_FILE: z.string().min(1).optional(),
  /** Which proxies' X-Forwarded-* headers to believe: false, a hop count or addresses (see trustedProxies). */
  TRUST_PROXY: z.string().optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').refine(...VALID_URL).optional(),
  /** The sender of every e-mail: an address, alone or after a display name in angle brackets. */
  MAIL_FROM: z
    .string()
    .regex(/^\s*(?:[^<>]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s,]+@[^<>@\s,]+)\s*$/, "must be an e-mail address, alone or as 'Name <address>'")
    .default('Passgate <no-reply@localhost>'),
  /** Where SMS go: outbox (development only), twilio or esms (eSMS.vn). */
  SMS_PROVIDER: z.enum(['outbox', 'twilio', 'esms']).optional(),
  TWILIO_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://api.twilio.com'),
  TWILIO_ACCOUNT_SID: z.string().min(1).optional(),
  TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
  /** A sending number (E.164) or a Messaging Service SID (MG…). */
  TWILIO_FROM: z.string().min(1).optional(),
  ESMS_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://rest.esms.vn'),
  ESMS_API_KEY: z.string().min(1).optional(),
  ESMS_SECRET_KEY: z.string().min(1).optional(),
  ESMS_BRANDNAME: z.string().min(1).optional(),
  /** reCAPTCHA token verification endpoint. */
  RECAPTCHA_VERIFY_URL: z.url({ protocol: /^https?$/ }).default('https://www.google.com/recaptcha/api/siteverify'),
  /** Google's API for checking sign-in access tokens (tokeninfo, userinfo); changed only for tests or a proxy. */
  GOOGLE_API_URL: z.url({ protocol: /^https?$/ }).default('https://www.googleapis.com'),
  /** Facebook's Graph API (debug_token, /me), with its version; changed only for tests or a proxy. */
  FACEBOOK_GRAPH_URL: z.url({ protocol: /^https?$/ }).default('https://graph.facebook.com/v19.0'),
  /**
   * Comma-separated hosts that outgoing fetches of third-party URLs (profile pictures, back-channel logout endpoints) may reach
   * although they resolve to internal addresses: for the local stand-ins of tests only.
   */
  OUTGOING_ALLOW_PRIVATE_HOSTS: z.string().optional(),
  /** Seed the demo tenant, clients and user on start (default: on in development only). */
  SEED_DEMO: boolish.optional(),
  ACCESS_TOKEN_TTL: wholeNumber(60, 86400).default(3600),
  ID_TOKEN_TTL: wholeNumber(60, 86400).default(3600),
  REFRESH_TOKEN_TTL: wholeNumber(300, 31536000).default(14 * 86400),
  SESSION_TTL: wholeNumber(300, 31536000).default(14 * 86400),
  LOGIN_RATE_LIMIT_PER_IP: wholeNumber(1).default(30),
  LOGIN_LOCKOUT_AFTER_FAILURES: wholeNumber(1, 100).default(5),
  /** argon2 jobs (password checks and hashes) running at once; default: the cores this process may use. */
  ARGON2_CONCURRENCY: wholeNumber(1, 256).optional(),
  /** argon2 jobs allowed to wait for a slot; one more is answered 503 at once. Default: 8 per slot. */
  ARGON2_MAX_QUEUE: wholeNumber(0, 100_000).optional(),
  CODE_SENDS_PER_IP_PER_HOUR: wholeNumber(1).default(30),
  CODE_CHECKS_PER_IP_PER_15_MIN: wholeNumber(1).default(100),
  /** A local MaxMind DB file (GeoLite2-City or GeoIP2-City .mmdb): the session list shows an approximate place for each address. Never an online service. */
  GEOIP_DB: z.string().min(1).optional(),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  host: string;
  /** The metrics listener's port (0: any free one), or undefined for no metrics listener. */
  metricsPort: number | undefined;
  metricsHost: string;
  publicUrl: string;
  issuer: string;
  databaseUrl: string;
  /** Timeouts of the database driver, in milliseconds (statementTimeoutMs 0: none). */
  database: { connectTimeoutMs: number; statementTimeoutMs: number; busyTimeoutMs: number };
  /** How long start-up waits for its dependencies before exiting non-zero. */
  startupTimeoutMs: number;
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  redisConnectTimeoutMs: number;
  redisCommandTimeoutMs: number;
  logLevel: Env['LOG_LEVEL'];
  oidcJwks: { keys: Record<string, unknown>[] } | undefined;
  cookieKeys: string[] | undefined;
  appSecret: string | undefined;
  /** Fastify's `trustProxy`: which proxies in front may tell the client address (TRUST_PROXY). */
  trustProxy: TrustedProxies;
  smtpUrl: string | undefined;
  mailFrom: string;
  smsProvider: 'outbox' | 'twilio' | 'esms';
  /** The chosen provider's settings (present for twilio and esms respectively). */
  sms: { twilio?: TwilioSettings; esms?: EsmsSettings };
  seedDemo: boolean;
  recaptchaVerifyUrl: string;
  /** Base URLs of the social sign-in providers' APIs, without a trailing slash. */
  social: { googleApiUrl: string; facebookGraphUrl: string };
  /** Fetches of URLs others give us: hosts (canonicalHost) let through to internal addresses, for test stand-ins. */
  outgoing: { allowPrivateHosts: string[] };
  devTools: boolean;
  ttl: { accessToken: number; idToken: number; refreshToken: number; session: number; interaction: number };
  rateLimit: { loginPerIp: number; lockoutAfterFailures: number; codeSendsPerIpPerHour: number; codeChecksPerIpPer15Min: number };
  argon2: Argon2Limits;
  webDistDir: string;
  /** GEOIP_DB: the local GeoIP database, if any (opened at start-up; a file that cannot be read stops it). */
  geoipDb: string | undefined;
}

export class ConfigError extends Error {}

function appSecretFrom(env: Env): string | undefined {
  if (!env.APP_SECRET_FILE) return env.APP_SECRET;
  if (env.APP_SECRET) throw new ConfigError('Invalid configuration:\n  APP_SECRET, APP_SECRET_FILE: set one of them, not both');
  let content: string;
  try {
    content = readFileSync(env.APP_SECRET_FILE, 'utf8').trim();
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError(`Invalid configuration:\n  APP_SECRET_FILE: cannot read ${env.APP_SECRET_FILE} (${reason})`);
  }
  if (content.length < 32) throw new ConfigError(`Invalid configuration:\n  APP_SECRET_FILE: ${env.APP_SECRET_FILE} must hold at least 32 characters`);
  return content;
}

/** What Fastify's `trustProxy` takes: none, trusted addresses (proxy-addr's), or a test of each hop. */
export type TrustedProxies = false | string[] | ((address: string, hop: number) => boolean);

export function loadConfig(source: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const isProduction = env.NODE_ENV === 'production';

  const oidcJwks = env.OIDC_JWKS ? signingKeySet(env.OIDC_JWKS) : undefined;
  if (env.GEOIP_DB) checkReadableFile('GEOIP_DB', env.GEOIP_DB);

  const appSecret = appSecretFrom(env);
  if (isProduction) {
    const missing = [
      !env.PUBLIC_URL && 'PUBLIC_URL',
      !env.SMTP_URL && 'SMTP_URL',
      (!env.SMS_PROVIDER || env.SMS_PROVIDER === 'outbox') && 'SMS_PROVIDER (twilio or esms)',
      // It seals the keys stored in the database, so it must never be kept in that database.
      !appSecret && 'APP_SECRET or APP_SECRET_FILE',
    ].filter(Boolean);
    if (missing.length > 0) {
      throw new ConfigError(`Invalid configuration:\n  production mode needs real settings for: ${missing.join(', ')}`);
    }
    // The demo user's password and the demo clients' secrets are published, and the demo user is an
    // operator of the admin console: seeded on a public deployment, they are anyone's way in.
    if (env.SEED_DEMO) {
      throw new ConfigError('Invalid configuration:\n  SEED_DEMO: the demo data (published passwords, an operator account) is for development only and refused in production mode');
    }
  }

  if (env.METRICS_PORT !== undefined && env.METRICS_PORT !== 0 && env.METRICS_PORT === env.PORT) {
    throw new ConfigError('Invalid configuration:\n  METRICS_PORT: must differ from PORT (metrics are never served on the public port)');
  }

  const sms = smsSettings(env);
  const allowPrivateHosts = outgoingAllowPrivateHosts(env, isProduction);

  if (env.PUBLIC_URL) checkPublicUrl(env.PUBLIC_URL);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  const cookieKeys = cookieKeysFrom(env.COOKIE_KEYS);
  return {
    env: env.NODE_ENV,
    isProduction,
    port: env.PORT,
    host: env.HOST,
    metricsPort: env.METRICS_PORT,
    metricsHost: env.METRICS_HOST,
    publicUrl,
    issuer: `${publicUrl}/oidc`,
    databaseUrl: env.DATABASE_URL,
    database: { connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS, statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS, busyTimeoutMs: env.DATABASE_BUSY_TIMEOUT_MS },
    startupTimeoutMs: env.STARTUP_TIMEOUT_MS,
    redisUrl: env.REDIS_URL,
    redisKeyPrefix: env.REDIS_KEY_PREFIX,
    redisConnectTimeoutMs: env.REDIS_CONNECT_TIMEOUT_MS,
    redisCommandTimeoutMs: env.REDIS_COMMAND_TIMEOUT_MS,
    logLevel: env.LOG_LEVEL,
    oidcJwks,
    cookieKeys,
    appSecret,
    trustProxy: trustedProxies(env.TRUST_PROXY),
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    smsProvider: env.SMS_PROVIDER ?? 'outbox',
    sms,
    seedDemo: env.SEED_DEMO ?? !isProduction,
    recaptchaVerifyUrl: env.RECAPTCHA_VERIFY_URL,
    social: { googleApiUrl: env.GOOGLE_API_URL.replace(/\/+$/, ''), facebookGraphUrl: env.FACEBOOK_GRAPH_URL.replace(/\/+$/, '') },
    outgoing: { allowPrivateHosts },
    devTools: !isProduction,
    ttl: {
      accessToken: env.ACCESS_TOKEN_TTL,
      idToken: env.ID_TOKEN_TTL,
      refreshToken: env.REFRESH_TOKEN_TTL,
      session: env.SESSION_TTL,
      interaction: 600,
    },
    rateLimit: { loginPerIp: env.LOGIN_RATE_LIMIT_PER_IP, lockoutAfterFailures: env.LOGIN_LOCKOUT_AFTER_FAILURES, codeSendsPerIpPerHour: env.CODE_SENDS_PER_IP_PER_HOUR, codeChecksPerIpPer15Min: env.CODE_CHECKS_PER_IP_PER_15_MIN },
    argon2: argon2Limits(env.ARGON2_CONCURRENCY, env.ARGON2_MAX_QUEUE),
    webDistDir: join(packageRoot(import.meta.url), '../web/dist'),
    geoipDb: env.GEOIP_DB,
    ...overrides,
  };
}

/**
 * PUBLIC_URL becomes the issuer and the base of every URL the provider hands out, so it must be a
 * plain origin (and path): the provider refuses an issuer with a query only once start-up is under
 * way, without naming the variable, and a user name or password in it would go into every discovery
 * document and log line.
 */
function checkPublicUrl(text: string): void {
  const url = new URL(text);
  let problem: string | undefined;
  // A bare '?' or '#' leaves search and hash empty, hence the look at the text too.
  if (url.username || url.password) problem = 'must not hold a user name or password';
  else if (text.includes('?')) problem = 'must not have a query (?…)';
  else if (text.includes('#')) problem = 'must not have a fragment (#…)';
  if (problem) throw new ConfigError(`Invalid configuration:\n  PUBLIC_URL: ${problem}; it is the address people reach Passgate at, e.g. https://id.example.com`);
}

const MIN_COOKIE_KEY_LENGTH = 32;

/**
 * COOKIE_KEYS as a list. Set, it replaces the stored keys, so a value with no key in it (empty, or
 * commas only) would leave the provider without any: it would start, look ready, and answer every
 * sign-in 500 ('keys required for signed cookies'). Refused instead, naming the variable.
 */
function cookieKeysFrom(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const keys = text.split(',').map((key) => key.trim()).filter(Boolean);
  if (keys.length === 0) throw new ConfigError('Invalid configuration:\n  COOKIE_KEYS: holds no key; give comma-separated secrets, or leave it unset to use the stored keys');
  // The keys sign the provider's session cookie: one short enough to guess forges any session.
  const short = keys.findIndex((key) => key.length < MIN_COOKIE_KEY_LENGTH);
  if (short >= 0) {
    throw new ConfigError(`Invalid configuration:\n  COOKIE_KEYS: key ${short + 1} is shorter than ${MIN_COOKIE_KEY_LENGTH} characters; use random secrets (openssl rand -base64 32)`);
  }
  return keys;
}

/**
 * OUTGOING_ALLOW_PRIVATE_HOSTS as canonical hosts. Refused in production: every URL fetched there
 * comes from a third party on the internet, so the only effect of an allowance would be a way in
 * for whoever can make such a URL name that host; a test setting copied into production stops
 * start-up instead of quietly opening it.
 */
function outgoingAllowPrivateHosts(env: Env, isProduction: boolean): string[] {
  const entries = (env.OUTGOING_ALLOW_PRIVATE_HOSTS ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
  if (entries.length === 0) return [];
  if (isProduction) throw new ConfigError('Invalid configuration:\n  OUTGOING_ALLOW_PRIVATE_HOSTS: is for tests only and refused in production mode');
  const hosts = entries.map((entry) => canonicalHost(entry));
  const bad = entries.filter((_, i) => hosts[i] === null);
  if (bad.length > 0) throw new ConfigError(`Invalid configuration:\n  OUTGOING_ALLOW_PRIVATE_HOSTS: not a host name or IP address: ${bad.join(', ')}`);
  return hosts as string[];
}

/**
 * OIDC_JWKS as oidc-provider takes it, checked here so that a bad key stops start-up naming the
 * variable instead of failing inside the provider. Every key must be a private signing key the
 * provider can use (RSA for RS256 with at least 2048 bits, EC P-256 for ES256, Ed25519 for EdDSA),
 * whose private part matches its public one; and one must be RSA, since relying parties get RS256
 * ID tokens unless they ask for another algorithm. Messages name the key by its place in the set,
 * never with any of its values.
 */
function signingKeySet(text: string): { keys: Record<string, unknown>[] } {
  const refuse = (problem: string): never => {
    throw new ConfigError(`Invalid configuration:\n  OIDC_JWKS: ${problem}`);
  };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // JSON.parse's own message quotes the text, which holds the private keys.
    refuse('is not valid JSON; it must be a JSON Web Key Set with private keys ({"keys":[…]})');
  }
  const keys = (value as { keys?: unknown } | null)?.keys;
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Array.isArray(keys) || keys.length === 0) {
    return refuse('must be a JSON Web Key Set with private keys ({"keys":[…]}, at least one key)');
  }
  const kids = new Set<string>();
  keys.forEach((key: unknown, i) => {
    const problem = signingKeyProblem(key);
    if (problem) refuse(`keys[${i}] ${problem}`);
    const kid = (key as { kid?: unknown }).kid;
    if (kid !== undefined) {
      if (typeof kid !== 'string' || kid === '') refuse(`keys[${i}] has a "kid" that is not a non-empty string`);
      if (kids.has(kid as string)) refuse(`keys[${i}] repeats the "kid" of an earlier key; each key needs its own`);
      kids.add(kid as string);
    }
  });
  if (!keys.some((key) => (key as { kty?: unknown }).kty === 'RSA')) {
    refuse('needs an RSA key (RS256): relying parties get RS256 ID tokens unless they ask for another algorithm');
  }
  return { keys: keys as Record<string, unknown>[] };
}

/** Why one JWK cannot sign for the provider, or undefined when it can. */
function signingKeyProblem(key: unknown): string | undefined {
  if (typeof key !== 'object' || key === null || Array.isArray(key)) return 'is not a JSON Web Key (an object)';
  const jwk = key as Record<string, unknown>;
  if (jwk.kty === 'oct') return 'is a symmetric ("oct") key; the provider signs with private RSA, EC P-256 or Ed25519 keys';
  if (jwk.use !== undefined && jwk.use !== 'sig') return 'has "use" other than "sig"; signing keys only';
  for (const list of ['key_ops', 'x5c']) {
    const entries = jwk[list];
    if (entries !== undefined && (!Array.isArray(entries) || entries.length === 0 || !entries.every((entry) => typeof entry === 'string' && entry !== ''))) {
      return `has a "${list}" that is not a list of strings`;
    }
  }
  const algorithms: Record<string, { publicParts: string[]; privateParts: string[]; algs: string[] }> = {
    RSA: { publicParts: ['n', 'e'], privateParts: ['d', 'p', 'q', 'dp', 'dq', 'qi'], algs: ['RS256'] },
    'EC P-256': { publicParts: ['crv', 'x', 'y'], privateParts: ['d'], algs: ['ES256'] },
    'OKP Ed25519': { publicParts: ['crv', 'x'], privateParts: ['d'], algs: ['EdDSA', 'Ed25519'] },
  };
  const kind = jwk.kty === 'RSA' ? 'RSA' : `${String(jwk.kty)} ${String(jwk.crv)}`;
  const expected = algorithms[kind];
  if (!expected) return 'is not an RSA, EC P-256 or Ed25519 key (the key types the provider signs with)';
  const missing = (parts: string[]) => parts.filter((part) => typeof jwk[part] !== 'string' || jwk[part] === '');
  const absent = missing([...expected.publicParts, ...expected.privateParts]);
  if (missing(expected.publicParts).length === 0 && absent.includes('d')) return 'is a public key; OIDC_JWKS needs the private key (with "d")';
  if (absent.length > 0) return `is an incomplete ${kind} private key (no ${absent.map((part) => `"${part}"`).join(', ')})`;
  if (jwk.alg !== undefined && !expected.algs.includes(jwk.alg as string)) return `is an ${kind} key with "alg" other than ${expected.algs.join(' or ')}`;
  let privateKey: KeyObject;
  let publicKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: jwk as JsonWebKey, format: 'jwk' });
    // From the public members alone, so that the check below compares the two halves.
    publicKey = createPublicKey({ key: Object.fromEntries(['kty', ...expected.publicParts].map((part) => [part, jwk[part]])) as JsonWebKey, format: 'jwk' });
  } catch {
    return `is not a valid ${kind} private key`;
  }
  if (kind === 'RSA' && (privateKey.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) return 'is an RSA key shorter than 2048 bits (RS256 needs 2048 or more)';
  // A "d" that does not belong to "x"/"n" would sign tokens nobody can verify.
  const digest = kind === 'OKP Ed25519' ? null : 'sha256';
  const probe = Buffer.from('passgate signing key check');
  try {
    if (!verify(digest, probe, publicKey, sign(digest, probe, privateKey))) return `is not a valid ${kind} private key (its private part does not match its public one)`;
  } catch {
    return `is not a valid ${kind} private key`;
  }
  return undefined;
}

/** A file the server opens later (GEOIP_DB): it must be there and readable now, or start-up stops naming the variable. */
function checkReadableFile(variable: string, path: string): void {
  let reason: string | undefined;
  try {
    if (statSync(path).isFile()) accessSync(path, fsConstants.R_OK);
    else reason = 'not a regular file';
  } catch (error) {
    reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  }
  if (reason) throw new ConfigError(`Invalid configuration:\n  ${variable}: cannot read ${path} (${reason})`);
}

/** The settings the chosen SMS provider needs; a missing one stops start-up naming the variable. */
function smsSettings(env: Env): Config['sms'] {
  const require = (names: (keyof Env)[]) => {
    const missing = names.filter((name) => !env[name]);
    if (missing.length > 0) {
      throw new ConfigError(`Invalid configuration:\n  SMS_PROVIDER=${env.SMS_PROVIDER} needs: ${missing.join(', ')}`);
    }
  };
  if (env.SMS_PROVIDER === 'twilio') {
    require(['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM']);
    return { twilio: { baseUrl: env.TWILIO_BASE_URL, accountSid: env.TWILIO_ACCOUNT_SID!, authToken: env.TWILIO_AUTH_TOKEN!, from: env.TWILIO_FROM! } };
  }
  if (env.SMS_PROVIDER === 'esms') {
    require(['ESMS_API_KEY', 'ESMS_SECRET_KEY', 'ESMS_BRANDNAME']);
    return { esms: { baseUrl: env.ESMS_BASE_URL, apiKey: env.ESMS_API_KEY!, secretKey: env.ESMS_SECRET_KEY!, brandname: env.ESMS_BRANDNAME! } };
  }
  return {};
}

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: unset, false or 0 believes no X-Forwarded-For (the client is whoever connects); a
 * hop count believes that many proxies in front, so the client is the address the outermost one
 * saw (true is 1, the usual single reverse proxy); otherwise a comma-separated list of the proxies'
 * addresses or CIDR ranges (or proxy-addr's loopback, linklocal, uniquelocal). Never 'trust
 * everything': then the client would be the left-most X-Forwarded-For, which the client writes.
 */
function trustedProxies(value: string | undefined): TrustedProxies {
  const text = value?.trim();
  if (text === undefined || text === 'false') return false;
  if (text === 'true') return trustHops(1);
  if (/^\d+$/.test(text)) return Number(text) === 0 ? false : trustHops(Number(text));
  const entries = text.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isAddressOrRange(entry));
  if (bad.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  TRUST_PROXY: must be false, a hop count or proxy addresses/CIDR ranges; not understood: ${bad.map((b) => `'${b}'`).join(', ')}`);
  }
  return entries;
}

/**
 * A hop count as Express reads it: the `hops` nearest proxies are believed, whatever their address.
 * Fastify's own number option now trusts nothing, since a count cannot check who connects; so with
 * a count, Passgate must be reachable only through its proxies.
 */
function trustHops(hops: number): TrustedProxies {
  return (_address, hop) => hop < hops;
}

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

function argon2Limits(concurrency: number | undefined, maxQueue: number | undefined): Argon2Limits {
  // This process's pool, whatever environment the configuration was read from.
  const pool = threadPoolSize();
  // More slots than pool threads would only queue hashes inside libuv, out of the load shedding's
  // sight, with the log writes and token signatures stuck behind them.
  if (concurrency !== undefined && concurrency >= pool) {
    throw new ConfigError(
      `Invalid configuration:\n  ARGON2_CONCURRENCY: must be below libuv's thread pool size (${pool}, UV_THREADPOOL_SIZE); raise UV_THREADPOOL_SIZE to at least ${concurrency + 1} for ${concurrency} parallel hashes`,
    );
  }
  const slots = concurrency ?? defaultArgon2Limits().concurrency;
  return { concurrency: slots, maxQueue: maxQueue ?? 8 * slots };
}
