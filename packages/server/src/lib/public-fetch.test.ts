import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { canonicalHost, isInternalAddress, publicFetch, PublicFetchRefused, type PublicFetchOptions } from './public-fetch.ts';

describe('isInternalAddress', () => {
  const internal = [
    // IPv4: unspecified, loopback, RFC 1918, link-local and cloud metadata, CGNAT, reserved ranges
    '0.0.0.0', '0.1.2.3', '127.0.0.1', '127.255.255.254', '10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.255',
    '192.168.0.1', '192.168.255.255', '169.254.169.254', '169.254.0.1', '100.64.0.1', '100.127.255.255', '192.0.0.8',
    '192.0.2.1', '198.51.100.7', '203.0.113.9', '198.18.0.1', '198.19.255.255', '192.88.99.1', '224.0.0.1', '239.255.255.250',
    '240.0.0.1', '255.255.255.255',
    // IPv6: unspecified, loopback, unique local, link-local (with a zone), site-local, multicast, discard, documentation, 6to4, Teredo
    '::', '::1', '0:0:0:0:0:0:0:1', '[::1]', 'fc00::1', 'fd12:3456:789a::1', 'fe80::1', 'fe80::1%eth0', 'febf::1', 'fec0::1',
    'ff02::1', 'ff05::1:3', '100::1', '2001:db8::1', '2002:7f00:1::1', '2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '3fff::1',
    '64:ff9b:1::1', '5f00::1',
    // IPv4 written as IPv6: mapped (dotted and hex), NAT64 well-known prefix, the deprecated compatible form, SIIT
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::FFFF:169.254.169.254', '::ffff:a9fe:a9fe', '::ffff:10.0.0.1', '::ffff:192.168.1.1',
    '::ffff:0.0.0.0', '::ffff:100.64.0.1', '64:ff9b::127.0.0.1', '64:ff9b::a00:1', '::127.0.0.1', '::a00:1', '::ffff:0:7f00:1',
    // not an address at all
    'localhost', '', '127.0.0.1.', '1.2.3', '::ffff:1.2.3.4.5', 'example.com',
  ];
  const external = [
    '8.8.8.8', '1.1.1.1', '93.184.215.14', '157.240.22.35', '142.250.74.110', '100.63.255.255', '100.128.0.0', '172.15.255.255',
    '172.32.0.0', '169.253.255.255', '192.167.255.255', '198.17.255.255', '223.255.255.255', '11.0.0.1', '126.255.255.255',
    '2001:4860:4860::8888', '2606:4700:4700::1111', '2a03:2880:f10c:83:face:b00c:0:25de', '2001:200::1', '::ffff:8.8.8.8',
    '::ffff:808:808', '64:ff9b::8.8.8.8', '[2a00:1450:4001:830::200e]',
  ];
  it.each(internal)('%s is internal', (address) => expect(isInternalAddress(address)).toBe(true));
  it.each(external)('%s is public', (address) => expect(isInternalAddress(address)).toBe(false));
});

describe('canonicalHost and OUTGOING_ALLOW_PRIVATE_HOSTS', () => {
  it('writes a host as the URL parser does, so an allowance matches however a URL spells it', () => {
    expect(['LocalHost.', ' 127.1 ', '2130706433', '[::1]', '0:0::1', '::FFFF:127.0.0.1', 'Bücher.example'].map(canonicalHost)).toEqual([
      'localhost', '127.0.0.1', '127.0.0.1', '::1', '::1', '::ffff:7f00:1', 'xn--bcher-kva.example',
    ]);
    expect(['', 'a.test:8080', 'a.test/path', 'user@a.test', 'a b', 'http://a.test'].map(canonicalHost)).toEqual([null, null, null, null, null, null]);
  });

  it('is off by default, parsed outside production, refused in production and when an entry is not a host', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).outgoing.allowPrivateHosts).toEqual([]);
    expect(loadConfig({ NODE_ENV: 'development', OUTGOING_ALLOW_PRIVATE_HOSTS: ' 127.0.0.1, Fake-CDN.test ,,[::1]' }).outgoing.allowPrivateHosts).toEqual(['127.0.0.1', 'fake-cdn.test', '::1']);
    expect(() => loadConfig({ NODE_ENV: 'test', OUTGOING_ALLOW_PRIVATE_HOSTS: '127.0.0.1,cdn.test:443' })).toThrow(/OUTGOING_ALLOW_PRIVATE_HOSTS: not a host name or IP address: cdn\.test:443/);
    const production = {
      NODE_ENV: 'production', PUBLIC_URL: 'https://id.example.com', SMTP_URL: 'smtp://mail.example.com', SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 'token', TWILIO_FROM: '+15005550006', APP_SECRET: 'a-production-app-secret-of-at-least-32-characters',
    };
    expect(loadConfig(production).outgoing.allowPrivateHosts).toEqual([]);
    expect(() => loadConfig({ ...production, OUTGOING_ALLOW_PRIVATE_HOSTS: '127.0.0.1' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...production, OUTGOING_ALLOW_PRIVATE_HOSTS: '127.0.0.1' })).toThrow(/refused in production/);
  });
});

