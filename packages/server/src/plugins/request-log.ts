import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One log line per request, written when it is answered: what was asked (method, redacted URL,
 * client address), the status and the time taken, under the request's id. Fastify's default is
 * two lines (incoming and completed), which doubles the logging work of every request and repeats
 * the id for nothing. A route's `logLevel` (the probes' 'warn') still silences its line.
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/**
 * The status logged and counted for a request whose client went away before it was answered (nginx's
 * 499, 'client closed request'): the proxy's timeout or a closed tab while the database or a mail
 * server is silent. Its answer, written later, goes nowhere, and the response never finishes, so
 * without this such requests, the very ones of an outage, left no log line at all.
 */
export const CLIENT_CLOSED_REQUEST = 499;

/** Whether the raw response closed without being finished: its client went away first. */
export const closedUnanswered = (reply: FastifyReply): boolean => !reply.raw.writableFinished;

/** One log line, at the time the client goes, for each request left unanswered (see CLIENT_CLOSED_REQUEST). */
export function logRequestsLeftUnanswered(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.raw.once('close', () => {
      if (!closedUnanswered(reply)) return;
      reply.log.info({ req: request, res: { statusCode: CLIENT_CLOSED_REQUEST }, responseTime: reply.elapsedTime }, 'request closed by the client before its answer');
    });
    done();
  });
}
