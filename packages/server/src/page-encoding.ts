import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Brotli's quality for a page made per request: a few hundred microseconds for a sign-in page, near the best size. */
const BROTLI_QUALITY = 5;

/** The encodings the request accepts (`Accept-Encoding`, with `q=0` meaning no). */
function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    if (name && (q === undefined || Number(q) > 0)) accepted.add(name);
  }
  return accepted;
}

/**
 * A page of the SPA as the browser best takes it: brotli, gzip or as it is. The page is made per
 * request (the runtime configuration, the sign-in request and the shell's pictures go in), so the
 * build's precompressed files cannot serve it; compressed, it arrives in the first round trip of
 * a slow phone's connection. Safe from BREACH-style guessing: a page carries no secret (the
 * sign-in request it may carry is bound to the browser's cookie, which never enters the body, and
 * the account area's data comes from the API, whose answers are not compressed here).
 */
export function encodePage(request: FastifyRequest, reply: FastifyReply, page: string): string | Buffer {
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${String(vary)}, accept-encoding` : 'accept-encoding');
  const accepted = acceptedEncodings(request.headers['accept-encoding']);
  if (accepted.has('br')) {
    reply.header('content-encoding', 'br');
    return brotliCompressSync(page, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(page) } });
  }
  if (accepted.has('gzip')) {
    reply.header('content-encoding', 'gzip');
    return gzipSync(page);
  }
  return page;
}
