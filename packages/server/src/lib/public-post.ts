import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { canonicalHost, defaultResolve, guardedLookup, isInternalAddress, PublicFetchRefused, type PublicFetchOptions } from './public-fetch.ts';

export interface PublicPostOptions {
  /** Gives up the whole exchange (connection, request and answer head) when it aborts. */
  signal: AbortSignal;
  headers?: Record<string, string>;
  /** As for publicFetch: hosts that may be internal, the tests' local stand-ins (OUTGOING_ALLOW_PRIVATE_HOSTS). */
  allowPrivateHosts?: readonly string[];
  resolve?: PublicFetchOptions['resolve'];
}

/**
 * POSTs `body` to a URL a partner gave us and answers the status of the answer, whose body is not
 * read. The same rules as publicFetch: no credentials in the URL, never an internal address (judged
 * where the socket connects, so a name repointed after it was registered gains nothing), unless its
 * host is in allowPrivateHosts. No redirect is followed: a 3xx is the answer, so what we post never
 * travels anywhere but the registered address. Plain http is allowed: the protocols that post this
 * way (OpenID Connect Back-Channel Logout) permit it, and the registration already says which.
 */
export async function publicPost(target: string, body: string, options: PublicPostOptions): Promise<{ status: number }> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new PublicFetchRefused('invalid_url');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new PublicFetchRefused('not_https');
  if (url.username || url.password) throw new PublicFetchRefused('credentials_in_url');
  const host = canonicalHost(url.hostname) ?? url.hostname;
  const mayBeInternal = (options.allowPrivateHosts ?? []).includes(host);
  // node's sockets skip `lookup` for an IP literal, so it is judged here.
  if (!mayBeInternal && isIP(host) !== 0 && isInternalAddress(host)) throw new PublicFetchRefused('internal_address');

  const { signal } = options;
  const lookup = guardedLookup(options.resolve ?? defaultResolve, mayBeInternal);
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const headers = { 'user-agent': 'Passgate', ...options.headers, 'content-length': String(Buffer.byteLength(body)) };
    // A fresh connection each time (no agent): a pooled socket would skip the lookup.
    const request = send(url, { method: 'POST', headers, agent: false, signal, lookup }, (response) => {
      response.destroy();
      resolve({ status: response.statusCode ?? 0 });
    });
    request.once('error', (error) => reject(signal.aborted ? signal.reason : error));
    request.end(body);
  });
}
