import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the Google and Facebook endpoints Passgate checks access tokens with
 * (node:http on a free port). It answers as the real APIs do, for the tokens it was told about:
 * - Google: GET /oauth2/v3/tokeninfo?access_token=… and GET /oauth2/v3/userinfo (Bearer);
 * - Facebook: GET /v19.0/debug_token?input_token=…&access_token={app id}|{app secret} and
 *   GET /v19.0/me?fields=…&access_token=…&appsecret_proof=… (checked against the app's secret).
 * - pictures: GET /pictures/{name}, as `pictures` says (an image, an error, a redirect, a hang), the
 *   stand-in for the providers' picture CDNs (`pictureUrl(name)`).
 * Start the server under test with `env: fake.env` (GOOGLE_API_URL, FACEBOOK_GRAPH_URL).
 */

export interface FakeGoogleUser {
  /** The Google app (OAuth client id) the token was issued to. */
  appId: string;
  /** Seconds left; 0 or less is an expired token. Default 3599. */
  expiresIn?: number;
  /** null: Google answers without an id. */
  sub: string | null;
  email?: string;
  emailVerified?: boolean;
  name?: string;
  picture?: string;
}

export interface FakeFacebookUser {
  /** The Facebook app the token was issued to. */
  appId: string;
  /** Unix seconds; in the past is an expired token. Default an hour from now. */
  expiresAt?: number;
  /** null: Facebook answers without an id. */
  userId: string | null;
  email?: string;
  name?: string;
  picture?: string;
  /** Facebook's default grey silhouette rather than a picture of the user. */
  pictureIsSilhouette?: boolean;
}

/** How GET /pictures/{name} answers. */
export interface FakePicture {
  /** Default 200. */
  status?: number;
  contentType?: string;
  body?: Buffer;
  /** Without content-length, in 64 KiB chunks: only a cap on what is read stops a large one. */
  chunked?: boolean;
  /** The headers and the first bytes, then nothing more. */
  hang?: boolean;
  /** Answers 302 to this URL. */
  redirectTo?: string;
}

/** How the fake answers every request: normally, 503, or never (to exercise the 5 s timeout). */
export type FakeMode = 'up' | 'down' | 'hang';

export interface FakeSocialProviders {
  url: string;
  env: { GOOGLE_API_URL: string; FACEBOOK_GRAPH_URL: string };
  google: Map<string, FakeGoogleUser>;
  facebook: Map<string, FakeFacebookUser>;
  /** Facebook app id → app secret. */
  facebookApps: Map<string, string>;
  /** Picture name → how /pictures/{name} answers; an unknown name is 404. */
  pictures: Map<string, FakePicture>;
  pictureUrl(name: string): string;
  mode: FakeMode;
  /** Every request: method, path and query, and headers. */
  requests: { path: string; query: URLSearchParams; headers: IncomingMessage['headers'] }[];
  close(): Promise<void>;
}

const send = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify(body));
};

