import { z } from 'zod';

import { toCamelCase, toSnakeCase, type SnakeKeys } from './case.ts';

/**
 * A request body schema: `shape` is written in camelCase (what code works with); the schema accepts
 * the snake_case keys that travel on the wire and hands back the camelCase object.
 */
export function requestBody<Shape extends z.ZodRawShape>(shape: Shape) {
  const wireShape = Object.fromEntries(Object.entries(shape).map(([k, v]) => [toSnakeCase(k), v])) as SnakeKeys<Shape>;
  return z
    .object(wireShape)
    .transform((wire) => Object.fromEntries(Object.entries(wire).map(([k, v]) => [toCamelCase(k), v])) as z.output<z.ZodObject<Shape>>);
}

/** The camelCase form of a request body (what the SPA's forms and API client work with). */
export type RequestOf<Schema extends z.ZodType> = z.output<Schema>;
