import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Server } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishSignIn, oidc } from '../../../test/relying-party.ts';
import { createAccount, userById } from '../../../test/account.ts';
import { postJson } from '../../../test/visitor.ts';
import type { TestServer } from '../../../test/test-server.ts';
import type { FakeSocialProviders } from '../../../test/fake-social-providers.ts';
import { FACEBOOK_APP, GOOGLE_APP, begin, loginBody, socialLogin, usersWithEmail, startSocialTestbed, type SocialTestbed } from './social-test-setup.ts';

/** A photo-like test image: a red left half and a blue right half. */
async function photo(width: number, height: number, format: 'png' | 'jpeg'): Promise<Buffer> {
  const blue = await sharp({ create: { width: width - Math.floor(width / 2), height, channels: 3, background: '#0000ff' } }).png().toBuffer();
  return sharp({ create: { width, height, channels: 3, background: '#ff0000' } })
    .composite([{ input: blue, left: Math.floor(width / 2), top: 0 }])
    .toFormat(format)
    .toBuffer();
}

/**
 * A service inside the network that a picture URL aims at (bound to this machine, on IPv6 too where
 * there is IPv6). It counts TCP connections: zero means nothing of the request reached it, whatever
 * the protocol.
 */
async function startInternalService(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => {
    server.once('error', () => server.listen(0, '127.0.0.1', resolve));
    server.listen(0, '::', resolve);
  });
  return { port: (server.address() as AddressInfo).port, connections: () => connections, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The warning of an import that did not happen, from the server's log. */
function importWarning(server: TestServer): Record<string, unknown> | undefined {
  return server.logs.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line.msg === 'the profile picture of the new social account was not imported');
}

