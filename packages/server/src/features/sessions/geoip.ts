import maxmind, { type CityResponse } from 'maxmind';

/**
 * An approximate place for an address ('Hanoi, Vietnam'), from a local MaxMind DB file (GEOIP_DB:
 * GeoLite2-City, GeoIP2-City or a Country database) read with `maxmind`. Never an online service:
 * without the file there is no place, and the session list shows the address alone.
 */
export type PlaceLookup = (ip: string, locale: string) => string | undefined;

type Names = Partial<Record<string, string>>;

const opened = new Map<string, Promise<PlaceLookup>>();

/**
 * The lookup of the database at `path`, opened once for the process whoever asks (the session
 * list and the device sign-in's approval screen): a City database is tens of megabytes in memory.
 * Start-up fails with a message naming GEOIP_DB when it cannot be read.
 */
export function openPlaceLookup(path: string): Promise<PlaceLookup> {
  let lookup = opened.get(path);
  if (!lookup) {
    lookup = readPlaceLookup(path);
    opened.set(path, lookup);
    // A file that could not be read is tried again by the next caller (a test, a restarted app).
    lookup.catch(() => opened.delete(path));
  }
  return lookup;
}

async function readPlaceLookup(path: string): Promise<PlaceLookup> {
  let reader: Awaited<ReturnType<typeof maxmind.open<CityResponse>>>;
  try {
    reader = await maxmind.open<CityResponse>(path, { cache: { max: 1000 } });
  } catch (error) {
    throw new Error(`GEOIP_DB: cannot open ${path} as a MaxMind database (${(error as Error).message})`, { cause: error });
  }
  const regions = new Map<string, Intl.DisplayNames>();
  const regionName = (isoCode: string | undefined, locale: string): string | undefined => {
    if (!isoCode) return undefined;
    let names = regions.get(locale);
    if (!names) {
      names = new Intl.DisplayNames([locale, 'en'], { type: 'region' });
      regions.set(locale, names);
    }
    try {
      return names.of(isoCode);
    } catch {
      return undefined;
    }
  };
  const pick = (names: Names | undefined, locale: string) => names?.[locale] ?? names?.en;

  return (ip, locale) => {
    if (!maxmind.validate(ip)) return undefined;
    let found: CityResponse | null;
    try {
      found = reader.get(ip);
    } catch {
      return undefined;
    }
    if (!found) return undefined;
    const country = found.country ?? found.registered_country;
    // Country names in the reader's language come from the ISO code (the databases have no Vietnamese names).
    const countryName = regionName(country?.iso_code, locale) ?? pick(country?.names as Names | undefined, locale);
    const city = pick(found.city?.names as Names | undefined, locale);
    const place = [city, countryName].filter(Boolean).join(', ');
    return place || undefined;
  };
}
