import { ErrorCode, errorEnvelopeSchema, toSnakeCase } from '@passgate/contract';
import { ApiError } from '../../plugins/errors.ts';
import { AdminInputError } from '../admin-input-error.ts';

/**
 * The answers every admin route may give besides its own: for the OpenAPI document.
 * 400 bad input (field named), 401 no or bad token (1101/1102), 403 no role for this tenant (1301)
 * or no 2-step verification yet (1304), or a sign-in that did not use it (1307), 404 no such tenant, client or user.
 */
export const adminErrorResponses = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
} as const;

export const adminSecurity = [{ bearerAuth: [] }];

/** The wire name of a service's field path: the top-level key as the body sends it (snake_case), nested keys as they are. */
export function wireField(path: string): string {
  const [head = '', ...rest] = path.split('.');
  return [toSnakeCase(head), ...rest].join('.');
}

/**
 * An administrative service's refusal of input (AdminInputError, the command line's error type)
 * as the API's error: 400/1002 naming the first field, every problem in the message.
 */
export function adminInputAsApiError(error: AdminInputError): ApiError {
  const first = error.problems[0];
  const field = first && first.field !== '(input)' ? wireField(first.field) : undefined;
  const message = error.problems.map((p) => (p.field === '(input)' ? p.message : `${wireField(p.field)}: ${p.message}`)).join('; ');
  return new ApiError(field ? ErrorCode.InvalidField : ErrorCode.BadRequest, 400, field, message);
}

/**
 * The admin scope's error handler: AdminInputError becomes 400 (above); everything else goes on to
 * the application's handler (Fastify passes what an error handler throws to its parent's).
 */
export function adminErrorHandler(error: unknown): never {
  if (error instanceof AdminInputError) throw adminInputAsApiError(error);
  throw error;
}
