import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { TestBrowser } from '../../../test/browser.ts';
import { authorizationRequest, finishSignIn, relyingParty, signIn, startSignIn } from '../../../test/relying-party.ts';
import { createAccount } from '../../../test/account.ts';
import { lastCode, postJson } from '../../../test/visitor.ts';
import { BROWSER_KEY_COOKIE, newBrowserNotices } from './new-browser-notice.ts';
import { createKnownBrowserQueries, KNOWN_BROWSERS_PER_USER } from './known-browsers.queries.ts';

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** A test browser that says which browser it is (User-Agent) and which language it reads, as a real one does. */
class Browser extends TestBrowser {
  readonly setCookies: string[] = [];
  constructor(
    private readonly agent: string,
    private readonly language = 'vi',
  ) {
    super();
  }
  /** A cookie sent beside the ones the browser was given (a key it made up). */
  extraCookie: string | undefined;
  override cookieHeader(): string {
    return [super.cookieHeader(), this.extraCookie].filter(Boolean).join('; ');
  }
  override async fetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('user-agent', this.agent);
    if (!headers.has('accept-language')) headers.set('accept-language', this.language);
    const response = await super.fetch(url, { ...init, headers });
    this.setCookies.push(...response.headers.getSetCookie().filter((c) => c.startsWith(`${BROWSER_KEY_COOKIE}=`)));
    return response;
  }
}

/** The notices (not the one-time codes) the outbox holds for `to`. */
async function notices(server: TestServer, to: string) {
  await newBrowserNotices(server.ctx).idle();
  const items = (await server.ctx.messaging.outbox?.list({ to, limit: 1000 })) ?? [];
  return items.filter((item) => !item.code);
}

async function auditCount(server: TestServer, userId: string, type: string): Promise<number> {
  const rows = await server.ctx.db.selectFrom('audit_events').select('id').where('user_id', '=', userId).where('type', '=', type).execute();
  return rows.length;
}

