import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, isIPv4, isIPv6, type LookupFunction } from 'node:net';

/**
 * GET of a URL someone else gave us (a provider's picture URL today), which must never reach
 * inside: loopback, private networks, link-local (cloud metadata at 169.254.169.254) and the like.
 * The address is judged where the socket connects (a `lookup` of our own), so a name that answers
 * a public address to a check and an internal one to the connection (DNS rebinding) gains nothing;
 * IP literals, which node connects to without a lookup, are judged before the request. Redirects are
 * followed by hand so that every hop goes through the same checks.
 */

/** Why a URL was not fetched; network failures and the timeout are thrown as they come. */
export class PublicFetchRefused extends Error {
  constructor(readonly reason: 'invalid_url' | 'not_https' | 'credentials_in_url' | 'internal_address' | 'too_many_redirects' | 'too_large' | `status_${number}`) {
    super(reason);
    this.name = 'PublicFetchRefused';
  }
}

export interface PublicFetchOptions {
  /** For everything: every hop, its connection and the body. */
  timeoutMs: number;
  /** The body is read up to this many bytes; one more and the download is abandoned. */
  maxBytes: number;
  maxRedirects: number;
  headers?: Record<string, string>;
  /** Origins (`http://host:port`) that may be fetched over plain http; every other URL must be https. */
  httpOrigins?: readonly string[];
  /**
   * Hosts (as canonicalHost gives them) that may be internal: the operator's escape hatch for test
   * stand-ins (OUTGOING_ALLOW_PRIVATE_HOSTS). It names hosts, not addresses, so that it opens only
   * URLs that spell that host.
   */
  allowPrivateHosts?: readonly string[];
  /** Name resolution, replaced in tests to play a name that answers an internal address. */
  resolve?: (hostname: string) => Promise<{ address: string; family: number }[]>;
}

export interface PublicFetchAnswer {
  /** The URL that answered, after redirects. */
  url: URL;
  contentType: string | undefined;
  body: Buffer;
}

/** IPv4 ranges that are not somewhere on the public internet. */
const INTERNAL_IPV4 = blockList('ipv4', [
  ['0.0.0.0', 8], // "this network", including the unspecified 0.0.0.0 (which connects to this host)
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT: the hosting network's side
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, where cloud metadata services answer
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relays, deprecated
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast 255.255.255.255
]);

/**
 * Only 2000::/3 is global unicast: everything outside it (::, ::1, fc00::/7, fe80::/10, ff00::/8,
 * deprecated site-local and compatible forms…) is internal without listing it, and new special
 * ranges outside it stay refused.
 */
const GLOBAL_IPV6 = blockList('ipv6', [['2000::', 3]]);
/** The parts of 2000::/3 that are not a host on the internet, or tunnel to an address we cannot judge. */
const SPECIAL_IPV6 = blockList('ipv6', [
  ['2001::', 23], // IETF protocol assignments, Teredo included
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: an IPv4 address of any kind behind it
  ['3fff::', 20], // documentation
]);

function blockList(type: 'ipv4' | 'ipv6', subnets: [string, number][]): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of subnets) list.addSubnet(network, prefix, type);
  return list;
}

/**
 * Whether an IP address is one a fetch on someone else's word must not connect to. Anything that
 * is not an IP address counts as internal: a check that cannot tell must not let it through.
 */
