import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ErrorCode, errorMessages, type ErrorEnvelope } from '@passgate/contract';
import { describeDependencyFailure, isDependencyFailure, RETRY_AFTER_SECONDS } from '../lib/dependency-errors.ts';

/** The one error type of the API: its code is also the i18n key of its message. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    readonly field?: string,
    message?: string,
    /** When trying again may succeed (a lock's end): sent as Retry-After and as `retryAfter`. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message ?? errorMessages[code]);
  }

  /** A WWW-Authenticate challenge to answer with (RFC 9449 section 7.1 for a DPoP-bound token). */
  wwwAuthenticate?: string;
}

export function envelope(code: ErrorCode, field?: string, message?: string, requestId?: string, retryAfter?: number): ErrorEnvelope {
  return {
    error: {
      code,
      message: message ?? errorMessages[code],
      ...(field ? { field } : {}),
      ...(requestId ? { requestId } : {}),
      ...(retryAfter !== undefined ? { retryAfter } : {}),
    },
  };
}

/**
 * Errors the router raises before any route or hook runs (Fastify's `frameworkErrors`): a path
 * with broken %-encoding, a path segment longer than `maxParamLength`, a failed constraint. Left to
 * Fastify they are answered outside the API's envelope and echo the path back, which may carry a
 * challenge or a code.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void reply.status(414).send(envelope(ErrorCode.RequestTooLarge, undefined, undefined, request.id));
  } else if (error.code === 'FST_ERR_BAD_URL') {
    void reply.status(400).send(envelope(ErrorCode.BadRequest, undefined, `${errorMessages[ErrorCode.BadRequest]}: the address is not valid`, request.id));
  } else {
    request.log.error({ err: error }, 'router error');
    void reply.status(500).send(envelope(ErrorCode.Internal, undefined, undefined, request.id));
  }
}

interface ValidationIssue {
  instancePath: string;
  keyword: string;
  message?: string;
}

function validationFailure(issues: ValidationIssue[], context: string | undefined, requestId: string) {
  const first = issues[0];
  const path = first?.instancePath.replace(/^\//, '').replace(/\//g, '.') ?? '';
  const field = path || context || undefined;
  const missing = first?.keyword === 'invalid_type' && /received undefined/.test(first.message ?? '');
  // A body (or query) that is not an object at all is a bad request rather than one bad field.
  const code = !path ? ErrorCode.BadRequest : missing ? ErrorCode.RequiredField : ErrorCode.InvalidField;
  const detail = field ? `${errorMessages[code]}: ${field}` : errorMessages[code];
  return envelope(code, field, detail, requestId);
}

/** During an outage every request fails alike: one warning per this many milliseconds says so. */
const DEPENDENCY_WARNING_INTERVAL_MS = 10_000;

/**
 * Turns ApiError, validation failures (400, naming the field), a database or Redis that cannot
 * serve (503/1294 with Retry-After, a warning) and anything else unexpected (logged, 500 with no
 * detail) into the error envelope of DESIGN.md section 6.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  // Every 503 is a 'try again shortly' (an unsent code, an unreachable provider, a dependency
  // away): saying when lets clients and load balancers back off instead of hammering.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode === 503 && !reply.hasHeader('retry-after')) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    return payload;
  });

  let lastDependencyWarning = 0;
  let suppressedWarnings = 0;

  app.setErrorHandler((error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof ApiError) {
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      if (error.wwwAuthenticate) reply.header('www-authenticate', error.wwwAuthenticate);
      return reply.status(error.status).send(envelope(error.code, error.field, error.message, request.id, error.retryAfterSeconds));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.status(400).send(validationFailure(error.validation as ValidationIssue[], error.validationContext, request.id));
    }
    const status = error.statusCode ?? 500;
    if (status === 413) {
      // Only a route that raises the body limit does so to carry a file (the avatar), so there an
      // over-long body is that file being too large; anywhere else it is just a request too large.
      const carriesFile = request.routeOptions.bodyLimit > (app.initialConfig.bodyLimit ?? Infinity);
      return reply.status(413).send(envelope(carriesFile ? ErrorCode.FileTooLarge : ErrorCode.RequestTooLarge, undefined, undefined, request.id));
    }
    if (status === 429) return reply.status(429).send(envelope(ErrorCode.TooManyRequests, undefined, undefined, request.id));
    if (status >= 400 && status < 500) {
      // Malformed JSON, an empty body, an unsupported content type and the like.
      return reply.status(status).send(envelope(ErrorCode.BadRequest, undefined, `${errorMessages[ErrorCode.BadRequest]}: ${error.message}`, request.id));
    }
    if (isDependencyFailure(error)) {
      // A stack per request would bury the logs for as long as the outage lasts, and says nothing
      // the first line does not.
      const now = Date.now();
      if (now - lastDependencyWarning >= DEPENDENCY_WARNING_INTERVAL_MS) {
        request.log.warn({ dependencyError: describeDependencyFailure(error), suppressed: suppressedWarnings }, 'a dependency (database or Redis) cannot serve: answering 503');
        lastDependencyWarning = now;
        suppressedWarnings = 0;
      } else {
        suppressedWarnings += 1;
      }
      return reply.status(503).header('retry-after', String(RETRY_AFTER_SECONDS)).send(envelope(ErrorCode.ServiceUnavailable, undefined, undefined, request.id));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(envelope(ErrorCode.Internal, undefined, undefined, request.id));
  });

}
