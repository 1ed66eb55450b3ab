import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-server.ts';
import { renderProviderError } from './provider-error-page.ts';

/** The page's text as a reader sees it: no tags, entities decoded, spaces collapsed. */
function visibleText(html: string): string {
  return html
    .replace(/<style>[\s\S]*?<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/** The page a browser gets when the provider refuses a request it cannot send back to the application. */
describe('the provider error page', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  const AUTH = 'response_type=code&scope=openid&code_challenge=abcdefghijklmnopqrstuvwxyzabcdefghijklmnopq&code_challenge_method=S256';

  async function open(path: string, cookie?: string, acceptLanguage?: string) {
    const headers = { accept: 'text/html', ...(cookie ? { cookie } : {}), ...(acceptLanguage ? { 'accept-language': acceptLanguage } : {}) };
    const response = await fetch(`${server.url}${path}`, { redirect: 'manual', headers });
    const html = await response.text();
    const text = visibleText(html);
    return {
      response,
      html,
      text,
      lang: /<html lang="([^"]+)"/.exec(html)?.[1],
      heading: /<h1>([^<]*)<\/h1>/.exec(html)?.[1],
    };
  }

  it('tells of an unknown application in the language the request asks for', async () => {
    const vi = await open(`/oidc/auth?client_id=nope&redirect_uri=http://evil&${AUTH}&ui_locales=vi`);
    expect(vi.response.status).toBe(400);
    expect(vi.response.headers.get('location')).toBeNull();
    expect(vi.lang).toBe('vi');
    expect(vi.heading).toBe('Yêu cầu đăng nhập bị từ chối');
    expect(vi.text).toContain('Ứng dụng đã đưa bạn đến đây chưa được đăng ký với Passgate.');
    expect(vi.text).toContain('Chi tiết kỹ thuật dành cho nhà phát triển ứng dụng: invalid_client');

    const en = await open(`/oidc/auth?client_id=nope&redirect_uri=http://evil&${AUTH}&locale=en`);
    expect(en.lang).toBe('en');
    expect(en.heading).toBe('Sign-in request refused');
    expect(en.text).toContain('The application that sent you here is not registered with Passgate.');
    expect(en.text).toContain("Technical details for the application's developers: invalid_client");
  });

  it('refuses a redirect address the application has not registered, without going there', async () => {
    const vi = await open(`/oidc/auth?client_id=demo-app&redirect_uri=http://evil.com/cb&${AUTH}`);
    expect(vi.response.status).toBe(400);
    expect(vi.response.headers.get('location')).toBeNull();
    expect(vi.lang).toBe('vi');
    expect(vi.heading).toBe('Yêu cầu đăng nhập bị từ chối');
    expect(vi.text).toContain('Địa chỉ mà ứng dụng muốn đưa bạn về sau khi đăng nhập chưa được đăng ký cho ứng dụng này');
    expect(vi.text).toContain('invalid_redirect_uri');
    expect(vi.html).not.toContain('href="http://evil.com');

    const en = await open(`/oidc/auth?client_id=demo-app&redirect_uri=http://evil.com/cb&${AUTH}&ui_locales=en-US`);
    expect(en.heading).toBe('Sign-in request refused');
    expect(en.text).toContain('The address the application wants to send you back to after signing in is not registered for this application');
  });

  it('titles a refused logout as a sign-out and names the post-logout address', async () => {
    const vi = await open('/oidc/session/end?post_logout_redirect_uri=http://evil.com&client_id=demo-app');
    expect(vi.response.status).toBe(400);
    expect(vi.response.headers.get('location')).toBeNull();
    expect(vi.lang).toBe('vi');
    expect(vi.heading).toBe('Yêu cầu đăng xuất bị từ chối');
    expect(vi.text).toContain('Địa chỉ mà ứng dụng muốn đưa bạn về sau khi đăng xuất chưa được đăng ký cho ứng dụng này');
    expect(vi.text).toContain('invalid_request: post_logout_redirect_uri not registered');

    const en = await open('/oidc/session/end?post_logout_redirect_uri=http://evil.com&client_id=demo-app&ui_locales=en');
    expect(en.lang).toBe('en');
    expect(en.heading).toBe('Sign-out request refused');
    expect(en.text).toContain('The address the application wants to send you back to after logging out is not registered for this application');

    const unknown = await open('/oidc/session/end?client_id=nope&ui_locales=en');
    expect(unknown.heading).toBe('Sign-out request refused');
    expect(unknown.text).toContain('The application that sent you here is not registered with Passgate.');
  });

  it('says a request is missing or has invalid parameters', async () => {
    const vi = await open(`/oidc/auth?redirect_uri=http://evil.com/cb&${AUTH}&ui_locales=vi`);
    expect(vi.response.status).toBe(400);
    expect(vi.heading).toBe('Yêu cầu đăng nhập bị từ chối');
    expect(vi.text).toContain('Yêu cầu của ứng dụng thiếu thông tin hoặc có thông tin không hợp lệ.');
    expect(vi.text).toContain('invalid_request');

    const en = await open(`/oidc/auth?redirect_uri=http://evil.com/cb&${AUTH}&ui_locales=en`);
    expect(en.text).toContain("The application's request is missing information or has information that is not valid.");
  });

  it('says in general words that any other request could not be handled', () => {
    for (const [locale, expected] of [['vi', 'Passgate không thể xử lý yêu cầu này.'], ['en', 'Passgate could not handle this request.']] as const) {
      const ctx = { path: '/device', query: { ui_locales: locale }, get: () => '', type: '', body: '' };
      renderProviderError(ctx as never, { error: 'server_error', error_description: 'oops' });
      expect(visibleText(ctx.body)).toContain(expected);
      expect(/<h1>([^<]*)<\/h1>/.exec(ctx.body)?.[1]).toBe(locale === 'vi' ? 'Yêu cầu đăng nhập bị từ chối' : 'Sign-in request refused');
    }
  });

  it('speaks the language chosen with the switcher when the request names none', async () => {
    const page = await open(`/oidc/auth?client_id=nope&redirect_uri=http://evil&${AUTH}`, 'passgate_locale=en');
    expect(page.lang).toBe('en');
    expect(page.heading).toBe('Sign-in request refused');
    // The request's own language wins over the cookie.
    expect((await open(`/oidc/auth?client_id=nope&redirect_uri=http://evil&${AUTH}&ui_locales=vi`, 'passgate_locale=en')).lang).toBe('vi');
  });

  it("speaks the browser's language when neither the request nor the switcher names one, else Vietnamese", async () => {
    const refused = `/oidc/auth?client_id=nope&redirect_uri=http://evil&${AUTH}`;
    expect(await open(refused, undefined, 'en-US,en;q=0.9')).toMatchObject({ lang: 'en', heading: 'Sign-in request refused' });
    expect((await open(refused, undefined, 'fr-FR,fr;q=0.9')).lang).toBe('vi');
    expect((await open(refused, 'passgate_locale=vi', 'en-US')).lang).toBe('vi');
    expect((await open(`${refused}&ui_locales=vi`, undefined, 'en-US')).lang).toBe('vi');
  });

  it('keeps the raw error out of the heading and escapes it', async () => {
    const page = await open(`/oidc/auth?client_id=%3Cb%3Enope&redirect_uri=http://evil&${AUTH}&ui_locales=en`);
    expect(page.heading).not.toMatch(/invalid_|_/);
    expect(page.html).not.toContain('<b>');
  });

  it('is self-contained and allowed by the content security policy', async () => {
    const page = await open(`/oidc/auth?client_id=nope&redirect_uri=http://evil&${AUTH}`);
    const csp = page.response.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/style-src [^;]*'unsafe-inline'/);
    expect(csp).toContain("default-src 'self'");
    expect(page.html).not.toMatch(/<(script|link|img)\b/);
    expect(page.html).not.toMatch(/(src|href)="/);
  });
});
