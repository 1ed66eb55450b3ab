import { publicPost } from '../lib/public-post.ts';

/** How long a relying party has to take a logout token; the provider gives up at 2.5 s itself too. */
export const BACKCHANNEL_LOGOUT_TIMEOUT_MS = 2_500;

/**
 * The provider's outgoing requests. In Passgate the only one is the POST of a logout token to a
 * relying party's backchannel_logout_uri (no jwks_uri, sector_identifier_uri, CIBA or client
 * metadata documents are enabled), so anything else is refused outright rather than fetched
 * under rules nobody chose for it.
 *
 * Why public-fetch rules for a URI the operator registered: the operator vets the URI once, but the
 * partner keeps control of the name in it and can repoint it at an internal address later, while
 * any user can make us post to it by signing out. So, as for every URL whose target we do not
 * control (DESIGN.md section 7), the address is judged where the socket connects and no redirect is
 * followed; OUTGOING_ALLOW_PRIVATE_HOSTS, refused in production, opens it for the tests' stand-ins.
 * This replaces the provider's own guard (an undici dispatcher refusing special-use addresses) so
 * there is one rule, with one allowance, for every outgoing request of the server.
 */
export function providerFetch(allowPrivateHosts: readonly string[]) {
  return async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = input instanceof Request ? input.url : input.toString();
    if ((init.method ?? 'GET').toUpperCase() !== 'POST' || !(init.body instanceof URLSearchParams)) {
      throw new Error('the provider asked for an outgoing request Passgate does not make (only logout tokens are posted)');
    }
    const headers = Object.fromEntries(new Headers(init.headers));
    // The provider clears user-agent; Passgate's own is sent instead, as on its other requests.
    delete headers['user-agent'];
    const signals = [AbortSignal.timeout(BACKCHANNEL_LOGOUT_TIMEOUT_MS), ...(init.signal ? [init.signal] : [])];
    const { status } = await publicPost(url, init.body.toString(), { signal: AbortSignal.any(signals), headers, allowPrivateHosts });
    // Response takes 200 to 599; anything else is no success either.
    if (status < 200 || status > 599) throw new Error(`unexpected status ${status}`);
    return new Response(null, { status });
  };
}
