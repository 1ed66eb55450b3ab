import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end scenarios in Debian's Chromium against a real Passgate started for the run, with the
 * built SPA, a fresh SQLite database and the demo seed.
 */
const port = Number(process.env.E2E_PORT ?? 3210);
export const baseURL = `http://localhost:${port}`;
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'passgate-e2e-'));
process.env.E2E_DATA_DIR = dataDir;
// The stand-in for Google's and Facebook's token checks (fake-social-provider.mjs); the scenarios
// register the tokens their fake SDKs hand out with it.
const socialPort = Number(process.env.E2E_SOCIAL_PORT ?? port + 1000);
export const socialProviderURL = `http://127.0.0.1:${socialPort}`;
process.env.E2E_SOCIAL_URL = socialProviderURL;

/**
 * Debian's chromium-headless-shell when it is there (scripts/ensure-chromium.sh installs it): the
 * same Chromium without the desktop browser around it, the build Playwright itself runs headless
 * with. On two cores the scenarios took 7.1 min in it, 8.7 min in the full browser.
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
const chromiumPath = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL,
    // A failed scenario keeps its trace (every action, the console, the network, the test's source)
    // without the screencast and without the DOM snapshot of each action: recording them for every
    // scenario, to keep only a failed one's, cost a third of the time on two cores (screencast:
    // account-area.spec.ts 100 s, 68 s without) and then a sixth of the CPU (snapshots: the
    // accessibility and 2-step scenarios 242 CPU-s, 204 without). The failure's own screenshot and the
    // page's accessibility tree at the failure (error-context.md) still show what the page was.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu'],
    },
  },
  projects: [
    { name: 'chromium', testIgnore: /social\.spec\.ts/, use: { ...devices['Desktop Chrome'], channel: undefined } },
    // The social scenarios give the seeded Demo App Google and Facebook app ids for their run: they
    // start when every other scenario is done, so none of those sees the buttons.
    { name: 'social', testMatch: /social\.spec\.ts/, dependencies: ['chromium'], use: { ...devices['Desktop Chrome'], channel: undefined } },
  ],
  webServer: [
    {
      command: 'node e2e/fake-social-provider.mjs',
      cwd: '..',
      url: `${socialProviderURL}/healthz`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { FAKE_SOCIAL_PORT: String(socialPort) },
    },
    {
      // The production build and process, as operators run it; bundling takes under a second.
      command: 'node scripts/build-server.mjs && node packages/server/dist/main.js',
      cwd: '..',
      url: `${baseURL}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        NODE_ENV: 'development',
        PORT: String(port),
        PUBLIC_URL: baseURL,
        DATABASE_URL: `sqlite:${join(dataDir, 'e2e.sqlite')}`,
        LOG_LEVEL: 'warn',
        SEED_DEMO: 'true',
        // Every scenario signs in and sends codes from this one address; the budgets are for people.
        LOGIN_RATE_LIMIT_PER_IP: '5000',
        CODE_SENDS_PER_IP_PER_HOUR: '5000',
        CODE_CHECKS_PER_IP_PER_15_MIN: '5000',
        GOOGLE_API_URL: `${socialProviderURL}/google`,
        FACEBOOK_GRAPH_URL: `${socialProviderURL}/facebook/v19.0`,
        // The fake serves the Google picture from 127.0.0.1, an internal address the download refuses otherwise.
        OUTGOING_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      },
    },
  ],
});
