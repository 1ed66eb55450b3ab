import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as englishDictionary } from '@zxcvbn-ts/language-en';

/**
 * zxcvbn with its common-password and English dictionaries: some 800 KB of word lists, so this
 * module is only ever imported dynamically (see use-password-strength.ts) and never lands in the
 * first load of /login.
 */
const zxcvbn = new ZxcvbnFactory({
  dictionary: { ...commonDictionary, ...englishDictionary },
  graphs: adjacencyGraphs,
});

export type StrengthScore = 0 | 1 | 2 | 3 | 4;

/** zxcvbn's 0-4 score; `userInputs` (the name, the e-mail address) count as guessable words. */
export function scorePassword(password: string, userInputs: string[] = []): StrengthScore {
  return zxcvbn.check(password, userInputs).score;
}
