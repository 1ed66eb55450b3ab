import { describe, expect, it } from 'vitest';
import type { PublicClient } from '@passgate/contract';
import { injectShell, signInShell } from './sign-in-shell.ts';

const client = (theme: PublicClient['theme'], logoUri?: string) => ({ clientName: 'Shop', logoUri, theme }) as unknown as PublicClient;

describe('signInShell', () => {
  it("paints the theme's colour, background and icon", () => {
    const html = signInShell('/login', client({ backgroundColor: '#102030', backgroundImageUri: 'https://cdn.example/bg.png', iconUri: 'https://cdn.example/i.png' }, 'https://cdn.example/logo.png'));
    expect(html).toContain('background-color:#102030;background-image:url(&quot;https://cdn.example/bg.png&quot;)');
    expect(html).toContain('<img class="pg-shell-icon" src="https://cdn.example/i.png" alt="">');
    // Without a picture of its own, the default one under a veil of the colour, as the screen draws it.
    expect(signInShell('/login', client({ backgroundColor: '#FFF3E0' }))).toContain(
      'background-color:#FFF3E0;background-image:linear-gradient(rgba(255, 243, 224, 0.8), rgba(255, 243, 224, 0.8)),url(&quot;/themes/default-bg.svg&quot;)',
    );
    expect(html).toContain('<img src="https://cdn.example/logo.png" alt=""');
  });

  it('lets no theme value out of its attribute or its CSS string, and draws no script address', () => {
    const html = signInShell(
      '/login',
      client({ backgroundColor: 'red;position:static', backgroundImageUri: 'https://x/"); background:url(javascript:1)<script>', iconUri: 'javascript:alert(1)' }, 'https://x/"><script>alert(1)</script>'),
    );
    expect(html).not.toContain('<script');
    expect(html).not.toContain('javascript:alert');
    expect(html).not.toContain('position:static');
    expect(html).toContain('background-color:#EEF2F8');
    expect(html).toContain('url(&quot;https://x/%22);%20background:url(javascript:1)%3Cscript%3E&quot;)');
    expect(html).toContain('src="https://x/&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });

  it('leaves out an address that is not well-formed Unicode (stored before the API refused such text), instead of throwing', () => {
    const html = signInShell('/register', client({ backgroundColor: '#102030', backgroundImageUri: 'https://acme.test/a\ud800.png', iconUri: '/i\udc00.png' }, 'https://acme.test/l\ud800.png'));
    expect(html).toContain('background-color:#102030;background-image:linear-gradient(rgba(16, 32, 48, 0.8), rgba(16, 32, 48, 0.8)),url(&quot;/themes/default-bg.svg&quot;)');
    expect(html).not.toContain('acme.test');
    expect(html).not.toContain('<img');
  });

  it('paints the pictures the page carries (data: addresses) in place of their addresses', () => {
    const data = (href: string) => (href.startsWith('/themes/') ? `data:image/svg+xml;base64,${Buffer.from(href).toString('base64')}` : undefined);
    const html = signInShell('/login', client({ iconUri: '/themes/icon.svg' }, '/themes/logo.svg'), data);
    expect(html).toContain(`<img class="pg-shell-icon" src="${data('/themes/icon.svg')}" alt="">`);
    expect(html).toContain(`<img src="${data('/themes/logo.svg')}" alt="" fetchpriority="high"`);
    expect(html).toContain(`url(&quot;${data('/themes/default-bg.svg')}&quot;)`);
    // What the inliner does not carry keeps its address.
    expect(signInShell('/login', client({}, 'https://cdn.example/logo.png'), data)).toContain('<img src="https://cdn.example/logo.png"');
  });

  it('has nothing for other screens, and goes before the root element', () => {
    expect(signInShell('/password/recover', client({}))).toBe('');
    expect(injectShell('<body><div id="root"></div>', '<div id="s"></div>')).toBe('<body><div id="s"></div><div id="root"></div>');
    expect(injectShell('<body></body>', '<div id="s"></div>')).toBe('<body></body>');
  });
});
