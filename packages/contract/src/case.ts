/**
 * Request bodies travel in snake_case and responses in camelCase (DESIGN.md section 6). Only the
 * top-level keys of a body are converted; nested objects keep the shape their own schema gives.
 */

type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

export type SnakeKeys<T> = { [K in keyof T as K extends string ? SnakeCase<K> : K]: T[K] };

export function toSnakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

export function toCamelCase(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export function snakeKeys<T extends Record<string, unknown>>(value: T): SnakeKeys<T> {
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [toSnakeCase(k), v])) as SnakeKeys<T>;
}
