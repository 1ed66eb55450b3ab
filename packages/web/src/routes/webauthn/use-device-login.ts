import { useCallback, useEffect, useRef, useState } from 'react';
import { DEVICE_LOGIN_POLL_MS, DEVICE_LOGIN_TTL_SECONDS, ErrorCode } from '@passgate/contract/rules';
import { ApiError, classifyError, NetworkError } from '../../api/errors.ts';
import { deviceLoginApi, type DeviceLoginChallenge } from '../../api/webauthn.ts';
import { useCountdown } from '../../hooks/use-countdown.ts';
import { browser } from '../../lib/browser.ts';
import { webauthnBrowser } from './webauthn-browser.ts';

export type DeviceLoginPhase =
  | { kind: 'form' }
  /** get-challenge is on its way. */
  | { kind: 'starting' }
  /** This browser's authenticator is asked (or its assertion is being checked). */
  | { kind: 'local'; request: DeviceLoginChallenge }
  /** Polling: `qr` when the QR code waits for another device. */
  | { kind: 'waiting'; request: DeviceLoginChallenge; qr: boolean }
  | { kind: 'redirecting' };

/**
 * Why the screen went back to the form: a refused call, the 300 s ran out, or the device request
 * ended on the server's side (refused on the device asked to approve it, or no longer valid) while
 * the sign-in request itself goes on.
 */
export type DeviceLoginFailure = { kind: 'error'; error: unknown; attempt: number } | { kind: 'expired' | 'ended'; attempt: number };

/**
 * The device sign-in endpoints call their own request `challenge` and the sign-in request
 * `oauth_challenge`, where the rest of the API calls the sign-in request `challenge` (the field
 * isRequestGone reads). A device request that ended leaves the person on this form, free to start
 * again or go back to the password; only a sign-in request that is gone leads to the screen that
 * says so.
 */
function failureOf(error: unknown, attempt: number): DeviceLoginFailure {
  if (error instanceof ApiError && error.code === ErrorCode.RequestExpired) {
    if (error.field === 'challenge') return { kind: 'ended', attempt };
    if (error.field === 'oauth_challenge') return { kind: 'error', error: new ApiError(error.status, error.code, error.message, 'challenge'), attempt };
  }
  return { kind: 'error', error, attempt };
}

/** The authenticator (or the browser) said no: anything that is not an answer of the API. */
function isBrowserFailure(error: unknown): boolean {
  return !(error instanceof ApiError) && !(error instanceof NetworkError);
}

/**
 * Sign in with a device (SPEC.md section 4): the request is made and this browser's authenticator
 * asked; if that fails, the QR code lets another device approve. Either way the page polls every
 * second until the answer carries the redirect target; after 300 s the request expires and the
 * form comes back; a poll error other than 'pending' resets it too.
 */
export function useDeviceLogin({ clientId, oauthChallenge }: { clientId: string; oauthChallenge: string }) {
  const [phase, setPhase] = useState<DeviceLoginPhase>({ kind: 'form' });
  const [failure, setFailure] = useState<DeviceLoginFailure | null>(null);
  // Each attempt has a number; an answer of an older one (cancelled, expired) is ignored.
  const generation = useRef(0);
  const attempts = useRef(0);
  const pollTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const stop = useCallback(() => {
    generation.current += 1;
    clearTimeout(pollTimer.current);
  }, []);

  const countdown = useCountdown({
    onExpire: () => {
      stop();
      setPhase({ kind: 'form' });
      setFailure({ kind: 'expired', attempt: ++attempts.current });
    },
  });
  const { start: startCountdown, stop: stopCountdown } = countdown;

  const reset = useCallback(
    (error?: unknown) => {
      stop();
      stopCountdown();
      setPhase({ kind: 'form' });
      setFailure(error === undefined ? null : failureOf(error, ++attempts.current));
    },
    [stop, stopCountdown],
  );

  useEffect(() => stop, [stop]);

  const poll = useCallback(
    (request: DeviceLoginChallenge, run: number, firstDelay: number) => {
      const body = { challenge: request.challengeRequest.getRedirectUrlChallenge, redirectUrlKey: request.challengeRequest.redirectUrlKey, oauthChallenge };
      const ask = (delay: number) => {
        pollTimer.current = setTimeout(() => {
          deviceLoginApi.poll(body).then(
            ({ redirectTo }) => {
              if (run !== generation.current) return;
              stop();
              stopCountdown();
              setPhase({ kind: 'redirecting' });
              browser.assign(redirectTo);
            },
            (error: unknown) => {
              if (run !== generation.current) return;
              // 'Pending' (1200) is passed over silently: ask again in a second.
              if (classifyError(error).kind === 'silent') ask(DEVICE_LOGIN_POLL_MS);
              else reset(error);
            },
          );
        }, delay);
      };
      ask(firstDelay);
    },
    [oauthChallenge, reset, stop, stopCountdown],
  );

  const waitForOtherDevice = useCallback(
    (request: DeviceLoginChallenge, run: number) => {
      setPhase({ kind: 'waiting', request, qr: true });
      poll(request, run, DEVICE_LOGIN_POLL_MS);
    },
    [poll],
  );

  const start = useCallback(
    async (username: string) => {
      stop();
      const run = generation.current;
      setFailure(null);
      setPhase({ kind: 'starting' });
      let request: DeviceLoginChallenge;
      try {
        request = await deviceLoginApi.start({ clientId, oauthChallenge, username });
      } catch (error) {
        if (run === generation.current) reset(error);
        return;
      }
      if (run !== generation.current) return;
      startCountdown(request.expiresIn > 0 ? request.expiresIn : DEVICE_LOGIN_TTL_SECONDS);
      // No authenticator API in this browser: only another device can approve.
      if (!webauthnBrowser.supported()) return waitForOtherDevice(request, run);

      setPhase({ kind: 'local', request });
      try {
        const credential = await webauthnBrowser.authenticate(request.challengeRequest.publickeyCredentialRequestOptions);
        if (run !== generation.current) return;
        await deviceLoginApi.approve({ challenge: request.challenge, oauthChallenge, publickeyCredential: credential, clientId });
      } catch (error) {
        if (run !== generation.current) return;
        // Cancelled, timed out, no matching credential here, or an assertion the server refused (1102).
        if (isBrowserFailure(error) || (error instanceof ApiError && error.code === ErrorCode.NotAuthenticated)) return waitForOtherDevice(request, run);
        return reset(error);
      }
      if (run !== generation.current) return;
      setPhase({ kind: 'waiting', request, qr: false });
      poll(request, run, 0);
    },
    [clientId, oauthChallenge, poll, reset, startCountdown, stop, waitForOtherDevice],
  );

  /** A new try that fails the screen's own checks: the last answer's message goes all the same. */
  const clearFailure = useCallback(() => setFailure(null), []);

  return { phase, failure, start, cancel: () => reset(), clearFailure, secondsLeft: countdown.secondsLeft };
}
