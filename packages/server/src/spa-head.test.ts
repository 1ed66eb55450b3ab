import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RuntimeConfig } from '@passgate/contract';
import { injectHead, jsonForScript, SpaHead } from './spa-head.ts';

const config: RuntimeConfig = {
  apiUrl: 'https://id.example/api', authority: 'https://id.example/oidc', clientId: 'account',
  redirectUri: 'https://id.example/user/callback', postLogoutRedirectUri: 'https://id.example/user/dashboard',
  scope: 'openid', googleAppId: '</script><script>alert(1)</script>', facebookAppId: null,
  policyUrl: 'https://id.example/privacy', trackingAppId: null,
};

function distWithManifest(): string {
  const dist = mkdtempSync(join(tmpdir(), 'passgate-head-'));
  mkdirSync(join(dist, '.vite'));
  writeFileSync(join(dist, '.vite', 'manifest.json'), JSON.stringify({
    'index.html': { file: 'assets/index-A.js', isEntry: true },
    'src/i18n/vi.json': { file: 'assets/vi-B.js' },
    'src/i18n/en.json': { file: 'assets/en-C.js' },
    'src/i18n/account/vi.json': { file: 'assets/account-vi-D.js' },
    'src/routes/register/Register.tsx': { file: 'assets/Register-E.js', imports: ['index.html', '_shared-F.js'] },
    '_shared-F.js': { file: 'assets/shared-F.js', imports: ['index.html'] },
    'src/routes/account/AccountArea.tsx': { file: 'assets/AccountArea-G.js', imports: ['index.html', '_shared-F.js'] },
  }));
  return dist;
}

const preloads = (head: string) => [...head.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((match) => match[1]);

describe('the head of an SPA page', () => {
  it('carries the runtime configuration as JSON no value can break out of', async () => {
    const head = (await SpaHead.load(distWithManifest())).render('/login', 'vi', config);
    expect(head).not.toContain('</script><script>');
    const json = /<script type="application\/json" id="passgate-config">(.*?)<\/script>/.exec(head)?.[1];
    expect(JSON.parse(json!)).toEqual(config);
    expect(jsonForScript({ a: '<!--' })).toBe('{"a":"\\u003c!--"}');
  });

  it('preloads the language the page starts in and the chunks of its screen, never the entry again', async () => {
    const spaHead = await SpaHead.load(distWithManifest());
    expect(preloads(spaHead.render('/login', 'vi', config))).toEqual(['/assets/vi-B.js']);
    expect(preloads(spaHead.render('/login', 'en', config))).toEqual(['/assets/en-C.js']);
    // A client that speaks English: the screen starts in the default and switches once it knows the client.
    expect(preloads(spaHead.render('/login', 'vi', config, { clientLocale: 'en' }))).toEqual(['/assets/vi-B.js', '/assets/en-C.js']);
    expect(preloads(spaHead.render('/login', 'vi', config, { clientLocale: 'vi' }))).toEqual(['/assets/vi-B.js']);
    expect(preloads(spaHead.render('/register', 'vi', config))).toEqual(['/assets/vi-B.js', '/assets/Register-E.js', '/assets/shared-F.js']);
    expect(preloads(spaHead.render('/user/dashboard', 'vi', config))).toEqual(['/assets/vi-B.js', '/assets/account-vi-D.js', '/assets/AccountArea-G.js', '/assets/shared-F.js']);
  });

  it("preloads the client's logo when it is a path of this site or an http(s) address, escaped", async () => {
    const spaHead = await SpaHead.load(distWithManifest());
    const images = (logo: string) => [...spaHead.render('/login', 'vi', config, { images: [logo] }).matchAll(/<link rel="preload" as="image" href="([^"]*)" fetchpriority="high">/g)].map((m) => m[1]);
    expect(images('/themes/logo.svg')).toEqual(['/themes/logo.svg']);
    expect(images('https://cdn.example/a.png?x=1&y="2"<')).toEqual(['https://cdn.example/a.png?x=1&amp;y=&quot;2&quot;&lt;']);
    expect(images('javascript:alert(1)')).toEqual([]);
    expect(images('//evil.example/x.png')).toEqual([]);
    // Asked for before the chunks: on a slow network the logo (the largest paint) is not queued behind them.
    const head = spaHead.render('/register', 'vi', config, { images: ['/themes/logo.svg'] });
    expect(head.indexOf('as="image"')).toBeLessThan(head.indexOf('rel="modulepreload"'));
  });

  it('gives only the configuration without a build manifest', async () => {
    const head = (await SpaHead.load(mkdtempSync(join(tmpdir(), 'passgate-head-')))).render('/login', 'vi', config);
    expect(preloads(head)).toEqual([]);
    expect(injectHead('<html><head><title>x</title></head></html>', head)).toMatch(/<title>x<\/title><script type="application\/json".*<\/head><\/html>$/);
  });
});
