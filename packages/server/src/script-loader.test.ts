import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPT_LOADER, SCRIPT_LOADER_SOURCE, withoutEntryScript } from './script-loader.ts';
import { fakeWebDist } from '../test/web-dist.ts';
import { startTestServer, type TestServer } from '../test/test-server.ts';

/** index.html as Vite writes it: the entry's module script in the head. */
const INDEX_HTML =
  '<!doctype html><html lang="vi"><head><title>Passgate</title>\n    <script type="module" crossorigin src="/assets/index-A1.js"></script>\n  </head><body><div id="root"></div></body></html>';

const inlineScripts = (html: string) => [...html.matchAll(/<script(?![^>]*type="application\/json")([^>]*)>([^<]*)<\/script>/g)].map((m) => ({ attributes: m[1]!, code: m[2]! }));
const scriptSources = (csp: string) => csp.split(';').find((directive) => directive.trim().startsWith('script-src'))?.trim().split(/\s+/).slice(1) ?? [];

describe('the loader of a page that paints a shell first', () => {
  let server: TestServer;
  beforeAll(async () => {
    const dist = fakeWebDist();
    writeFileSync(join(dist, 'index.html'), INDEX_HTML);
    mkdirSync(join(dist, '.vite'));
    writeFileSync(
      join(dist, '.vite', 'manifest.json'),
      JSON.stringify({
        'index.html': { file: 'assets/index-A1.js', isEntry: true },
        'src/i18n/vi.json': { file: 'assets/vi-B2.js' },
        'src/i18n/account/vi.json': { file: 'assets/account-vi-C3.js' },
        'src/routes/account/AccountArea.tsx': { file: 'assets/AccountArea-D4.js', imports: ['index.html'] },
      }),
    );
    server = await startTestServer({ config: { webDistDir: dist } });
  });
  afterAll(() => server?.close());

  it('replaces the entry script and the preloads of an account page with the loader, the one inline script the policy allows', async () => {
    const response = await fetch(`${server.url}/user/dashboard`);
    const html = await response.text();
    expect(html).toContain('id="passgate-shell"');
    // Nothing is fetched by the page itself before the shell has painted.
    expect(html).not.toContain('<script type="module"');
    expect(html).not.toContain('rel="modulepreload"');
    const scripts = inlineScripts(html);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]!.attributes).toBe(' data-entry="/assets/index-A1.js" data-preload="/assets/vi-B2.js /assets/account-vi-C3.js /assets/AccountArea-D4.js"');
    expect(scripts[0]!.code).toBe(SCRIPT_LOADER);
    // The policy names the hash of exactly what the page runs, and no 'unsafe-inline'.
    const sources = scriptSources(response.headers.get('content-security-policy') ?? '');
    expect(sources).toContain(`'sha256-${createHash('sha256').update(scripts[0]!.code).digest('base64')}'`);
    expect(sources).toEqual(["'self'", SCRIPT_LOADER_SOURCE]);
  });

  it('leaves a page without a shell as the build wrote it: the entry script and the preloads load at once', async () => {
    const html = await (await fetch(`${server.url}/privacy`)).text();
    expect(html).not.toContain('id="passgate-shell"');
    expect(html).toContain('<script type="module" crossorigin src="/assets/index-A1.js"></script>');
    expect(html).toContain('<link rel="modulepreload" href="/assets/vi-B2.js">');
    expect(inlineScripts(html)).toEqual([{ attributes: ' type="module" crossorigin src="/assets/index-A1.js"', code: '' }]);
  });

  it('takes out only the entry script of the page', () => {
    expect(withoutEntryScript(INDEX_HTML)).toBe('<!doctype html><html lang="vi"><head><title>Passgate</title>\n    </head><body><div id="root"></div></body></html>');
    expect(withoutEntryScript('<head><script type="application/json" id="x">{}</script></head>')).toBe('<head><script type="application/json" id="x">{}</script></head>');
  });
});
