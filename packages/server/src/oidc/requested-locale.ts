/** The first supported language among the request's `locale` and `ui_locales`, if any. */
export function requestedLocale(params: Record<string, unknown>): 'vi' | 'en' | undefined {
  const tags = [params.locale, params.ui_locales].filter((v): v is string => typeof v === 'string').flatMap((v) => v.split(' '));
  for (const tag of tags) {
    const language = tag.toLowerCase().split('-')[0];
    if (language === 'vi' || language === 'en') return language;
  }
  return undefined;
}