export function isInternalAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (isIPv4(bare)) return INTERNAL_IPV4.check(bare, 'ipv4');
  if (!isIPv6(bare)) return true;
  // An IPv4 address written as IPv6 reaches that IPv4 address: mapped (::ffff:a.b.c.d) on a
  // dual-stack socket, NAT64's well-known prefix (64:ff9b::a.b.c.d) through the network's gateway.
  const embedded = embeddedIpv4(bare);
  if (embedded !== null) return INTERNAL_IPV4.check(embedded, 'ipv4');
  return !GLOBAL_IPV6.check(bare, 'ipv6') || SPECIAL_IPV6.check(bare, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped or NAT64 (64:ff9b::/96) IPv6 address, else null. */
export function embeddedIpv4(ipv6: string): string | null {
  const groups = ipv6Groups(ipv6);
  const prefix = groups.slice(0, 6).join(':');
  if (prefix !== '0:0:0:0:0:65535' && prefix !== '100:65435:0:0:0:0') return null;
  const [high = 0, low = 0] = groups.slice(6);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** The eight 16-bit groups of a valid IPv6 address (isIPv6), a dotted IPv4 tail included. */
export function ipv6Groups(ipv6: string): number[] {
  let text = ipv6.toLowerCase();
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(2).map(Number) as [number, number, number, number];
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  return [...headGroups, ...zeros, ...tailGroups].map((group) => parseInt(group, 16));
}

/**
 * A host as the URL parser writes it (lower case, punycode, IPv4 in dotted form, IPv6 compressed)
 * without brackets or a final dot, so that an allowance matches however the URL spells the host.
 * Null for something that is not a bare host (a port, a path, credentials).
 */
export function canonicalHost(host: string): string | null {
  const trimmed = host.trim();
  if (trimmed === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(`http://${isIPv6(trimmed) ? `[${trimmed}]` : trimmed}/`);
  } catch {
    return null;
  }
  if (parsed.host !== parsed.hostname || parsed.pathname !== '/' || parsed.search || parsed.hash || parsed.username || parsed.password) return null;
  return parsed.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}

export const defaultResolve = (hostname: string) => dnsLookup(hostname, { all: true });

/** A socket lookup that resolves the name, then (unless the host may be internal) refuses the connection if any answer is internal. */
export function guardedLookup(resolve: NonNullable<PublicFetchOptions['resolve']>, mayBeInternal: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (answers) => {
        // Every answer, not only the one connected to: a host that is partly internal is not public.
        if (!mayBeInternal && answers.some((answer) => isInternalAddress(answer.address))) return callback(new PublicFetchRefused('internal_address'), '', 0);
        const wanted = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
        const usable = answers.filter((answer) => wanted === 0 || answer.family === wanted);
        const [first] = usable;
        if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        // With autoSelectFamily (node's default since 20) the socket asks for every address.
        if (options.all) return callback(null, usable);
        callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

/**
 * GETs `target`, following up to maxRedirects redirects, and answers its body when the final
 * answer is 200. Every hop must be https (or one of httpOrigins), carry no credentials and connect
 * only to a public address unless its host is in allowPrivateHosts. Nothing of ours goes along but
 * `headers`: no cookies, no tokens.
 */
export async function publicFetch(target: string, options: PublicFetchOptions): Promise<PublicFetchAnswer> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  const allowed = new Set(options.allowPrivateHosts ?? []);
  let url = parseUrl(target);
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && options.httpOrigins?.includes(url.origin))) throw new PublicFetchRefused('not_https');
    if (url.username || url.password) throw new PublicFetchRefused('credentials_in_url');
    const host = canonicalHost(url.hostname) ?? url.hostname;
    const mayBeInternal = allowed.has(host);
    // node's sockets skip `lookup` for an IP literal, so it is judged here.
    if (!mayBeInternal && isIP(host) !== 0 && isInternalAddress(host)) throw new PublicFetchRefused('internal_address');
    const response = await get(url, options.headers ?? {}, guardedLookup(options.resolve ?? defaultResolve, mayBeInternal), signal);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location !== undefined) {
      response.destroy();
      if (hop >= options.maxRedirects) throw new PublicFetchRefused('too_many_redirects');
      url = parseUrl(location, url);
      continue;
    }
    if (status !== 200) {
      response.destroy();
      throw new PublicFetchRefused(`status_${status}`);
    }
    if (Number(response.headers['content-length'] ?? 0) > options.maxBytes) {
      response.destroy();
      throw new PublicFetchRefused('too_large');
    }
    return { url, contentType: response.headers['content-type'], body: await readAtMost(response, options.maxBytes, signal) };
  }
}

function parseUrl(text: string, base?: URL): URL {
  try {
    return new URL(text, base);
  } catch {
    throw new PublicFetchRefused('invalid_url');
  }
}

/** The answer's head. A fresh connection each time (no agent): a pooled socket would skip the lookup. */
function get(url: URL, headers: Record<string, string>, lookup: LookupFunction, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(url, { method: 'GET', headers: { 'user-agent': 'Passgate', ...headers }, agent: false, signal, lookup }, resolve);
    request.once('error', (error) => reject(signal.aborted ? signal.reason : error));
    request.end();
  });
}

/** The body, or PublicFetchRefused('too_large') as soon as it passes `max` bytes (the rest is never read). */
async function readAtMost(response: IncomingMessage, max: number, signal: AbortSignal): Promise<Buffer> {
  const abort = () => response.destroy(signal.reason instanceof Error ? signal.reason : undefined);
  signal.addEventListener('abort', abort, { once: true });
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      size += chunk.byteLength;
      if (size > max) {
        response.destroy();
        throw new PublicFetchRefused('too_large');
      }
      chunks.push(chunk);
    }
  } catch (error) {
    throw signal.aborted ? signal.reason : error;
  } finally {
    signal.removeEventListener('abort', abort);
  }
  return Buffer.concat(chunks, size);
}
