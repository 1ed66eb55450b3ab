import { expect } from 'vitest';
import type { AppContext } from '../src/context.ts';
import { accountSignIn, call, createAccount } from './account.ts';
import { SoftwareAuthenticator } from './software-authenticator.ts';
import { lastCode } from './visitor.ts';

/** Helpers for the WebAuthn device tests: register and activate a software authenticator over HTTP. */

/** GET the registration options and POST the authenticator's answer; answers the device id and the activation challenge. */
export async function registerDevice(baseUrl: string, token: string, authenticator: SoftwareAuthenticator, deviceName = 'Security key') {
  const options = await call(baseUrl, 'GET', '/api/v1/webauthn-credentials/register', { token });
  expect(options.status).toBe(200);
  const answer = await call(baseUrl, 'POST', `/api/v1/webauthn-credentials/register?challenge=${options.body.challenge}`, {
    token,
    body: { device_name: deviceName, publickey_credential: authenticator.register(options.body.options), registration_challenge: options.body.options.challenge },
  });
  expect(answer.status).toBe(200);
  return answer.body as { webauthnCredentialId: string; challenge: string };
}

/** Activates the device with the code the dev outbox holds for `to`. */
export async function activateDevice(ctx: AppContext, baseUrl: string, token: string, to: string, device: { webauthnCredentialId: string; challenge: string }) {
  const answer = await call(baseUrl, 'POST', '/api/v2/resolve-challenge', {
    token,
    body: { challenge_type: 'ACTIVATION_WEBAUTHN', challenge: device.challenge, webauthn_credential_id: device.webauthnCredentialId, code: await lastCode(ctx, to) },
  });
  expect(answer).toMatchObject({ status: 200, body: { webauthnCredentialId: device.webauthnCredentialId, active: true } });
}

/** A new account of the demo tenant with one active software authenticator. */
export async function accountWithDevice(ctx: AppContext, baseUrl: string, email: string) {
  const userId = await createAccount(ctx, { email });
  const { token } = await accountSignIn(baseUrl, email);
  const authenticator = new SoftwareAuthenticator(baseUrl);
  const device = await registerDevice(baseUrl, token, authenticator);
  await activateDevice(ctx, baseUrl, token, email, device);
  return { userId, token, authenticator, webauthnCredentialId: device.webauthnCredentialId };
}
