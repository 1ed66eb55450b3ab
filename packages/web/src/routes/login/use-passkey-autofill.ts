import { useCallback, useEffect, useRef, useState } from 'react';
import type { PasskeyAutofillHandlers } from './passkey-autofill.ts';

/** Whether this browser offers passkeys in a field's autofill (WebAuthn conditional mediation). Behind an object for tests. */
export const passkeyAutofillSupport = {
  async available(): Promise<boolean> {
    const credential = typeof window === 'undefined' ? undefined : window.PublicKeyCredential;
    if (!credential || typeof credential.isConditionalMediationAvailable !== 'function') return false;
    try {
      return await credential.isConditionalMediationAvailable();
    } catch {
      return false;
    }
  },
};

interface Options extends Omit<PasskeyAutofillHandlers, 'onPicked'> {
  /** The client may sign in with devices (webauthn:login) and its tenant allows them. */
  enabled: boolean;
  onPicked?: () => void;
}

export interface PasskeyAutofill {
  /** The username field's autocomplete: 'username webauthn' while passkeys are offered in it. */
  autoComplete: string;
  /** Stops offering passkeys (the password form was sent): the browser's request is aborted. */
  stop(): void;
  /** Offers them again (the password was refused). */
  restart(): void;
}

/**
 * Passkeys with autofill on the Login screen: when the browser can, the username field offers the
 * site's passkeys and picking one signs in. The request runs in the background (a lazy chunk, so
 * the first load of /login stays as it was) and is aborted when the screen is left or stopped.
 */
export function usePasskeyAutofill({ enabled, challenge, clientId, onPicked, onSignedIn, onError }: Options): PasskeyAutofill {
  const [available, setAvailable] = useState(false);
  const [active, setActive] = useState(true);
  const [round, setRound] = useState(0);
  // The latest callbacks, for a request that outlives the render that started it.
  const handlers = useRef({ onPicked, onSignedIn, onError });
  useEffect(() => {
    handlers.current = { onPicked, onSignedIn, onError };
  });

  useEffect(() => {
    if (!enabled) return;
    let current = true;
    void passkeyAutofillSupport.available().then((yes) => {
      if (current && yes) setAvailable(true);
    });
    return () => {
      current = false;
    };
  }, [enabled]);

  // Runs once the field already says 'webauthn' (this render set it), as the browser wants.
  useEffect(() => {
    if (!enabled || !available || !active) return;
    let cancelled = false;
    let running: { cancel(): void } | undefined;
    void import('./passkey-autofill.ts').then(({ startPasskeyAutofill }) => {
      if (cancelled) return;
      running = startPasskeyAutofill({
        challenge,
        clientId,
        onPicked: () => handlers.current.onPicked?.(),
        onSignedIn: (url) => handlers.current.onSignedIn(url),
        onError: (error) => handlers.current.onError(error),
      });
    });
    return () => {
      cancelled = true;
      running?.cancel();
    };
  }, [enabled, available, active, round, challenge, clientId]);

  const stop = useCallback(() => setActive(false), []);
  const restart = useCallback(() => {
    setActive(true);
    setRound((n) => n + 1);
  }, []);

  return { autoComplete: enabled && available ? 'username webauthn' : 'username', stop, restart };
}
