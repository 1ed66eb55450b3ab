import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

/** The ceiling an operator can count on: a restarted instance serves again within it. */
export const READY_CEILING_MS = 2000;

const root = resolve(import.meta.dirname, '../../..');

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

/**
 * From spawning the production process (`node packages/server/dist/main.js`, as built by
 * `npm run build:server`) to discovery answering 200, on a fresh SQLite file: the worst start,
 * with every migration and the development seed (an argon2 hash) on the way.
 */
async function once(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'passgate-bench-ready-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [join(root, 'packages/server/dist/main.js')], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), PORT: String(port), PUBLIC_URL: url, DATABASE_URL: `sqlite:${join(dir, 'ready.sqlite')}`, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before it was ready`);
      const ok = await fetch(`${url}/oidc/.well-known/openid-configuration`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return performance.now() - started;
      if (performance.now() - started > 30_000) throw new Error('not ready after 30 s');
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    child.kill('SIGTERM');
    const code = await exited;
    if (code !== 0) console.error(`the server exited with ${code} after SIGTERM`);
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchTimeToReady(runs = 3): Promise<void> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) samples.push(await once());
  const worst = Math.max(...samples);
  console.log(
    `time to ready: ${worst.toFixed(0)} ms (worst of ${runs}: ${samples.map((s) => s.toFixed(0)).join(', ')} ms; ceiling ${READY_CEILING_MS} ms) ${worst <= READY_CEILING_MS ? 'ok' : 'OVER'}`,
  );
}
