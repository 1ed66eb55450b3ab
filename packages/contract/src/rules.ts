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
export * from './backup-codes.ts';
export * from './account-deletion.ts';

import { DEVICE_NAME_MAX_LENGTH } from './validation.ts';

/** WebAuthn devices (SPEC.md section 9): name length, device sign-in validity, poll interval, redirect after verification. */
export const DEVICE_NAME_MAX = DEVICE_NAME_MAX_LENGTH;
export const DEVICE_LOGIN_TTL_SECONDS = 300;
export const DEVICE_LOGIN_POLL_MS = 1000;
export const DEVICE_VERIFY_REDIRECT_SECONDS = 5;
