import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A web build of its own for a test server's pages (`config.webDistDir`): the unit suites run
 * before, and without, `npm run build:web`. Only the page; a test adds the files it serves.
 */
export function fakeWebDist(): string {
  const dist = mkdtempSync(join(tmpdir(), 'passgate-dist-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Passgate</title><div id="root"></div>');
  return dist;
}
