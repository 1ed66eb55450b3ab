import {
  WebAuthnAbortService,
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/browser';

/**
 * The browser's authenticator, through @simplewebauthn/browser. Only the device screens (lazy
 * chunks) import this module, so the library never reaches the first load of /login; one object
 * so component tests can stand in for the authenticator jsdom does not have.
 */
export const webauthnBrowser = {
  supported(): boolean {
    return browserSupportsWebAuthn();
  },
  /** navigator.credentials.create(): a new credential for this site on this device. */
  register(optionsJSON: PublicKeyCredentialCreationOptionsJSON): Promise<RegistrationResponseJSON> {
    return startRegistration({ optionsJSON });
  },
  /** navigator.credentials.get(): an assertion of one of the allowed credentials. */
  authenticate(optionsJSON: PublicKeyCredentialRequestOptionsJSON): Promise<AuthenticationResponseJSON> {
    return startAuthentication({ optionsJSON });
  },
  /**
   * navigator.credentials.get({ mediation: 'conditional' }): the passkeys of this site offered in
   * the autofill of the field whose autocomplete ends in 'webauthn'; settles when one is picked.
   */
  autofill(optionsJSON: PublicKeyCredentialRequestOptionsJSON): Promise<AuthenticationResponseJSON> {
    return startAuthentication({ optionsJSON, useBrowserAutofill: true });
  },
  /** Aborts the ceremony under way (its promise rejects with an AbortError); starting another one does the same. */
  cancel(): void {
    WebAuthnAbortService.cancelCeremony();
  },
};

/**
 * The authenticator already holds a credential of this account (excludeCredentials): the browser
 * answers InvalidStateError (@simplewebauthn keeps that name on its WebAuthnError).
 */
export function isAlreadyRegisteredError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'InvalidStateError' || (error as { code?: unknown }).code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED');
}
