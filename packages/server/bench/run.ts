import { performance } from 'node:perf_hooks';
import { startTestServer } from '../test/test-server.ts';
import { TestBrowser } from '../test/browser.ts';
import { authorizationRequest, finishSignIn, relyingParty, startSignIn } from '../test/relying-party.ts';
import { benchDeviceSignIn } from './device-sign-in.ts';
import { benchTimeToReady } from './time-to-ready.ts';

/**
 * Benchmarks of the sign-in path on this machine: a whole OIDC sign-in (authorization request,
 * login API with argon2id, code exchange), the login API alone, a sign-in with a device, the
 * memory it takes, and how soon the production process answers after it starts.
 * Loopback only, bounded in count. Run with `npm run bench`.
 */

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);

function summary(name: string, samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  console.log(`${name.padEnd(38)} n=${String(sorted.length).padStart(4)}  mean ${mean.toFixed(1)} ms  p50 ${at(0.5)} ms  p95 ${at(0.95)} ms  max ${at(1)} ms`);
}

async function main() {
  // First, while nothing else runs in this process.
  await benchTimeToReady();

  // The sign-in budgets protect real accounts; the benchmark signs one account in many times.
  const server = await startTestServer({ env: { LOGIN_RATE_LIMIT_PER_IP: '1000000', LOGIN_LOCKOUT_AFTER_FAILURES: '100', CODE_SENDS_PER_IP_PER_HOUR: '1000' } });
  try {
    const rp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    const rssBefore = process.memoryUsage().rss;

    const whole: number[] = [];
    const loginOnly: number[] = [];
    for (let i = 0; i < ROUNDS; i += 1) {
      const browser = new TestBrowser();
      const started = performance.now();
      const auth = await authorizationRequest(rp);
      const challenge = await startSignIn(browser, server.url, auth);
      const t0 = performance.now();
      const response = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username: 'demo@example.com', password: 'Passw0rd!' });
      if (!response.ok) throw new Error(`sign-in answered ${response.status}: ${await response.text()}`);
      const { redirectTo } = (await response.json()) as { redirectTo: string };
      loginOnly.push(performance.now() - t0);
      await finishSignIn(browser, server.url, rp, auth, redirectTo);
      whole.push(performance.now() - started);
    }
    summary('whole sign-in (sequential)', whole);
    summary('POST /api/v1/users/login (sequential)', loginOnly);

    const concurrent: number[] = [];
    const wallStart = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < ROUNDS) {
          next += 1;
          const browser = new TestBrowser();
          const started = performance.now();
          const auth = await authorizationRequest(rp);
          const challenge = await startSignIn(browser, server.url, auth);
          const response = await browser.postJson(`${server.url}/api/v1/users/login`, { challenge, username: 'demo@example.com', password: 'Passw0rd!' });
          if (!response.ok) throw new Error(`sign-in answered ${response.status}: ${await response.text()}`);
          const { redirectTo } = (await response.json()) as { redirectTo: string };
          await finishSignIn(browser, server.url, rp, auth, redirectTo);
          concurrent.push(performance.now() - started);
        }
      }),
    );
    const wall = (performance.now() - wallStart) / 1000;
    summary(`whole sign-in (${CONCURRENCY} concurrent)`, concurrent);
    console.log(`throughput: ${(concurrent.length / wall).toFixed(1)} sign-ins/s with ${CONCURRENCY} concurrent browsers`);
    const rssAfter = process.memoryUsage().rss;
    console.log(`memory (server and load in one process): rss ${(rssAfter / 2 ** 20).toFixed(0)} MiB, grew ${((rssAfter - rssBefore) / 2 ** 20).toFixed(0)} MiB over ${ROUNDS * 2} sign-ins`);

    await benchDeviceSignIn(server, ROUNDS, summary);
  } finally {
    await server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
