import { expect, type APIRequestContext } from '@playwright/test';
import { codeIn, Outbox } from './outbox.ts';

/** A visitor who registers during a scenario: a fresh username each time, so scenarios are independent. */
export interface NewAccount {
  username: string;
  name: string;
  password: string;
}

const suffix = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

/** An e-mail address no other scenario (or earlier run) uses. */
export function uniqueEmail(tag: string): string {
  return `${tag}-${suffix()}@example.com`;
}

/** A 10-digit phone number (09 + 8 digits) no other scenario uses. */
export function uniquePhone(): string {
  const digits = `${Date.now() % 100_000}`.padStart(5, '0') + `${Math.floor(Math.random() * 1000)}`.padStart(3, '0');
  return `09${digits}`;
}

export function newAccount(username: string, name: string): NewAccount {
  return { username, name, password: `Passw0rd-${Math.random().toString(36).slice(2, 8)}` };
}

/**
 * Set-up through the API, as a person would do it on the Register screen of Demo App (the screen
 * itself is exercised by register.spec.ts): POST /api/v1/users/register, in Vietnamese.
 */
export async function registerThroughApi(request: APIRequestContext, account: NewAccount, clientId = 'demo-app'): Promise<void> {
  const response = await request.post('/api/v1/users/register', {
    headers: { 'Accept-Language': 'vi' },
    data: { client_id: clientId, username: account.username, name: account.name, password: account.password },
  });
  expect(response.ok(), `register answered ${response.status()}: ${await response.text()}`).toBe(true);
}

/** Registered and activated with the code from the outbox: an active account of the demo tenant. */
export async function createActiveAccount(request: APIRequestContext, account: NewAccount, clientId = 'demo-app'): Promise<void> {
  await registerThroughApi(request, account, clientId);
  const code = codeIn(await new Outbox(request).next(account.username));
  const response = await request.post('/api/v1/users/confirm', { data: { client_id: clientId, username: account.username, code } });
  expect(response.ok(), `confirm answered ${response.status()}: ${await response.text()}`).toBe(true);
}
