import { describe, expect, it } from 'vitest';
import { encodeUriComponentOf, encodeUriOf, isWellFormed, toWellFormed } from './unicode.ts';

describe('text that may not be well-formed Unicode', () => {
  it('is told apart from well-formed text as String.prototype.isWellFormed does', () => {
    for (const text of ['', 'Nguyễn', 'a😀b', '\ud83d\ude00', 'a\u0000b']) expect(isWellFormed(text), JSON.stringify(text)).toBe(true);
    for (const text of ['\ud800', 'a\udc00', 'x\ud83d', '\ude00\ud83d']) expect(isWellFormed(text), JSON.stringify(text)).toBe(false);
    expect(toWellFormed('a\ud800b\ud83d\ude00\udc00')).toBe('a\ufffdb😀\ufffd');
  });

  it('is encoded for an address without throwing, each lone surrogate as U+FFFD', () => {
    expect(() => encodeURIComponent('ya29.\ud800')).toThrow(URIError);
    expect(encodeUriComponentOf('ya29.\ud800/x')).toBe('ya29.%EF%BF%BD%2Fx');
    expect(encodeUriOf('https://acme.test/a\ud800 b.png')).toBe('https://acme.test/a%EF%BF%BD%20b.png');
    expect(encodeUriOf('https://acme.test/😀')).toBe(encodeURI('https://acme.test/😀'));
  });
});
