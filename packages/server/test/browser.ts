/**
 * A minimal browser for server tests: follows nothing by itself, keeps cookies like a browser
 * would (by name, honouring deletion), so a test can walk redirects one step at a time.
 */
export class TestBrowser {
  /**
   * The browser that started each sign-in (by challenge), as `startSignIn` records it: a sign-in's
   * later calls come from that browser, as they do in a real one (see `postJson` in visitor.ts).
   */
  static readonly byChallenge = new Map<string, TestBrowser>();

  private readonly cookies = new Map<string, string>();

  /** `userAgent`: the User-Agent header every request of this browser sends (Node's own when not given). */
  constructor(private readonly userAgent?: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  has(name: string): boolean {
    return this.cookies.has(name);
  }

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const expired = attributes.some((a) => /^max-age=0$/i.test(a) || (/^expires=/i.test(a) && Date.parse(a.slice(8)) < Date.now()));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async fetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set('cookie', this.cookieHeader());
    if (this.userAgent) headers.set('user-agent', this.userAgent);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.remember(response);
    return response;
  }

  /** GET `url` and follow redirects while they stay on `origin`; answers the first response that leaves it or is not a redirect. */
  async follow(url: string, origin: string, maxHops = 10): Promise<{ response: Response; url: string }> {
    let current = url;
    for (let hop = 0; hop < maxHops; hop += 1) {
      const response = await this.fetch(current);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return { response, url: current };
      const next = new URL(location, current).toString();
      if (!next.startsWith(origin) || new URL(next).pathname === '/login' || new URL(next).pathname === '/logout' || next.includes('/callback')) {
        return { response, url: next };
      }
      current = next;
    }
    throw new Error(`too many redirects from ${url}`);
  }

  async postJson(url: string, body: unknown): Promise<Response> {
    return this.fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  }
}
