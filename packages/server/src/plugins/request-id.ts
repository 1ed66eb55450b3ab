import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { TrustedProxies } from '../config.ts';
import { OneLineRequestLog } from './request-log.ts';

/** Anything else a proxy sends (spaces, quotes, newlines, kilobytes) would end up in every log line. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request id: the X-Request-Id of a trusted proxy in front (so one id follows a request through
 * the load balancer and here), else a fresh UUID (ids unique across instances, unlike Fastify's
 * per-process counter). Trusted is judged as Fastify judges X-Forwarded-For, by the address of the
 * peer that connected, with the same proxy-addr test: a client talking to us directly must never
 * choose its id, or it could make its requests look like someone else's in the logs.
 */
export function requestIdOptions(trustProxy: TrustedProxies): Pick<FastifyServerOptions, 'genReqId' | 'logController' | 'requestIdHeader'> {
  const trusted = trustProxy === false ? undefined : typeof trustProxy === 'function' ? trustProxy : proxyAddr.compile(trustProxy);
  return {
    // Fastify's own header reading would believe any caller; genReqId decides instead.
    requestIdHeader: false,
    // 'requestId' in log lines as in error bodies, so one search finds both.
    logController: new OneLineRequestLog({ requestIdLogLabel: 'requestId' }),
    genReqId: (req: IncomingMessage) => {
      const incoming = req.headers['x-request-id'];
      const peer = req.socket?.remoteAddress;
      if (trusted && peer && typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) && trusted(peer, 0)) return incoming;
      return randomUUID();
    },
  };
}

/**
 * X-Request-Id on every response. Set on the raw response in the first hook, so that what answers
 * outside Fastify's reply (oidc-provider through middie, which writes the raw response itself)
 * carries it as well as pages, static files and errors.
 */
export function registerRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.raw.setHeader('x-request-id', request.id);
  });
}
