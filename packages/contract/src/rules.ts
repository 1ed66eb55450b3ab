/**
 * The contract's plain rules, without zod: what the login screens need on their first load
 * (error codes, capabilities, validation, the wire's key case, languages). Types may still be
 * imported from the main entry; they cost nothing at run time.
 */
export * from './error-codes.ts';
export * from './capabilities.ts';
export * from './validation.ts';
export * from './case.ts';
export * from './locale.ts';