/** The provider's picture imported as the avatar of an account created by a Google or Facebook sign-in, over real HTTP. */
describe('the profile picture of a new social account', () => {
  let testbed: SocialTestbed;
  let server: TestServer;
  let fake: FakeSocialProviders;
  /** A real, decodable PNG of more than 5 MB (uncompressed noise, 1500×1500). */
  let hugePng: Buffer;

  beforeAll(async () => {
    // The fake's pictures are on 127.0.0.1, an internal address: let that host (only) through.
    testbed = await startSocialTestbed({ OUTGOING_ALLOW_PRIVATE_HOSTS: '127.0.0.1' }, { captureLogs: true });
    ({ server, fake } = testbed);
    hugePng = await sharp(randomBytes(1500 * 1500 * 3), { raw: { width: 1500, height: 1500, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
  });
  afterAll(() => testbed?.close());

  const pictureRequests = (name: string) => fake.requests.filter((r) => r.path === `/pictures/${name}`);
  const avatarRows = (userId: string) => server.ctx.db.selectFrom('avatars').select(['key', 'content_type']).where('user_id', '=', userId).execute();

  /** Signs in with the provider token through the social-app client: the account, and the relying party's ID token claims and userinfo. */
  async function signIn(authorizer: 'google' | 'facebook', token: string, email: string) {
    const start = await begin(server);
    const answer = await socialLogin(server, loginBody(authorizer, start.challenge, token));
    expect(answer).toEqual({ status: 200, body: { redirectTo: expect.any(String) } });
    const tokens = await finishSignIn(start.browser, server.url, start.rp, start.auth, answer.body.redirectTo);
    const claims = tokens.claims()!;
    const userinfo = await oidc.fetchUserInfo(start.rp.config, tokens.access_token, claims.sub);
    const [user] = await usersWithEmail(server, email);
    expect(user).toBeDefined();
    return { user: user!, claims, userinfo };
  }

  /** The avatar is a 256×256 WebP served at the claims' picture URL. */
  async function expectServedAvatar(pictureUrl: unknown, userId: string): Promise<void> {
    const [row, ...more] = await avatarRows(userId);
    expect(more).toEqual([]);
    expect(row?.content_type).toBe('image/webp');
    expect(pictureUrl).toBe(`${server.url}/api/v1/avatars/${row!.key}`);
    const served = await fetch(pictureUrl as string);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });
  }

  it('Google: the new account gets the picture as its avatar, which the ID token and userinfo name; no token goes with the download', async () => {
    fake.pictures.set('ann.jpg', { contentType: 'image/jpeg', body: await photo(400, 300, 'jpeg') });
    fake.google.set('g-ann', { appId: GOOGLE_APP, sub: 'g-pic-ann', email: 'ann.pic@example.com', name: 'Ann', picture: `${fake.pictureUrl('ann.jpg')}?sz=400` });
    const { user, claims, userinfo } = await signIn('google', 'g-ann', 'ann.pic@example.com');
    expect(user.avatar_key).not.toBeNull();
    await expectServedAvatar(claims.picture, user.id);
    expect(userinfo.picture).toBe(claims.picture);
    const [download, ...again] = pictureRequests('ann.jpg');
    expect(again).toEqual([]);
    expect(download!.headers.authorization).toBeUndefined();
    expect(download!.headers.cookie).toBeUndefined();

    // The next sign-in reuses the account as it is: no new download, the same avatar.
    fake.pictures.set('ann.jpg', { contentType: 'image/jpeg', body: await photo(300, 300, 'jpeg') });
    const next = await signIn('google', 'g-ann', 'ann.pic@example.com');
    expect(next.claims.picture).toBe(claims.picture);
    expect(pictureRequests('ann.jpg')).toHaveLength(1);
  });

  it('Facebook: asks for a picture of at least 256 px and follows the CDN redirect to a PNG', async () => {
    fake.pictures.set('bob.png', { body: await photo(320, 320, 'png'), chunked: true });
    fake.pictures.set('bob-lookaside', { redirectTo: `${fake.pictureUrl('bob.png')}?_nc_sig=SIGNED` });
    fake.facebook.set('fb-bob', { appId: FACEBOOK_APP, userId: '7001', email: 'bob.pic@example.com', name: 'Bob', picture: `${fake.pictureUrl('bob-lookaside')}?asid=7001&hash=SECRET-HASH` });
    const { user, claims, userinfo } = await signIn('facebook', 'fb-bob', 'bob.pic@example.com');
    expect(fake.requests.filter((r) => r.path === '/v19.0/me').at(-1)?.query.get('fields')).toBe('id,name,email,picture.width(256).height(256)');
    await expectServedAvatar(claims.picture, user.id);
    expect(userinfo.picture).toBe(claims.picture);
    expect(pictureRequests('bob.png')).toHaveLength(1);
  });

  it("Facebook: the grey silhouette is not the user's picture: not downloaded, no avatar", async () => {
    fake.pictures.set('silhouette.png', { body: await photo(50, 50, 'png') });
    fake.facebook.set('fb-sil', { appId: FACEBOOK_APP, userId: '7002', email: 'sil@example.com', picture: fake.pictureUrl('silhouette.png'), pictureIsSilhouette: true });
    const { user, claims } = await signIn('facebook', 'fb-sil', 'sil@example.com');
    expect(user.avatar_key).toBeNull();
    expect(claims.picture).toBeUndefined();
    expect(pictureRequests('silhouette.png')).toEqual([]);
  });

  it('a picture that cannot be had (404, not an image, over 5 MB, plain http elsewhere, a redirect there) leaves the account without an avatar; the sign-in succeeds and the warning leaves out the query', async () => {
    const port = new URL(fake.url).port;
    const elsewhere = `http://localhost:${port}/pictures/elsewhere.png`;
    fake.pictures.set('page.png', { contentType: 'text/html', body: Buffer.from('<!doctype html><title>Not found</title>') });
    fake.pictures.set('huge.png', { body: hugePng });
    fake.pictures.set('huge-chunked.png', { body: hugePng, chunked: true });
    fake.pictures.set('elsewhere.png', { body: await photo(64, 64, 'png') });
    fake.pictures.set('to-http', { redirectTo: elsewhere });
    const cases: [string, string, string][] = [
      ['missing', fake.pictureUrl('missing.png'), 'status_404'],
      ['page', fake.pictureUrl('page.png'), 'not_an_image'],
      ['huge', fake.pictureUrl('huge.png'), 'too_large'],
      ['huge-chunked', fake.pictureUrl('huge-chunked.png'), 'too_large'],
      ['elsewhere', elsewhere, 'not_https'],
      ['to-http', fake.pictureUrl('to-http'), 'not_https'],
    ];
    for (const [name, url, reason] of cases) {
      server.logs.length = 0;
      fake.google.set(`g-${name}`, { appId: GOOGLE_APP, sub: `g-pic-${name}`, email: `${name}@example.com`, picture: `${url}?token=PICTURE-SECRET` });
      const { user, claims } = await signIn('google', `g-${name}`, `${name}@example.com`);
      expect({ name, avatar: user.avatar_key, picture: claims.picture }).toEqual({ name, avatar: null, picture: undefined });
      expect(await avatarRows(user.id)).toEqual([]);
      const warning = server.logs.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line.msg === 'the profile picture of the new social account was not imported');
      expect(warning).toMatchObject({ level: 40, provider: 'google', userId: user.id, reason, picture: url.split('?')[0] });
      expect(server.logs.join('')).not.toContain('PICTURE-SECRET');
    }
    // Plain http to another origin is never even asked.
    expect(pictureRequests('elsewhere.png')).toEqual([]);
  });

  it('a picture CDN (an allowed host here) that redirects inside is refused at that hop: nothing reaches the internal service, no avatar', async () => {
    const internal = await startInternalService();
    try {
      const targets: [string, string][] = [
        ['metadata', 'https://169.254.169.254/latest/meta-data/iam/security-credentials/'],
        ['private', 'https://10.0.0.1/avatar.png'],
        ['ipv6-loopback', `https://[::1]:${internal.port}/avatar.png`],
        // A name: refused by the lookup of the hop's own connection.
        ['localhost', `https://localhost:${internal.port}/avatar.png`],
      ];
      for (const [name, target] of targets) {
        server.logs.length = 0;
        fake.pictures.set(`cdn-${name}`, { redirectTo: target });
        fake.google.set(`g-cdn-${name}`, { appId: GOOGLE_APP, sub: `g-pic-cdn-${name}`, email: `cdn-${name}@example.com`, picture: fake.pictureUrl(`cdn-${name}`) });
        const { user, claims } = await signIn('google', `g-cdn-${name}`, `cdn-${name}@example.com`);
        expect({ name, avatar: user.avatar_key, picture: claims.picture, rows: await avatarRows(user.id) }).toEqual({ name, avatar: null, picture: undefined, rows: [] });
        // The first hop was asked, the redirect's target was not.
        expect(pictureRequests(`cdn-${name}`)).toHaveLength(1);
        expect(importWarning(server)).toMatchObject({ reason: 'internal_address', picture: fake.pictureUrl(`cdn-${name}`) });
      }
      expect(internal.connections()).toBe(0);
    } finally {
      await internal.close();
    }
  });

  it('gives up on a picture that does not arrive within 5 s; the sign-in still succeeds', async () => {
    fake.pictures.set('slow.jpg', { contentType: 'image/jpeg', body: await photo(100, 100, 'jpeg'), hang: true });
    fake.google.set('g-slow', { appId: GOOGLE_APP, sub: 'g-pic-slow', email: 'slow.pic@example.com', picture: fake.pictureUrl('slow.jpg') });
    const started = Date.now();
    const { user, claims } = await signIn('google', 'g-slow', 'slow.pic@example.com');
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_900);
    expect(user.avatar_key).toBeNull();
    expect(claims.picture).toBeUndefined();
    expect(server.logs.join('')).toContain('"reason":"TimeoutError"');
  }, 20_000);

  it('linking an existing account keeps its own avatar (none here) and downloads nothing', async () => {
    const userId = await createAccount(server.ctx, { email: 'ivy.pic@example.com', name: 'Ivy' });
    fake.pictures.set('ivy.png', { body: await photo(64, 64, 'png') });
    fake.google.set('g-ivy', { appId: GOOGLE_APP, sub: 'g-pic-ivy', email: 'ivy.pic@example.com', emailVerified: true, picture: fake.pictureUrl('ivy.png') });
    const start = await begin(server);
    const answer = await socialLogin(server, loginBody('google', start.challenge, 'g-ivy'));
    expect(answer).toMatchObject({ status: 200, body: { linkRequired: true } });
    const linked = await postJson(server.url, '/api/v1/social/link', { challenge: start.challenge, link_token: answer.body.linkToken, password: 'Passw0rd!' });
    expect(linked.status).toBe(200);
    expect((await finishSignIn(start.browser, server.url, start.rp, start.auth, linked.body.redirectTo)).claims()).toMatchObject({ sub: userId });
    expect((await userById(server.ctx, userId))!.avatar_key).toBeNull();
    expect(pictureRequests('ivy.png')).toEqual([]);
  });
});

