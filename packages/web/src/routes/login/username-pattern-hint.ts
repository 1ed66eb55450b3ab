import { USERNAME_MAX_LENGTH, type UsernamePatternTest } from '@passgate/contract/rules';

/**
 * The sign-in screens' check of a username policy pattern: a hint before the server's answer,
 * which alone decides (it matches in linear time, contract's username-pattern.ts). The linear
 * engine is about 65 KB gzip, over what /login's 100 KB first-load budget has left, so the
 * browser uses its own RegExp, a backtracking engine, and only for patterns whose backtracking
 * is bounded by construction: any other pattern (or one the browser cannot compile) passes here
 * and is left to the server, so a hostile pattern cannot freeze the page.
 *
 * The bound: backtracking from one start position follows at most `paths(pattern)` branches,
 * where a single character (literal, class, escape, `.`) repeated between m and n times offers
 * at most min(n, L) - m + 1 choices (L the longest username), sequences multiply, alternatives
 * add, an optional group adds one; a repeated group (where nesting makes it exponential) and
 * backreferences or lookarounds are not analysed. With at most MAX_PATHS branches per start, a
 * match costs at most about L × MAX_PATHS × (L + pattern length) steps: a fraction of a second.
 */
const MAX_PATHS = 512;
const L = USERNAME_MAX_LENGTH;

/** The bound on backtracking branches per start position of `source`; Infinity when it is not analysed. */
function paths(source: string): number {
  let pos = 0;

  function quantifier(): { min: number; max: number } | null {
    const c = source[pos];
    let q: { min: number; max: number } | null = null;
    if (c === '*') q = { min: 0, max: Infinity };
    else if (c === '+') q = { min: 1, max: Infinity };
    else if (c === '?') q = { min: 0, max: 1 };
    if (q) pos += 1;
    else if (c === '{') {
      // Without the u flag a brace that is not a well-formed {m}, {m,} or {m,n} is a literal.
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(pos));
      if (!m) return null;
      const min = Number(m[1]);
      q = { min, max: m[2] === undefined ? min : m[3] ? Number(m[3]) : Infinity };
      pos += m[0].length;
    }
    if (q && source[pos] === '?') pos += 1;
    return q;
  }

  function alternation(): number {
    let total = sequence();
    while (source[pos] === '|') {
      pos += 1;
      total += sequence();
    }
    return total;
  }

  function sequence(): number {
    let product = 1;
    while (pos < source.length && source[pos] !== '|' && source[pos] !== ')') {
      const c = source[pos];
      let inner: number;
      let group = false;
      if (c === '(') {
        pos += 1;
        if (source.startsWith('?:', pos)) pos += 2;
        else if (source.startsWith('?<', pos) && source[pos + 2] !== '=' && source[pos + 2] !== '!') {
          const end = source.indexOf('>', pos);
          if (end < 0) return Infinity;
          pos = end + 1;
        } else if (source[pos] === '?') return Infinity; // lookarounds, modifiers
        inner = alternation();
        if (source[pos] !== ')') return Infinity;
        pos += 1;
        group = true;
      } else if (c === '[') {
        let end = pos + 1;
        if (source[end] === '^') end += 1;
        while (end < source.length && source[end] !== ']') end += source[end] === '\\' ? 2 : 1;
        if (end >= source.length) return Infinity;
        pos = end + 1;
        inner = 1;
      } else if (c === '\\') {
        const next = source[pos + 1];
        if (next === undefined || /[1-9k]/.test(next)) return Infinity; // backreferences
        pos += 2;
        inner = 1;
      } else {
        pos += 1;
        inner = 1;
      }
      const q = quantifier();
      if (q && group) {
        if (q.max > 1) return Infinity;
        inner = q.min === 0 ? inner + 1 : inner;
      } else if (q) {
        inner = Math.max(1, Math.min(q.max, L) - q.min + 1);
      }
      product *= inner;
      if (product > MAX_PATHS) return Infinity;
    }
    return product;
  }

  const total = alternation();
  return pos === source.length ? total : Infinity;
}

const hints = new Map<string, RegExp | null>();

function hintOf(source: string): RegExp | null {
  if (hints.has(source)) return hints.get(source) ?? null;
  let hint: RegExp | null = null;
  if (paths(source) <= MAX_PATHS) {
    try {
      hint = new RegExp(source);
    } catch {
      hint = null;
    }
  }
  hints.set(source, hint);
  return hint;
}

/** Whether the pattern is bounded enough for the browser to check (exported for its tests). */
export function browserChecksPattern(source: string): boolean {
  return hintOf(source) !== null;
}

/** For `classifyUsername` on the sign-in screens: a pattern not checked here passes, and the server decides. */
export const browserUsernamePatternTest: UsernamePatternTest = (pattern, value) => {
  const hint = hintOf(pattern);
  return hint ? hint.test(value) : true;
};
