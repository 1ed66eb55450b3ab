import { isRequestGone } from '../../api/errors.ts';
import { passkeyApi } from '../../api/passkeys.ts';
import { webauthnBrowser } from '../webauthn/webauthn-browser.ts';

/**
 * The background passkey request of the Login screen (loaded only when the browser offers passkey
 * autofill, so neither this nor @simplewebauthn/browser is part of the first load of /login).
 *
 * It asks the server for options, hands them to the browser's conditional get() (the passkeys show
 * in the username field's autofill) and, when one is picked, signs in with it. Options are renewed
 * a little before they expire; after a refusal (an unknown passkey, an account that may not sign
 * in) the error is told and passkeys are offered again, a few times at most.
 */

export interface PasskeyAutofillHandlers {
  challenge: string;
  clientId: string;
  /** Told before the sign-in is sent, so the screen can stop other attempts. */
  onPicked(): void;
  onSignedIn(redirectTo: string): void;
  onError(error: unknown): void;
}

/** How many refusals or browser failures in a row before passkeys stop being offered on this screen. */
const MAX_FAILURES = 3;
/** Options are renewed this long before the server lets them expire. */
const RENEW_BEFORE_MS = 15_000;

const isAbort = (error: unknown): boolean =>
  error instanceof Error && (error.name === 'AbortError' || (error as { code?: unknown }).code === 'ERROR_CEREMONY_ABORTED');

export function startPasskeyAutofill(handlers: PasskeyAutofillHandlers): { cancel(): void } {
  let stopped = false;
  const optionsRequest = new AbortController();

  async function offer(): Promise<void> {
    let failures = 0;
    while (!stopped && failures < MAX_FAILURES) {
      let options;
      try {
        options = await passkeyApi.options({ challenge: handlers.challenge, clientId: handlers.clientId }, optionsRequest.signal);
      } catch {
        // No passkeys then: the password form works as before, and says what is wrong if it is the request.
        return;
      }
      if (stopped) return;

      let renewing = false;
      const renew = setTimeout(() => {
        renewing = true;
        webauthnBrowser.cancel();
      }, Math.max(1_000, options.expiresIn * 1000 - RENEW_BEFORE_MS));
      let credential;
      try {
        credential = await webauthnBrowser.autofill(options.publickeyCredentialRequestOptions);
      } catch (error) {
        if (stopped || (isAbort(error) && !renewing)) return;
        // Renewed options, or the person cancelled the device's check: offer the passkeys again.
        if (!renewing) failures += 1;
        continue;
      } finally {
        clearTimeout(renew);
      }
      if (stopped) return;

      handlers.onPicked();
      try {
        const { redirectTo } = await passkeyApi.login({ challenge: handlers.challenge, clientId: handlers.clientId, publickeyCredential: credential });
        stopped = true;
        handlers.onSignedIn(redirectTo);
        return;
      } catch (error) {
        if (stopped) return;
        handlers.onError(error);
        if (isRequestGone(error)) return;
        failures += 1;
      }
    }
  }

  void offer();
  return {
    cancel() {
      if (stopped) return;
      stopped = true;
      optionsRequest.abort();
      webauthnBrowser.cancel();
    },
  };
}
