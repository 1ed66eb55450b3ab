import { useEffect, useMemo, useState } from 'react';
// A type-only import: erased from the build, so zxcvbn stays out of this chunk.
import type { StrengthScore, scorePassword } from './zxcvbn.ts';

type Scorer = typeof scorePassword;

let loading: Promise<Scorer> | undefined;

/** One import for the whole page; a failed one (a dropped connection) is tried again next time. */
function loadScorer(): Promise<Scorer> {
  loading ??= import('./zxcvbn.ts').then(
    (module) => module.scorePassword,
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/**
 * The strength of `password` once `wanted` (the field was focused or typed in), else null; also
 * null while zxcvbn loads, or for an empty password.
 */
export function usePasswordStrength(password: string, wanted: boolean): StrengthScore | null {
  const [scorer, setScorer] = useState<Scorer | null>(null);
  useEffect(() => {
    if (!wanted || scorer) return;
    let current = true;
    loadScorer().then(
      (loaded) => current && setScorer(() => loaded),
      // No meter is better than a broken form: the server still refuses common passwords.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [wanted, scorer]);
  return useMemo(() => (scorer && password ? scorer(password) : null), [scorer, password]);
}
