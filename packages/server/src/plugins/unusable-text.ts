import type { FastifyInstance } from 'fastify';
import { ErrorCode, errorMessages } from '@passgate/contract';
import { isWellFormed } from '../lib/unicode.ts';
import { envelope } from './errors.ts';

const NUL = '\u0000';

/** Why no input may be this text (see registerUnusableTextRefusal), or undefined when it may. */
export function faultOfText(text: string): string | undefined {
  if (text.includes(NUL)) return 'it holds the character U+0000';
  if (!isWellFormed(text)) return 'it is not well-formed Unicode: it holds a lone surrogate';
  return undefined;
}

/**
 * Where a request's input holds text no input may be (faultOfText): the dotted path of the first
 * string (or object key) that is such text, under `at`, and what is wrong with it; undefined when
 * none is.
 */
export function unusableTextAt(value: unknown, at = ''): { at: string; fault: string } | undefined {
  if (typeof value === 'string') {
    const fault = faultOfText(value);
    return fault ? { at, fault } : undefined;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unusableTextAt(value[i], at ? `${at}.${i}` : String(i));
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value === null || typeof value !== 'object' || !isParsedObject(value)) return undefined;
  for (const [key, child] of Object.entries(value)) {
    const path = at ? `${at}.${key}` : key;
    const fault = faultOfText(key);
    if (fault) return { at: at || 'body', fault };
    const found = unusableTextAt(child, path);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * No input of Passgate nests more than a few levels, while a JSON body of a few kilobytes can nest
 * thousands deep: walking such a body recursively (here or in any later step) overflows the stack,
 * a 500. So a body nested deeper than this is refused before anything walks it.
 */
export const MAX_INPUT_DEPTH = 32;

/** Whether arrays and objects in `value` nest deeper than `limit` levels (walked without recursion). */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, depth] = next;
    if (item === null || typeof item !== 'object' || !isParsedObject(item)) continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

/**
 * A parsed body, query or set of path parameters (the query and path parsers make objects of
 * prototypes of their own), not a Buffer or an upload's stream.
 */
function isParsedObject(value: object): boolean {
  return !ArrayBuffer.isView(value) && typeof (value as { pipe?: unknown }).pipe !== 'function';
}

/**
 * Input no route takes, refused before validation on every route of the API: a body nested deeper
 * than MAX_INPUT_DEPTH (above), the character U+0000, and text that is not well-formed Unicode.
 * No name, code, id or address has U+0000, and PostgreSQL cannot store or even compare text that
 * does (it fails the whole statement, which surfaced as a 500 on PostgreSQL only). A lone surrogate
 * (a JSON body can write "\ud800") has no UTF-8 form: it cannot be sent on to anyone, and
 * encodeURIComponent throws on it (a 500 in the Google sign-in, and pages that broke on a theme
 * holding one). Both are refused with the field named, on both engines alike. The pages (served when
 * no route matched) are left to render: their requests to the API get this answer, and their
 * server-side lookups skip such values (spa.ts).
 */
export function registerUnusableTextRefusal(app: FastifyInstance): void {
  app.addHook('preValidation', async (request, reply) => {
    // The pages: spa.ts's not-found handler, reached directly or through the static files' catch-all route.
    if (request.is404 || request.routeOptions.url === '/*') return;
    if (nestedDeeperThan(request.body, MAX_INPUT_DEPTH)) {
      return reply.status(400).send(envelope(ErrorCode.BadRequest, undefined, `${errorMessages[ErrorCode.BadRequest]} (the body nests more than ${MAX_INPUT_DEPTH} levels deep)`, request.id));
    }
    const found = unusableTextAt(request.params) ?? unusableTextAt(request.query) ?? unusableTextAt(request.body);
    if (found === undefined) return;
    const field = found.at;
    const code = field ? ErrorCode.InvalidField : ErrorCode.BadRequest;
    return reply.status(400).send(envelope(code, field || undefined, `${errorMessages[code]}${field ? `: ${field}` : ''} (${found.fault})`, request.id));
  });
}
