import { describe, expect, it } from 'vitest';
import { withLocale } from './locale-link.ts';

const ORIGIN = 'https://id.example.com';

describe('withLocale', () => {
  it('adds the language to a path of Passgate', () => {
    expect(withLocale('/privacy', 'en', ORIGIN)).toBe('/privacy?locale=en');
    expect(withLocale('/demo/login?client=demo-app', 'en', ORIGIN)).toBe('/demo/login?client=demo-app&locale=en');
  });

  it('adds it to an absolute address of the same origin, replacing one already there', () => {
    expect(withLocale(`${ORIGIN}/demo?locale=vi`, 'en', ORIGIN)).toBe(`${ORIGIN}/demo?locale=en`);
  });

  it('leaves another site’s address as it is', () => {
    expect(withLocale('https://shop.example.com/home', 'en', ORIGIN)).toBe('https://shop.example.com/home');
  });
});
