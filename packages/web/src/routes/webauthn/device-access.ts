import type { PublicClient } from '@passgate/contract';
import { loginOptions } from '../login/login-options.ts';

/**
 * SPEC.md section 6: /login/webauthn and /login/webauthn/verify-device need webauthnAllowed and
 * webauthn:login. The browser's own support is not part of the guard: without it the screen goes
 * straight to the QR code for another device.
 */
export function canUseDeviceLogin(client: PublicClient): boolean {
  return loginOptions(client, { publicKeyCredential: true }).webauthn;
}