describe('the new sign-in notice', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  const signInWith = async (browser: TestBrowser, username: string, clientId = 'demo-app', password = 'Passw0rd!') => {
    const rp = await relyingParty(server.url, clientId, clientId === 'demo-app' ? 'demo-secret' : undefined);
    // prompt=login: a browser signed in already signs in again rather than passing through its session.
    return signIn(server.url, rp, username, password, browser, { prompt: 'login' });
  };

  it('records the first browser silently, says nothing for it again, and tells of a new one exactly once', async () => {
    const email = 'notice-1@example.com';
    const userId = await createAccount(server.ctx, { email, name: 'Lan' });
    const home = new Browser(CHROME_WINDOWS);

    // The account's first sign-in: its browser is recorded, nobody is told.
    await signInWith(home, email);
    expect(await notices(server, email)).toHaveLength(0);
    expect(home.has(BROWSER_KEY_COOKIE)).toBe(true);
    const cookie = home.setCookies[0]!;
    // For the whole site: the password sign-in reads it too (login-flow/trusted-browser-lockout.test.ts).
    expect(cookie).toMatch(/; path=\/;/);
    expect(cookie).toMatch(/; httponly/i);
    expect(cookie).toMatch(/; samesite=lax/i);
    expect(cookie).not.toMatch(/; secure/i); // http PUBLIC_URL in tests; Secure follows https (see the provider's cookies)
    const maxAge = Date.parse(/expires=([^;]+)/i.exec(cookie)![1]!) - Date.now();
    expect(maxAge).toBeGreaterThan(364 * 24 * 3600 * 1000);
    // Only a keyed hash of the key is stored.
    const key = cookie.slice(BROWSER_KEY_COOKIE.length + 1).split(';')[0]!;
    const rows = await server.ctx.db.selectFrom('known_browsers').selectAll().where('user_id', '=', userId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.browser_key_hash).not.toContain(key);
    expect(JSON.stringify(rows)).not.toContain(key);

    // The same browser again, to another application: still nothing, and the key is not replaced
    // (set again as it was, for another year).
    await signInWith(home, email, 'account');
    expect(await notices(server, email)).toHaveLength(0);
    expect(home.setCookies.map((line) => line.split(';')[0])).toEqual([`${BROWSER_KEY_COOKIE}=${key}`, `${BROWSER_KEY_COOKIE}=${key}`]);

    // Another browser: one notice, with the application, the browser and the IP.
    const travel = new Browser(FIREFOX_LINUX);
    await signInWith(travel, email);
    const [notice, ...more] = await notices(server, email);
    expect(more).toHaveLength(0);
    expect(notice).toMatchObject({ channel: 'email', subject: '[Passgate Demo] Đăng nhập mới vào tài khoản của bạn' });
    expect(notice!.text).toContain('Xin chào Lan,');
    expect(notice!.text).toContain('Ứng dụng: Demo App');
    expect(notice!.text).toContain('Trình duyệt: Firefox 133 · Linux');
    expect(notice!.text).toContain('Địa chỉ IP: 127.0.0.1');
    expect(notice!.text).toMatch(/Thời gian: \d\d:\d\d ngày \d\d\/\d\d\/\d{4} \(giờ Việt Nam, GMT\+7\)/);
    expect(notice!.text).toContain(`${server.url}/user/security`);
    expect(notice!.text).toContain('hãy đổi mật khẩu ngay');
    expect(notice!.text).not.toContain('Passw0rd!');
    expect(notice!.text).not.toContain(key);
    expect(await auditCount(server, userId, 'signin.new_browser')).toBe(1);

    // That browser is known now; so is the first.
    await signInWith(travel, email, 'account');
    await signInWith(home, email);
    expect(await notices(server, email)).toHaveLength(1);
    expect(await auditCount(server, userId, 'signin.new_browser')).toBe(1);
  });

  it('takes a browser with a cookie this account has never seen, or a made-up one, for a new browser', async () => {
    const email = 'notice-2@example.com';
    await createAccount(server.ctx, { email });
    await createAccount(server.ctx, { email: 'notice-2-other@example.com' });
    await signInWith(new Browser(CHROME_WINDOWS), email);

    // A browser with the key of a browser known to another account only.
    const others = new Browser(FIREFOX_LINUX);
    await signInWith(others, 'notice-2-other@example.com');
    const otherKey = others.setCookies[0]!.split(';')[0]!;
    const copied = new Browser(FIREFOX_LINUX);
    copied.extraCookie = otherKey;
    await signInWith(copied, email);
    expect(await notices(server, email)).toHaveLength(1);
    expect(copied.setCookies.map((line) => line.split(';')[0])).toEqual([otherKey]);

    // A well-formed key nobody issued: a new browser (and the key, well-formed, is kept).
    const madeUp = new Browser(FIREFOX_LINUX);
    madeUp.extraCookie = `${BROWSER_KEY_COOKIE}=${'A'.repeat(43)}`;
    await signInWith(madeUp, email);
    expect(await notices(server, email)).toHaveLength(2);
    expect(madeUp.setCookies.map((line) => line.split(';')[0])).toEqual([`${BROWSER_KEY_COOKIE}=${'A'.repeat(43)}`]);

    // A malformed one: a new browser, given a key of its own.
    const malformed = new Browser(FIREFOX_LINUX);
    malformed.extraCookie = `${BROWSER_KEY_COOKIE}=not-a-key`;
    await signInWith(malformed, email);
    expect(await notices(server, email)).toHaveLength(3);
    expect(malformed.setCookies).toHaveLength(1);
    expect(malformed.setCookies[0]).toMatch(new RegExp(`^${BROWSER_KEY_COOKIE}=[A-Za-z0-9_-]{43};`));
  });

  it('writes in the language the account chose, and in English gives the time in UTC', async () => {
    const email = 'notice-en@example.com';
    const userId = await createAccount(server.ctx, { email, name: 'Ann' });
    await server.ctx.users.update(userId, { locale: 'en' });
    await signInWith(new Browser(CHROME_WINDOWS, 'vi'), email);
    await signInWith(new Browser(FIREFOX_LINUX, 'vi'), email);
    const [notice] = await notices(server, email);
    expect(notice!.subject).toBe('[Passgate Demo] New sign-in to your account');
    expect(notice!.text).toContain('Application: Demo App');
    expect(notice!.text).toContain('Browser: Firefox 133 · Linux');
    expect(notice!.text).toContain('IP address: 127.0.0.1');
    expect(notice!.text).toMatch(/Time: \d{1,2} [A-Z][a-z]+ \d{4}, \d\d:\d\d \(UTC\)/);
    expect(notice!.text).toContain("If this wasn't you, change your password now");
  });

  it('sends an SMS to an account with a phone number and no e-mail, whatever the sign-in method (passwordless here)', async () => {
    const phone = '0901234500';
    const userId = await createAccount(server.ctx, { phoneNumber: phone });
    await signInWith(new Browser(CHROME_WINDOWS), phone);

    const browser = new Browser(FIREFOX_LINUX);
    const rp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    const auth = await authorizationRequest(rp);
    const challenge = await startSignIn(browser, server.url, auth);
    expect(await postJson(server.url, '/api/v1/passwordless/send', { challenge, phone_number: phone })).toMatchObject({ status: 200 });
    const code = await lastCode(server.ctx, phone);
    const login = await postJson(server.url, '/api/v1/passwordless/login', { challenge, phone_number: phone, code });
    expect(login.status).toBe(200);
    await finishSignIn(browser, server.url, rp, auth, login.body.redirectTo);

    const sms = await notices(server, phone);
    expect(sms).toHaveLength(1);
    expect(sms[0]).toMatchObject({ channel: 'sms' });
    expect(sms[0]!.text).toContain('Demo App');
    expect(sms[0]!.text).toContain('(Firefox 133 · Linux, IP 127.0.0.1)');
    expect(sms[0]!.text).toContain(`${server.url}/user/security`);
    expect(await auditCount(server, userId, 'signin.new_browser')).toBe(1);
  });

  it('tells nobody when the account has no verified address or number, and still records the browser and the event', async () => {
    const email = 'notice-unverified@example.com';
    const userId = await createAccount(server.ctx, { email, verified: false });
    await signInWith(new Browser(CHROME_WINDOWS), email);
    await signInWith(new Browser(FIREFOX_LINUX), email);
    expect(await notices(server, email)).toHaveLength(0);
    expect(await auditCount(server, userId, 'signin.new_browser')).toBe(1);
  });

  it(`keeps the ${KNOWN_BROWSERS_PER_USER} most recently seen browsers of an account`, async () => {
    const userId = await createAccount(server.ctx, { email: 'notice-cap@example.com' });
    const browsers = createKnownBrowserQueries(server.ctx.db);
    expect(await browsers.sighted(userId, 'hash-0', 1_000)).toBe('first');
    for (let i = 1; i <= KNOWN_BROWSERS_PER_USER + 1; i += 1) expect(await browsers.sighted(userId, `hash-${i}`, 1_000 + i)).toBe('new');
    expect(await browsers.count(userId)).toBe(KNOWN_BROWSERS_PER_USER);
    // The two least recently seen went; seeing one that stayed moves it, so it outlives newer ones.
    expect(await browsers.sighted(userId, 'hash-2', 5_000)).toBe('known');
    expect(await browsers.sighted(userId, 'hash-0', 5_001)).toBe('new');
    const kept = await server.ctx.db.selectFrom('known_browsers').select('browser_key_hash').where('user_id', '=', userId).execute();
    expect(kept.map((r) => r.browser_key_hash)).toEqual(expect.arrayContaining(['hash-0', 'hash-2']));
    expect(kept.map((r) => r.browser_key_hash)).not.toContain('hash-3');
  });
});