export async function startFakeSocialProviders(): Promise<FakeSocialProviders> {
  const fake = { google: new Map(), facebook: new Map(), facebookApps: new Map(), pictures: new Map(), mode: 'up', requests: [] } as unknown as FakeSocialProviders;
  const hanging = new Set<ServerResponse>();

  function google(res: ServerResponse, path: string, query: URLSearchParams, req: IncomingMessage): void {
    if (path === '/oauth2/v3/tokeninfo') {
      const user = fake.google.get(query.get('access_token') ?? '');
      const expiresIn = user?.expiresIn ?? 3599;
      // Google answers an unknown or expired token with 400 and this body.
      if (!user || expiresIn < 0) return send(res, 400, { error: 'invalid_token', error_description: 'Invalid Value' });
      return send(res, 200, {
        azp: user.appId,
        aud: user.appId,
        ...(user.sub !== null ? { sub: user.sub } : {}),
        scope: 'openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile',
        exp: String(Math.floor(Date.now() / 1000) + expiresIn),
        expires_in: String(expiresIn),
        ...(user.email ? { email: user.email, email_verified: String(user.emailVerified ?? true) } : {}),
        access_type: 'online',
      });
    }
    if (path === '/oauth2/v3/userinfo') {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const user = fake.google.get(token);
      if (!user || (user.expiresIn ?? 3599) <= 0) return send(res, 401, { error: 'invalid_request', error_description: 'Invalid Credentials' });
      return send(res, 200, {
        ...(user.sub !== null ? { sub: user.sub } : {}),
        ...(user.name ? { name: user.name, given_name: user.name.split(' ')[0] } : {}),
        ...(user.picture ? { picture: user.picture } : {}),
        ...(user.email ? { email: user.email, email_verified: user.emailVerified ?? true } : {}),
      });
    }
    send(res, 404, { error: 'not_found' });
  }

  function facebook(res: ServerResponse, path: string, query: URLSearchParams): void {
    if (path === '/v19.0/debug_token') {
      const [appId = '', secret = ''] = (query.get('access_token') ?? '').split('|');
      if (!fake.facebookApps.has(appId) || fake.facebookApps.get(appId) !== secret) {
        return send(res, 400, { error: { message: 'Invalid OAuth access token signature.', type: 'OAuthException', code: 190 } });
      }
      const user = fake.facebook.get(query.get('input_token') ?? '');
      if (!user) return send(res, 200, { data: { is_valid: false, error: { code: 190, message: 'Invalid OAuth access token.' }, scopes: [] } });
      const expiresAt = user.expiresAt ?? Math.floor(Date.now() / 1000) + 3600;
      const expired = expiresAt * 1000 <= Date.now();
      return send(res, 200, {
        data: {
          app_id: user.appId,
          type: 'USER',
          application: 'Fake app',
          data_access_expires_at: expiresAt + 86400 * 90,
          expires_at: expiresAt,
          is_valid: !expired,
          ...(expired ? { error: { code: 190, subcode: 463, message: 'Session has expired.' } } : {}),
          scopes: ['email', 'public_profile'],
          ...(user.userId !== null ? { user_id: user.userId } : {}),
        },
      });
    }
    if (path === '/v19.0/me') {
      const token = query.get('access_token') ?? '';
      const user = fake.facebook.get(token);
      if (!user || (user.expiresAt !== undefined && user.expiresAt * 1000 <= Date.now())) {
        return send(res, 400, { error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 } });
      }
      const secret = fake.facebookApps.get(user.appId) ?? '';
      if (query.get('appsecret_proof') !== createHmac('sha256', secret).update(token).digest('hex')) {
        return send(res, 400, { error: { message: 'Invalid appsecret_proof provided in the API argument', type: 'GraphMethodException', code: 100 } });
      }
      // Field expansions such as picture.width(256).height(256) name the field before the first dot.
      const fields = new Set((query.get('fields') ?? 'id,name').split(',').map((field) => field.split('.')[0]));
      return send(res, 200, {
        ...(fields.has('id') && user.userId !== null ? { id: user.userId } : {}),
        ...(fields.has('name') && user.name ? { name: user.name } : {}),
        ...(fields.has('email') && user.email ? { email: user.email } : {}),
        ...(fields.has('picture') && user.picture ? { picture: { data: { height: 256, width: 256, is_silhouette: user.pictureIsSilhouette ?? false, url: user.picture } } } : {}),
      });
    }
    send(res, 404, { error: { message: 'Unknown path components', code: 2500 } });
  }

  function picture(res: ServerResponse, name: string): void {
    const found = fake.pictures.get(name);
    if (!found) return send(res, 404, { error: 'not_found' });
    if (found.redirectTo) {
      res.writeHead(302, { location: found.redirectTo });
      return void res.end();
    }
    const body = found.body ?? Buffer.alloc(0);
    const headers: Record<string, string> = { 'content-type': found.contentType ?? 'image/png', 'cache-control': 'public, max-age=86400' };
    if (!found.chunked && !found.hang) headers['content-length'] = String(body.length);
    res.writeHead(found.status ?? 200, headers);
    if (found.hang) {
      res.write(body.subarray(0, 16));
      hanging.add(res);
      return;
    }
    if (!found.chunked) return void res.end(body);
    // Written as the client reads: stops when it hangs up.
    let offset = 0;
    const next = (): void => {
      while (offset < body.length && !res.destroyed) {
        const chunk = body.subarray(offset, offset + 65_536);
        offset += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', next);
      }
      if (!res.destroyed) res.end();
    };
    next();
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    fake.requests.push({ path: url.pathname, query: url.searchParams, headers: req.headers });
    if (fake.mode === 'hang') {
      hanging.add(res);
      return;
    }
    if (fake.mode === 'down') return send(res, 503, { error: 'backend_error' });
    if (url.pathname.startsWith('/v19.0/')) return facebook(res, url.pathname, url.searchParams);
    if (url.pathname.startsWith('/pictures/')) return picture(res, url.pathname.slice('/pictures/'.length));
    return google(res, url.pathname, url.searchParams, req);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}`;
  fake.env = { GOOGLE_API_URL: fake.url, FACEBOOK_GRAPH_URL: `${fake.url}/v19.0` };
  fake.pictureUrl = (name) => `${fake.url}/pictures/${name}`;
  fake.close = () =>
    new Promise((resolve) => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
