import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AVATAR_MAX_BYTES } from '@passgate/contract';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { accountSignIn, call, createAccount, userById } from '../../../test/account.ts';
import { oidc, relyingParty, signIn } from '../../../test/relying-party.ts';

/** A test image: a left half red and a right half blue, `width`×`height`. */
async function picture(width: number, height: number, format: 'png' | 'jpeg' | 'webp' | 'gif' = 'png'): Promise<Buffer> {
  const half = Math.floor(width / 2);
  const blue = await sharp({ create: { width: width - half, height, channels: 3, background: '#0000ff' } }).png().toBuffer();
  return sharp({ create: { width, height, channels: 3, background: '#ff0000' } })
    .composite([{ input: blue, left: half, top: 0 }])
    .withExif({ IFD0: { Copyright: 'Secret Place', ImageDescription: 'GPS and all' } })
    .toFormat(format)
    .toBuffer();
}

/** A tiny PNG whose header claims `width`×`height` pixels (a decompression bomb, as far as a decoder's header check goes). */
async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } }).png().toBuffer());
  // IHDR: length (4) and type (4) at 8, data (13) at 16, CRC at 29.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="red"/></svg>');

/** POST /api/v1/me/avatar and GET /api/v1/avatars/{key} over real HTTP. */
describe('avatars', () => {
  let server: TestServer;
  let userId: string;
  let token: string;
  const upload = (body: unknown) => call(server.url, 'POST', '/api/v1/me/avatar', { token, body });
  const avatarRows = () => server.ctx.db.selectFrom('avatars').selectAll().where('user_id', '=', userId).execute();

  beforeAll(async () => {
    server = await startTestServer();
    userId = await createAccount(server.ctx, { email: 'face@example.com', name: 'Face' });
    token = (await accountSignIn(server.url, 'face@example.com')).token;
  });
  afterAll(() => server?.close());

  it('stores an uploaded PNG as a 256×256 WebP without metadata, served at the avatarUrl with a long cache', async () => {
    const image = await picture(600, 400);
    expect((await sharp(image).metadata()).exif).toBeDefined();
    const answer = await upload({ image: `data:image/png;base64,${image.toString('base64')}` });
    expect(answer.status).toBe(200);
    const [row, ...more] = await avatarRows();
    expect(more).toEqual([]);
    expect(answer.body.avatarUrl).toBe(`${server.url}/api/v1/avatars/${row!.key}`);
    expect(row!.key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect((await userById(server.ctx, userId))!.avatar_key).toBe(row!.key);

    const stored = await sharp(row!.data).metadata();
    expect(stored).toMatchObject({ format: 'webp', width: 256, height: 256 });
    expect(stored.exif).toBeUndefined();
    // Cropped to cover, centred: the middle 400×400 of the 600×400, so red on the left and blue on the right.
    const { data } = await sharp(row!.data).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * 256 + x) * 3, (y * 256 + x) * 3 + 3)];
    expect(pixel(10, 128)[0]).toBeGreaterThan(200);
    expect(pixel(245, 128)[2]).toBeGreaterThan(200);

    const served = await fetch(answer.body.avatarUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(served.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(row!.data))).toBe(true);
    expect((await call(server.url, 'GET', '/api/v1/me', { token })).body.avatarUrl).toBe(answer.body.avatarUrl);
  });

  it("replaces the previous avatar (its URL answers 404), and the ID token's and userinfo's picture of a new sign-in is the avatarUrl", async () => {
    const first = (await avatarRows())[0]?.key ?? (await upload({ image: (await picture(50, 50)).toString('base64') })).body.avatarUrl;
    const jpeg = await picture(300, 500, 'jpeg');
    const answer = await upload({ image: jpeg.toString('base64'), mime_type: 'image/jpeg' });
    expect(answer.status).toBe(200);
    const rows = await avatarRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key).not.toBe(first);
    expect(answer.body.avatarUrl).toBe(`${server.url}/api/v1/avatars/${rows[0]!.key}`);
    const gone = await call(server.url, 'GET', `/api/v1/avatars/${first}`);
    expect(gone).toMatchObject({ status: 404, body: { error: { code: 1404 } } });
    expect(await call(server.url, 'GET', '/api/v1/avatars/no-such-key')).toMatchObject({ status: 404, body: { error: { code: 1404 } } });

    const demoApp = await relyingParty(server.url, 'demo-app', 'demo-secret');
    const { tokens } = await signIn(server.url, demoApp, 'face@example.com', 'Passw0rd!');
    expect(tokens.claims()!.picture).toBe(answer.body.avatarUrl);
    const userinfo = await oidc.fetchUserInfo(demoApp.config, tokens.access_token, tokens.claims()!.sub);
    expect(userinfo.picture).toBe(answer.body.avatarUrl);
  });

  it('accepts WebP and GIF, plain base64 without a declared type, and a declared type that differs from the real one among the allowed', async () => {
    for (const body of [
      { image: (await picture(64, 64, 'webp')).toString('base64'), mime_type: 'image/webp' },
      { image: `data:image/gif;base64,${(await picture(64, 32, 'gif')).toString('base64')}` },
      { image: (await picture(32, 64)).toString('base64') },
      { image: (await picture(40, 40, 'jpeg')).toString('base64'), mime_type: 'image/png' },
    ]) {
      const answer = await upload(body);
      expect(answer.status).toBe(200);
      expect(await sharp((await avatarRows())[0]!.data).metadata()).toMatchObject({ format: 'webp', width: 256, height: 256 });
    }
  });

  it('refuses what is not an allowed image with the right code, and changes nothing', async () => {
    const before = await userById(server.ctx, userId);
    const rowsBefore = await avatarRows();
    const png = (await picture(20, 20)).toString('base64');
    const cases: [unknown, number, number][] = [
      // A PDF renamed .png: declared image/png, PDF bytes.
      [{ image: PDF.toString('base64'), mime_type: 'image/png' }, 400, 1070],
      [{ image: `data:image/png;base64,${PDF.toString('base64')}` }, 400, 1070],
      // An SVG declared as such: a type that is not allowed; declared as PNG: not a PNG.
      [{ image: `data:image/svg+xml;base64,${SVG.toString('base64')}` }, 400, 1071],
      [{ image: SVG.toString('base64'), mime_type: 'image/svg+xml' }, 400, 1071],
      [{ image: SVG.toString('base64'), mime_type: 'image/png' }, 400, 1070],
      [{ image: png, mime_type: 'application/pdf' }, 400, 1071],
      [{ image: `data:text/html;base64,${png}` }, 400, 1071],
      // Not base64, or not an image at all.
      [{ image: 'this is not base64!' }, 400, 1070],
      [{ image: `${png.slice(0, -3)}` }, 400, 1070],
      [{ image: 'data:image/png,rawbytes' }, 400, 1070],
      [{ image: Buffer.from('just some text').toString('base64') }, 400, 1070],
      [{ image: randomBytes(3000).toString('base64'), mime_type: 'image/jpeg' }, 400, 1070],
      // Truncated: a real PNG cut in half.
      [{ image: (await picture(200, 200)).subarray(0, 300).toString('base64') }, 400, 1070],
      // A header that claims 100 megapixels (decompression bomb).
      [{ image: (await pngClaiming(10_000, 10_000)).toString('base64') }, 400, 1070],
      // Missing or mistyped fields.
      [{}, 400, 1001],
      [{ image: '' }, 400, 1002],
      [{ image: 42 }, 400, 1002],
    ];
    for (const [body, status, code] of cases) {
      const answer = await upload(body);
      expect([JSON.stringify(body).slice(0, 80), answer.status, answer.body.error.code]).toEqual([JSON.stringify(body).slice(0, 80), status, code]);
    }
    expect(await userById(server.ctx, userId)).toEqual(before);
    expect(await avatarRows()).toEqual(rowsBefore);
  });

  it('refuses an image over the size limit with 413 (1072): a 20 MB image, and one just over the limit, and changes nothing', async () => {
    const before = await userById(server.ctx, userId);
    const rowsBefore = await avatarRows();
    // A real 20 MB PNG (noise does not compress): the body is refused before it is read.
    const side = 2700;
    const big = await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
    expect(big.length).toBeGreaterThan(20 * 1024 * 1024);
    expect(await upload({ image: big.toString('base64'), mime_type: 'image/png' })).toMatchObject({ status: 413, body: { error: { code: 1072 } } });

    // Just over the limit once decoded, the body itself within the route's body limit.
    const over = randomBytes(AVATAR_MAX_BYTES + 3).toString('base64');
    expect(await upload({ image: over, mime_type: 'image/png' })).toMatchObject({ status: 413, body: { error: { code: 1072, field: 'image' } } });
    // Longer than any allowed image string, the body still within the route's body limit: 1072 before validation, not 1002.
    const tooLong = 'A'.repeat(Math.ceil((AVATAR_MAX_BYTES * 4) / 3) + 200);
    expect(await upload({ image: tooLong, mime_type: 'image/png' })).toMatchObject({ status: 413, body: { error: { code: 1072 } } });
    expect(await userById(server.ctx, userId)).toEqual(before);
    expect(await avatarRows()).toEqual(rowsBefore);
  });
});