describe('the new sign-in notice when mail fails', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ captureLogs: true });
  });
  afterAll(() => server?.close());

  it('neither fails nor waits for a mail server that refuses or hangs, and logs the failure without the message', async () => {
    const email = 'notice-fail@example.com';
    const userId = await createAccount(server.ctx, { email });
    const rp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    await signIn(server.url, rp, email, 'Passw0rd!', new Browser(CHROME_WINDOWS));
    await newBrowserNotices(server.ctx).idle();

    const mail = server.ctx.messaging.mail;
    const original = mail.send;
    try {
      // Refused: the sign-in still gives its tokens.
      mail.send = async () => {
        throw new Error('550 mailbox unavailable');
      };
      const refused = await signIn(server.url, rp, email, 'Passw0rd!', new Browser(FIREFOX_LINUX));
      expect(refused.tokens.access_token).toBeTruthy();
      await newBrowserNotices(server.ctx).idle();
      const warning = server.logs.find((line) => line.includes('a new sign-in notice could not be sent'));
      expect(warning).toContain('550 mailbox unavailable');
      expect(warning).not.toContain('Đăng nhập mới');

      // Hanging: the sign-in finishes while the notice is still on its way.
      let release!: () => void;
      let markStarted!: () => void;
      const started = new Promise<void>((resolve) => (markStarted = resolve));
      mail.send = () => {
        markStarted();
        return new Promise<void>((resolve) => (release = resolve));
      };
      const third = new Browser('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15');
      const hanging = await signIn(server.url, rp, email, 'Passw0rd!', third);
      expect(hanging.tokens.access_token).toBeTruthy();
      await started;
      release();
      await newBrowserNotices(server.ctx).idle();
    } finally {
      mail.send = original;
    }
    expect(await auditCount(server, userId, 'signin.new_browser')).toBe(2);
  });
});
