import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');
const dir = mkdtempSync(join(tmpdir(), 'passgate-bad-settings-'));

/** Runs the real entry point from source and collects what it says until it exits. */
function runMain(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [tsx, join(root, 'packages/server/src/main.ts')], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), NODE_ENV: 'test', PORT: '0', SEED_DEMO: 'false', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', fail);
    child.on('exit', (code) => {
      clearTimeout(killer);
      done({ code, stdout, stderr });
    });
  });
}

/** What the process said on stderr itself (oidc-provider warns there about Node versions it does not support). */
const ownLines = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('oidc-provider WARNING'))
    .join('\n');

/** Exit 1 with the message on stderr: the variable named, no stack frames, nothing served. */
function expectRefusal(result: { code: number | null; stdout: string; stderr: string }, pattern: RegExp) {
  expect(result.code, result.stderr).toBe(1);
  expect(ownLines(result.stderr)).toMatch(pattern);
  expect(result.stderr).not.toContain('    at ');
  expect(result.stdout).not.toContain('Passgate is running');
}

describe('start-up with a bad setting: exit 1 and a message naming the variable, without a stack', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // Every variant of each setting is in config.test.ts; these runs prove the way out of the process.
  it('OIDC_JWKS with a key that cannot sign, GEOIP_DB missing or not a MaxMind database, an APP_SECRET that does not open the stored keys', async () => {
    const symmetric = 'c3ltbWV0cmljLXNpZ25pbmcta2V5LW5vdC1hbGxvd2Vk';
    const junk = join(dir, 'junk.mmdb');
    writeFileSync(junk, 'not a MaxMind database');
    const unused = `sqlite:${join(dir, 'never-opened.sqlite')}`;
    const database = `sqlite:${join(dir, 'passgate.sqlite')}`;
    const firstSecret = 'the-first-app-secret-of-at-least-32-characters';
    const otherSecret = 'another-app-secret-of-at-least-32-characters';
    const [jwks, missing, notMaxMind] = await Promise.all([
      runMain({ OIDC_JWKS: JSON.stringify({ keys: [{ kty: 'oct', k: symmetric, alg: 'HS256' }] }), DATABASE_URL: unused }),
      runMain({ GEOIP_DB: join(dir, 'missing.mmdb'), DATABASE_URL: unused }),
      // Opened after the database: this run stores signing keys sealed with the first secret.
      runMain({ GEOIP_DB: junk, DATABASE_URL: database, APP_SECRET: firstSecret }),
    ]);
    expectRefusal(jwks, /^Invalid configuration:\n {2}OIDC_JWKS: keys\[0\] is a symmetric \("oct"\) key[^\n]*$/);
    expect(jwks.stderr).not.toContain(symmetric);
    expectRefusal(missing, /^Invalid configuration:\n {2}GEOIP_DB: cannot read .*missing\.mmdb \(ENOENT\)$/);
    expectRefusal(notMaxMind, /^Passgate could not start: GEOIP_DB: cannot open .*junk\.mmdb as a MaxMind database \([^\n]*\)$/);

    const wrongSecret = await runMain({ DATABASE_URL: database, APP_SECRET: otherSecret });
    expectRefusal(wrongSecret, /^Passgate could not start: The stored '\w+' in server_secrets cannot be decrypted with this APP_SECRET\.[^\n]*$/);
    for (const secret of [firstSecret, otherSecret]) expect(wrongSecret.stderr + wrongSecret.stdout).not.toContain(secret);
  }, 120_000);

  // nodemailer parses SMTP_URL with url.parse, whose deprecation warning once printed such a URL,
  // password and all, on the first e-mail of a server that had started as if nothing were wrong.
  it('an SMTP_URL that is not a valid URL (a password with an unencoded /), without printing it', async () => {
    const result = await runMain({ SMTP_URL: 'smtp://mailer:hunter2/x@127.0.0.1:2525', DATABASE_URL: `sqlite:${join(dir, 'never-opened.sqlite')}` });
    expectRefusal(result, /^Invalid configuration:\n {2}SMTP_URL: is not a valid URL: percent-encode [^\n]*$/);
    expect(result.stderr + result.stdout).not.toContain('hunter2');
  }, 60_000);

  it('a PORT or METRICS_PORT another process listens on: the message names the setting', async () => {
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const { port } = taken.address() as AddressInfo;
    try {
      const [publicPort, metricsPort] = await Promise.all([
        runMain({ PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: `sqlite:${join(dir, 'port-taken.sqlite')}` }),
        runMain({ METRICS_PORT: String(port), METRICS_HOST: '127.0.0.1', DATABASE_URL: `sqlite:${join(dir, 'metrics-port-taken.sqlite')}` }),
      ]);
      expectRefusal(publicPort, new RegExp(`^Passgate could not start: cannot listen on 127\\.0\\.0\\.1:${port} \\(PORT, HOST\\): another process is already listening there$`));
      expectRefusal(metricsPort, new RegExp(`^Passgate could not start: cannot listen on 127\\.0\\.0\\.1:${port} \\(METRICS_PORT, METRICS_HOST\\): another process is already listening there$`));
    } finally {
      await new Promise((done) => taken.close(done));
    }
  }, 60_000);
});
