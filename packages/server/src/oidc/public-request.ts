import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Hands a request to the provider as addressed to PUBLIC_URL, whatever Host and X-Forwarded-*
 * headers it came with. The provider builds its URLs (discovery, resume, end-session) from the
 * request; they must be PUBLIC_URL's, never a caller's choice. And behind a TLS-terminating proxy
 * that sends no X-Forwarded-Proto, an https PUBLIC_URL still gets its Secure cookies instead of a
 * 500 ('Cannot send secure cookie over unencrypted connection'). The client address is the one
 * Fastify settled on under TRUST_PROXY (middie puts it on the raw request), so both agree.
 */
export function asPublicRequest(publicUrl: string, handler: (req: IncomingMessage, res: ServerResponse) => unknown) {
  const { host, protocol } = new URL(publicUrl);
  const proto = protocol.slice(0, -1);
  return (req: IncomingMessage & { ip?: string }, res: ServerResponse) => {
    req.headers.host = host;
    req.headers['x-forwarded-host'] = host;
    req.headers['x-forwarded-proto'] = proto;
    if (req.ip) req.headers['x-forwarded-for'] = req.ip;
    else delete req.headers['x-forwarded-for'];
    return handler(req, res);
  };
}
