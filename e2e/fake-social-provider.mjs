// A stand-in for Google's and Facebook's token-checking APIs, for the end-to-end scenarios only.
// playwright.config.ts starts it and points the server's GOOGLE_API_URL and FACEBOOK_GRAPH_URL at
// it. A scenario first registers a user token with POST /fake/tokens (the provider, the app it is
// for, the person behind it; for Facebook the app secret too), then serves the fake SDK that hands
// that token out; the server checks it here exactly as it would with the real providers:
//   GET /google/oauth2/v3/tokeninfo?access_token=…      (audience, expiry, sub, e-mail)
//   GET /google/oauth2/v3/userinfo   (Authorization: Bearer …)
//   GET /facebook/v19.0/debug_token?input_token=…&access_token={appId}|{appSecret}
//   GET /facebook/v19.0/me?fields=…&access_token=…&appsecret_proof=HMAC-SHA256(token, secret)
// An unknown token gets the providers' own refusal. Tokens live in memory for the run.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const port = Number(process.env.FAKE_SOCIAL_PORT ?? 4210);
/** token → { provider, appId, appSecret?, profile: { id, email, emailVerified, name, picture } } */
const tokens = new Map();

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

function readJson(req) {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      try {
        resolve(JSON.parse(text || '{}'));
      } catch (error) {
        reject(error);
      }
    });
    req.on('error', reject);
  });
}

const sameText = (a, b) => typeof a === 'string' && typeof b === 'string' && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
const expiresIn = 3599;

/** A profile picture (8×8 PNG) at the fake's own origin, which Passgate may fetch over http. */
const PICTURE = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGMQTT2AFTEMLQkAgcpOgcdALtkAAAAASUVORK5CYII=', 'base64');

function google(res, url, req) {
  if (url.pathname === '/google/oauth2/v3/tokeninfo') {
    const grant = tokens.get(url.searchParams.get('access_token') ?? '');
    if (grant?.provider !== 'google') return send(res, 400, { error: 'invalid_token', error_description: 'Invalid Value' });
    const { profile } = grant;
    return send(res, 200, {
      azp: grant.appId,
      aud: grant.appId,
      sub: profile.id,
      scope: 'openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile',
      exp: String(Math.floor(Date.now() / 1000) + expiresIn),
      expires_in: String(expiresIn),
      ...(profile.email ? { email: profile.email, email_verified: String(profile.emailVerified !== false) } : {}),
      access_type: 'online',
    });
  }
  if (url.pathname === '/google/oauth2/v3/userinfo') {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const grant = tokens.get(token);
    if (grant?.provider !== 'google') return send(res, 401, { error: 'invalid_request', error_description: 'Invalid Credentials' });
    const { profile } = grant;
    return send(res, 200, {
      sub: profile.id,
      name: profile.name,
      picture: profile.picture,
      ...(profile.email ? { email: profile.email, email_verified: profile.emailVerified !== false } : {}),
    });
  }
  if (url.pathname === '/google/picture.png') {
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': PICTURE.length });
    return res.end(PICTURE);
  }
  return send(res, 404, { error: 'not_found' });
}

const graphError = (message, code = 190) => ({ error: { message, type: 'OAuthException', code } });

function facebook(res, url) {
  if (url.pathname === '/facebook/v19.0/debug_token') {
    const [appId, appSecret] = (url.searchParams.get('access_token') ?? '').split('|');
    const grant = tokens.get(url.searchParams.get('input_token') ?? '');
    // The app's own credentials must be right, whatever the user token.
    const knownApp = [...tokens.values()].some((g) => g.provider === 'facebook' && g.appId === appId && sameText(g.appSecret, appSecret));
    if (!knownApp) return send(res, 400, graphError('Invalid OAuth access token - Cannot parse access token'));
    if (grant?.provider !== 'facebook') return send(res, 200, { data: { is_valid: false, error: { code: 190, message: 'Invalid OAuth access token.' } } });
    return send(res, 200, {
      data: {
        app_id: grant.appId,
        type: 'USER',
        application: 'Passgate e2e',
        expires_at: Math.floor(Date.now() / 1000) + expiresIn,
        is_valid: true,
        scopes: ['email', 'public_profile'],
        user_id: grant.profile.id,
      },
    });
  }
  if (url.pathname === '/facebook/v19.0/me') {
    const token = url.searchParams.get('access_token') ?? '';
    const grant = tokens.get(token);
    if (grant?.provider !== 'facebook') return send(res, 400, graphError('Invalid OAuth access token.'));
    const proof = createHmac('sha256', grant.appSecret).update(token).digest('hex');
    if (!sameText(url.searchParams.get('appsecret_proof') ?? '', proof)) return send(res, 400, graphError('Invalid appsecret_proof provided in the API argument', 100));
    const { profile } = grant;
    return send(res, 200, {
      id: profile.id,
      name: profile.name,
      ...(profile.email ? { email: profile.email } : {}),
      picture: { data: { height: 50, width: 50, is_silhouette: true, url: profile.picture } },
    });
  }
  return send(res, 404, graphError('Unknown path', 803));
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
  try {
    if (req.method === 'GET' && url.pathname === '/healthz') return send(res, 200, { ok: true });
    if (req.method === 'POST' && url.pathname === '/fake/tokens') {
      const { provider, appId, appSecret, profile } = await readJson(req);
      if ((provider !== 'google' && provider !== 'facebook') || !appId || !profile?.id || (provider === 'facebook' && !appSecret)) {
        return send(res, 400, { error: 'provider, appId, profile.id (and appSecret for facebook) are required' });
      }
      const token = `${provider === 'google' ? 'ya29' : 'EAAB'}.${randomBytes(24).toString('base64url')}`;
      tokens.set(token, { provider, appId, appSecret, profile });
      return send(res, 201, { token });
    }
    if (req.method === 'GET' && url.pathname.startsWith('/google/')) return google(res, url, req);
    if (req.method === 'GET' && url.pathname.startsWith('/facebook/')) return facebook(res, url);
    return send(res, 404, { error: 'not_found' });
  } catch (error) {
    return send(res, 400, { error: String(error) });
  }
});

server.listen(port, '127.0.0.1', () => console.warn(`fake social provider on http://127.0.0.1:${port}`));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
