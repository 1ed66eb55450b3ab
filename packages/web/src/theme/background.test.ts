import { describe, expect, it } from 'vitest';
import { backgroundImageOf } from './themes.ts';

describe("a client's background", () => {
  it("is the client's own picture when it has one", () => {
    expect(backgroundImageOf({ backgroundImageUri: 'https://shop.example/bg 1.svg', backgroundColor: '#FFF3E0' })).toBe('url("https://shop.example/bg%201.svg")');
  });

  it('is the default picture under a veil of the background colour the client picked, so the colour shows', () => {
    expect(backgroundImageOf({ backgroundColor: '#FFF3E0' })).toBe('linear-gradient(rgba(255, 243, 224, 0.8), rgba(255, 243, 224, 0.8)), url("/themes/default-bg.svg")');
  });

  it('is the default picture alone for a client without either, and for screens without a client', () => {
    expect(backgroundImageOf({})).toBe('url("/themes/default-bg.svg")');
    expect(backgroundImageOf(null)).toBe('url("/themes/default-bg.svg")');
  });
});
