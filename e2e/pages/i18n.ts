import { readFileSync } from 'node:fs';

/** The SPA's own translation tables, so a scenario checks the very text a user reads. */
export type Locale = 'vi' | 'en';

type Table = { [key: string]: string | Table };

/** The sign-in screens', the account area's and the admin console's parts share one namespace in the SPA (i18n.ts). */
function load(locale: Locale): Table {
  const read = (path: string) => JSON.parse(readFileSync(new URL(`../../packages/web/src/i18n/${path}`, import.meta.url), 'utf8')) as Table;
  return { ...read(`${locale}.json`), ...read(`account/${locale}.json`), ...read(`admin/${locale}.json`) };
}

const tables: Record<Locale, Table> = { vi: load('vi'), en: load('en') };

/** The text of `key` (dotted, e.g. `login.submit`) in `locale`, with `{{name}}` values filled in. */
export function tr(locale: Locale, key: string, values: Record<string, string> = {}): string {
  let node: string | Table | undefined = tables[locale];
  for (const part of key.split('.')) {
    node = typeof node === 'object' ? node[part] : undefined;
  }
  if (typeof node !== 'string') throw new Error(`No ${locale} text for ${key}`);
  return node.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? `{{${name}}}`);
}

/** The text of a rich message (`<policy>…</policy>` marks a link or button) as the screen reads it, without the tags. */
export function trPlain(locale: Locale, key: string, values: Record<string, string> = {}): string {
  return tr(locale, key, values).replace(/<\/?\w+>/g, '');
}

/** The accessible name of a language switcher's button: the code it shows, then the language's own name ('EN – English'). */
export function languageButtonName(locale: Locale): string {
  return `${locale.toUpperCase()} – ${tr(locale, `languages.${locale}`)}`;
}
