import { RE2JS } from 're2js';
import type { UsernamePatternTest } from './validation.ts';

/**
 * Username policy patterns (`regexValidation`) run on RE2 (re2js, a pure-JS port): its matching
 * time is linear in the input whatever the pattern, so a tenant admin's pattern cannot make a
 * visitor's username (anyone can send one, unauthenticated) block the event loop, as a
 * backtracking engine (JavaScript's RegExp) lets `^(\d+)+$` do. RE2 cannot run backreferences
 * (`\1`, `\k<name>`) or lookarounds (`(?=`, `(?!`, `(?<=`, `(?<!`): such patterns are refused where
 * they are written (the shared zod schema). This module is on the contract's main entry only (the
 * server and the admin console): the engine is about 65 KB gzip, over the /login budget.
 */

/** Compiled patterns (or why one cannot compile), newest last; patterns are few (one or two per client). */
const compiled = new Map<string, RE2JS | string>();
const COMPILED_MAX = 256;

function compile(source: string): RE2JS | string {
  const known = compiled.get(source);
  if (known !== undefined) return known;
  let result: RE2JS | string;
  try {
    result = RE2JS.compile(source);
  } catch (error) {
    result = error instanceof Error ? error.message : String(error);
  }
  if (compiled.size >= COMPILED_MAX) compiled.delete(compiled.keys().next().value as string);
  compiled.set(source, result);
  return result;
}

/**
 * Why `source` cannot be a username policy pattern, or null when it can. It must be a valid
 * JavaScript regular expression (the sign-in screens may use it as a hint, as before) and one
 * the linear-time engine runs.
 */
export function usernamePatternProblem(source: string): string | null {
  try {
    new RegExp(source);
  } catch {
    return `'${source}' is not a valid regular expression`;
  }
  const result = compile(source);
  if (typeof result !== 'string') return null;
  return `'${source}' is not supported (${result.replace(/^error parsing regexp: /, '')}): patterns run in linear time (RE2 syntax), without backreferences or lookarounds`;
}

/**
 * The server's matcher for `classifyUsername`. A pattern the engine cannot run (stored before
 * patterns were checked, or written straight into the database) matches nothing, so the username
 * is refused as having an invalid format: the policy is the tenant's restriction, and failing open
 * would let any username through, while running it on a backtracking engine would bring the
 * denial of service back. `onUnsupported` hears of it (the server logs the client, never the username).
 */
export function linearUsernamePatternTest(onUnsupported?: (pattern: string, reason: string) => void): UsernamePatternTest {
  return (pattern, value) => {
    const result = compile(pattern);
    if (typeof result === 'string') {
      onUnsupported?.(pattern, result);
      return false;
    }
    return result.test(value);
  };
}
