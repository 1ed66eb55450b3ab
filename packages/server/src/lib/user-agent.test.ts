import { describe, expect, it } from 'vitest';
import { describeUserAgent } from './user-agent.ts';

describe('describeUserAgent', () => {
  it('names the browser with its major version and the operating system', () => {
    const chrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.86 Safari/537.36';
    expect(describeUserAgent(chrome)).toEqual({ browser: 'Chrome 131', os: 'Windows 10' });
    const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
    expect(describeUserAgent(iphone)).toEqual({ browser: 'Safari 17', os: 'iOS 17.5' });
  });

  it('answers empty strings for a missing or meaningless header', () => {
    expect(describeUserAgent(undefined)).toEqual({ browser: '', os: '' });
    expect(describeUserAgent('curl-ish/🙂')).toEqual({ browser: expect.any(String), os: '' });
    expect(describeUserAgent('x'.repeat(100_000)).os).toBe('');
  });
});
