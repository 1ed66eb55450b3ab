import Bowser from 'bowser';

/** What a person recognises of a browser: its name and the operating system it runs on. */
export interface BrowserDescription {
  browser: string;
  os: string;
}

const MAX_USER_AGENT = 512;

/**
 * Describes a User-Agent header for people ('Chrome 131', 'Windows 10'); an absent or unparseable
 * header gives empty strings rather than a guess. The header is the caller's to choose, so it is
 * cut short before parsing and never trusted for anything but display.
 */
export function describeUserAgent(userAgent: string | undefined): BrowserDescription {
  if (!userAgent) return { browser: '', os: '' };
  const parsed = Bowser.parse(userAgent.slice(0, MAX_USER_AGENT));
  const major = parsed.browser.version?.split('.')[0];
  const browser = [parsed.browser.name, major].filter(Boolean).join(' ');
  const os = [parsed.os.name, parsed.os.versionName ?? parsed.os.version].filter(Boolean).join(' ');
  return { browser, os };
}
