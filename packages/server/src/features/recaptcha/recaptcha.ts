import { ErrorCode } from '@passgate/contract';
import type { Config } from '../../config.ts';
import type { ServerKeys } from '../../lib/server-keys.ts';
import { ApiError } from '../../plugins/errors.ts';
import type { ClientRecord } from '../clients/clients.queries.ts';

export interface RecaptchaVerifier {
  /** Passes when the client has no reCAPTCHA; otherwise the token must be present and accepted. */
  verify(client: ClientRecord, token: string | undefined, remoteIp: string): Promise<void>;
}

interface SiteVerifyAnswer {
  success?: boolean;
  'error-codes'?: string[];
}

/**
 * Checks reCAPTCHA tokens with the verification endpoint (Google's siteverify; its URL is
 * configuration so tests can point it at a local fake), with the client's secret.
 */
export function createRecaptchaVerifier(config: Pick<Config, 'recaptchaVerifyUrl'>, keys: ServerKeys, log: { warn(obj: object, msg: string): void }): RecaptchaVerifier {
  return {
    async verify(client, token, remoteIp) {
      if (!client.recaptcha.enabled) return;
      if (!token) throw new ApiError(ErrorCode.RequiredField, 400, 'recaptcha_token', 'Required field: recaptcha_token');
      if (!client.recaptcha.secretEnc) {
        log.warn({ clientId: client.id }, 'reCAPTCHA is enabled without a secret: refusing');
        throw new ApiError(ErrorCode.InvalidField, 400, 'recaptcha_token', 'reCAPTCHA verification failed');
      }
      let answer: SiteVerifyAnswer;
      try {
        const response = await fetch(config.recaptchaVerifyUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ secret: keys.decrypt(client.recaptcha.secretEnc), response: token, remoteip: remoteIp }),
          signal: AbortSignal.timeout(5000),
        });
        if (!response.ok) throw new Error(`status ${response.status}`);
        answer = (await response.json()) as SiteVerifyAnswer;
      } catch (error) {
        log.warn({ clientId: client.id, reason: error instanceof Error ? error.message : String(error) }, 'reCAPTCHA verification endpoint failed');
        throw new ApiError(ErrorCode.InvalidField, 503, 'recaptcha_token', 'reCAPTCHA could not be verified, please try again');
      }
      if (answer.success !== true) throw new ApiError(ErrorCode.InvalidField, 400, 'recaptcha_token', 'reCAPTCHA verification failed');
    },
  };
}