/**
 * Against the internal service an attacker aims at: plain http on this machine (IPv4 and IPv6
 * loopback where the machine has IPv6), listed in httpOrigins so that only the address check stands
 * in the way. It counts TCP connections, so "refused" means nothing reached it at all.
 */
describe('publicFetch', () => {
  let server: Server;
  let port: number;
  let connections = 0;
  const requests: { path: string; headers: IncomingHttpHeaders }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push({ path: req.url ?? '', headers: req.headers });
      const path = req.url ?? '/';
      const redirect = /^\/redirect\?to=(.+)$/.exec(path);
      if (redirect) return void res.writeHead(302, { location: decodeURIComponent(redirect[1]!) }).end();
      if (path.startsWith('/loop')) return void res.writeHead(301, { location: `/loop${requests.length}` }).end();
      if (path === '/missing') return void res.writeHead(404).end('no');
      if (path === '/chunked') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        for (let i = 0; i < 5; i++) res.write(Buffer.alloc(8, i));
        return void res.end();
      }
      if (path === '/hang') return void res.writeHead(200, { 'content-type': 'image/png' }).write('partial');
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '11' }).end('secret data');
    });
    server.on('connection', () => connections++);
    // Dual stack where there is IPv6, so that [::1] would reach the same service.
    await new Promise<void>((resolve) => {
      server.once('error', () => server.listen(0, '127.0.0.1', resolve));
      server.listen(0, '::', resolve);
    });
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  beforeEach(() => {
    connections = 0;
    requests.length = 0;
  });

  const origins = (...hosts: string[]) => hosts.map((host) => `http://${host}:${port}`);
  const local = () => origins('127.0.0.1', 'localhost', '[::1]', '[::ffff:7f00:1]', '0.0.0.0', 'pictures.example', 'cdn.example');
  const options = (extra: Partial<PublicFetchOptions> = {}): PublicFetchOptions => ({ timeoutMs: 2_000, maxBytes: 1_000, maxRedirects: 3, httpOrigins: local(), ...extra });
  const refusal = (promise: Promise<unknown>) => promise.then(
    () => 'fetched',
    (error: unknown) => (error instanceof PublicFetchRefused ? error.reason : error instanceof Error ? error.name : 'unknown'),
  );

  it('reaches an allowed host (so that the refusals below are what stops the rest) and sends none of our headers but its own', async () => {
    const answer = await publicFetch(`http://127.0.0.1:${port}/picture.png`, options({ allowPrivateHosts: ['127.0.0.1'], headers: { accept: 'image/*' } }));
    expect(answer).toMatchObject({ contentType: 'image/png', body: Buffer.from('secret data') });
    expect(requests).toHaveLength(1);
    expect(Object.keys(requests[0]!.headers).sort()).toEqual(['accept', 'connection', 'host', 'user-agent']);
  });

  it('refuses every spelling of this machine, its network and the metadata service without connecting: IP literals before the request, names at connect time', async () => {
    const targets = [
      `http://127.0.0.1:${port}/`,
      `http://2130706433:${port}/`, // 127.0.0.1 in one number
      `http://0x7f.1:${port}/`,
      `http://[::1]:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://0.0.0.0:${port}/`, // connects to this machine on Linux
      `http://localhost:${port}/`, // a name: resolved, then refused by the socket's lookup
      `https://169.254.169.254/latest/meta-data/iam/security-credentials/`,
      'https://10.0.0.1/',
      'https://192.168.1.1/',
      'https://100.100.100.200/latest/meta-data/', // Alibaba Cloud's metadata, in CGNAT space
      'https://[fd00:ec2::254]/latest/meta-data/', // AWS's IPv6 metadata address
      'https://[fe80::1]/',
    ];
    for (const target of targets) expect({ target, outcome: await refusal(publicFetch(target, options())) }).toEqual({ target, outcome: 'internal_address' });
    expect({ connections, requests }).toEqual({ connections: 0, requests: [] });
  });

  it('judges a name by what resolves it for the socket, once per connection: any internal answer refuses it', async () => {
    const asked: string[] = [];
    const resolve = (answers: { address: string; family: number }[]) => async (hostname: string) => {
      asked.push(hostname);
      return answers;
    };
    const url = `http://pictures.example:${port}/picture.png`;
    expect(await refusal(publicFetch(url, options({ resolve: resolve([{ address: '127.0.0.1', family: 4 }]) })))).toBe('internal_address');
    expect(await refusal(publicFetch(url, options({ resolve: resolve([{ address: '::ffff:a9fe:a9fe', family: 6 }]) })))).toBe('internal_address');
    // A public answer beside an internal one does not make the host public.
    expect(await refusal(publicFetch(url, options({ resolve: resolve([{ address: '93.184.215.14', family: 4 }, { address: '10.0.0.7', family: 4 }]) })))).toBe('internal_address');
    expect(asked).toEqual(['pictures.example', 'pictures.example', 'pictures.example']);
    expect({ connections, requests }).toEqual({ connections: 0, requests: [] });
    // The allowance is for a host as the URL names it: the same name, allowed, is fetched.
    const allowed = await publicFetch(url, options({ allowPrivateHosts: ['pictures.example'], resolve: async () => [{ address: '127.0.0.1', family: 4 }] }));
    expect(allowed.body.toString()).toBe('secret data');
  });

  it('checks every redirect hop: an allowed host cannot redirect inside', async () => {
    const via = (to: string) => `http://127.0.0.1:${port}/redirect?to=${encodeURIComponent(to)}`;
    const allowance = options({ allowPrivateHosts: ['127.0.0.1'] });
    for (const to of [`http://localhost:${port}/secret`, `http://[::1]:${port}/secret`, 'https://169.254.169.254/latest/meta-data/', 'https://10.1.2.3/secret']) {
      expect({ to, outcome: await refusal(publicFetch(via(to), allowance)) }).toEqual({ to, outcome: 'internal_address' });
    }
    expect(requests.map((r) => r.path)).toHaveLength(4);
    expect(requests.every((r) => r.path.startsWith('/redirect?'))).toBe(true);
    // A name that resolves inside is refused at the hop's connection too.
    const cdn = `http://cdn.example:${port}/secret`;
    expect(await refusal(publicFetch(via(cdn), { ...allowance, resolve: async () => [{ address: '127.0.0.1', family: 4 }] }))).toBe('internal_address');
    expect(requests.filter((r) => r.path === '/secret')).toEqual([]);
    // Redirects to where the rules allow are followed, up to the limit.
    expect((await publicFetch(via(`http://127.0.0.1:${port}/picture.png`), allowance)).body.toString()).toBe('secret data');
    requests.length = 0;
    expect(await refusal(publicFetch(`http://127.0.0.1:${port}/loop`, allowance))).toBe('too_many_redirects');
    expect(requests).toHaveLength(4);
  });

  it('asks for https unless the origin is listed, refuses credentials in the URL, keeps to its size and time limits', async () => {
    const allowance = { allowPrivateHosts: ['127.0.0.1'] };
    expect(await refusal(publicFetch(`http://127.0.0.1:${port}/picture.png`, options({ ...allowance, httpOrigins: [] })))).toBe('not_https');
    expect(await refusal(publicFetch(`http://u:p@127.0.0.1:${port}/picture.png`, options(allowance)))).toBe('credentials_in_url');
    expect(await refusal(publicFetch('file:///etc/passwd', options(allowance)))).toBe('not_https');
    expect(await refusal(publicFetch('not a url', options(allowance)))).toBe('invalid_url');
    expect(requests).toEqual([]);
    expect(await refusal(publicFetch(`http://127.0.0.1:${port}/missing`, options(allowance)))).toBe('status_404');
    expect(await refusal(publicFetch(`http://127.0.0.1:${port}/picture.png`, options({ ...allowance, maxBytes: 10 })))).toBe('too_large');
    expect(await refusal(publicFetch(`http://127.0.0.1:${port}/chunked`, options({ ...allowance, maxBytes: 39 })))).toBe('too_large');
    expect((await publicFetch(`http://127.0.0.1:${port}/chunked`, options({ ...allowance, maxBytes: 40 }))).body).toHaveLength(40);
    const started = Date.now();
    expect(await refusal(publicFetch(`http://127.0.0.1:${port}/hang`, options({ ...allowance, timeoutMs: 300 })))).toBe('TimeoutError');
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
