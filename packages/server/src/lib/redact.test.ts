import { describe, expect, it } from 'vitest';
import { scrubProviderText } from './redact.ts';

describe('scrubProviderText', () => {
  it('takes out the secrets given, e-mail addresses and phone numbers however they are written', () => {
    expect(scrubProviderText('The To number +84901000010 is invalid', [])).toBe('The To number [number] is invalid');
    expect(scrubProviderText('to 0901 000 010 or (090) 100-0010 or 84-901-000-010', [])).toBe('to [number] or [number] or [number]');
    expect(scrubProviderText('550 <ann.lee+tag@mail.example.com>: rejected', [])).toBe('550 <[address]>: rejected');
    expect(scrubProviderText('body "Your code is 123456"', ['123456'])).toBe('body "Your code is [redacted]"');
  });

  it('leaves statuses, short error codes and words alone', () => {
    expect(scrubProviderText('HTTP 429, code 20429: Too Many Requests after 30 s', [])).toBe('HTTP 429, code 20429: Too Many Requests after 30 s');
    expect(scrubProviderText('no answer within 10 s', [''])).toBe('no answer within 10 s');
  });
});
