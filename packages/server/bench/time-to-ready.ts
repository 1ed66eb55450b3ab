import { freshBackend } from './backend.ts';
import { startServer } from './server-process.ts';
import type { Settings } from './settings.ts';

export interface ReadyResult {
  /** Each cold start, in order, in ms; the worst is the one an operator can count on. */
  samples: number[];
  worstMs: number;
  /** Exit codes after SIGTERM: 0 is a clean stop. */
  exitCodes: (number | null)[];
}

/**
 * Cold starts of the production process on empty data (every migration, new keys, the development
 * seed with its argon2 hash): the slowest start an instance can have.
 */
export async function measureTimeToReady(settings: Settings): Promise<ReadyResult> {
  const samples: number[] = [];
  const exitCodes: (number | null)[] = [];
  for (let i = 0; i < settings.readyStarts; i += 1) {
    const backend = await freshBackend(settings, `ready${i}`);
    try {
      const server = await startServer(settings, backend);
      samples.push(server.readyMs);
      exitCodes.push(await server.stop());
    } finally {
      await backend.remove();
    }
  }
  return { samples, worstMs: Math.max(...samples), exitCodes };
}