/** A provider answer whose picture URL points inside, with no allowance configured (as in production). */
describe('a profile picture URL that points inside the network', () => {
  let testbed: SocialTestbed;
  let server: TestServer;
  let fake: FakeSocialProviders;
  let internal: Awaited<ReturnType<typeof startInternalService>>;

  beforeAll(async () => {
    testbed = await startSocialTestbed({}, { captureLogs: true });
    ({ server, fake } = testbed);
    internal = await startInternalService();
  });
  afterAll(async () => {
    await internal?.close();
    await testbed?.close();
  });

  it('is never fetched: the account is created without an avatar and nothing reaches the internal address', async () => {
    const png = await photo(64, 64, 'png');
    fake.pictures.set('inside.png', { body: png });
    const port = internal.port;
    const targets: [string, string][] = [
      // The fake provider's own origin (http allowed, as in the tests above): only the address stops it.
      ['fake-origin', fake.pictureUrl('inside.png')],
      ['loopback', `https://127.0.0.1:${port}/avatar.png`],
      ['decimal-loopback', `https://2130706433:${port}/avatar.png`],
      ['localhost', `https://localhost:${port}/avatar.png`],
      ['ipv6-loopback', `https://[::1]:${port}/avatar.png`],
      ['mapped-loopback', `https://[::ffff:127.0.0.1]:${port}/avatar.png`],
      ['unspecified', `https://0.0.0.0:${port}/avatar.png`],
      ['metadata', 'https://169.254.169.254/latest/meta-data/iam/security-credentials/'],
      ['private', 'https://10.0.0.1/avatar.png'],
      ['cgnat', 'https://100.64.0.1/avatar.png'],
    ];
    for (const [name, target] of targets) {
      server.logs.length = 0;
      const email = `inside-${name}@example.com`;
      fake.google.set(`g-inside-${name}`, { appId: GOOGLE_APP, sub: `g-inside-${name}`, email, picture: target });
      const start = await begin(server);
      const answer = await socialLogin(server, loginBody('google', start.challenge, `g-inside-${name}`));
      expect({ name, answer }).toEqual({ name, answer: { status: 200, body: { redirectTo: expect.any(String) } } });
      const claims = (await finishSignIn(start.browser, server.url, start.rp, start.auth, answer.body.redirectTo)).claims()!;
      const [user] = await usersWithEmail(server, email);
      expect({ name, created: user?.status, avatar: user?.avatar_key, picture: claims.picture }).toEqual({ name, created: 'active', avatar: null, picture: undefined });
      expect(await server.ctx.db.selectFrom('avatars').select('key').where('user_id', '=', user!.id).execute()).toEqual([]);
      expect({ name, warning: importWarning(server) }).toMatchObject({ name, warning: { level: 40, provider: 'google', reason: 'internal_address' } });
    }
    expect(fake.requests.filter((r) => r.path.startsWith('/pictures/'))).toEqual([]);
    expect(internal.connections()).toBe(0);
  });
});
