import type { SmsSender } from '../messages.ts';
import { clip, postWithTimeout, readJson, SmsSendError } from './http.ts';
import { needsUnicode, toVietnameseNational } from './phone.ts';

export interface EsmsSettings {
  baseUrl: string;
  apiKey: string;
  secretKey: string;
  /** The registered brand name (SmsType 2: customer care messages with a brand name). */
  brandname: string;
}

/** eSMS.vn's JSON API: CodeResult "100" is a success, anything else an error. */
export const ESMS_SEND_PATH = '/MainService.svc/json/SendMultipleMessage_V4_post_json/';

/**
 * eSMS.vn (Vietnamese SMS gateway): POST {base}/MainService.svc/json/SendMultipleMessage_V4_post_json/
 * with a JSON body of ApiKey, SecretKey, Phone, Content, Brandname, SmsType '2' (brand name, customer
 * care) and IsUnicode '1' when the text has Vietnamese diacritics. Anything but CodeResult "100" is
 * an error naming CodeResult and ErrorMessage, never the text sent.
 */
export function esmsSmsSender(settings: EsmsSettings): SmsSender {
  const url = `${settings.baseUrl.replace(/\/+$/, '')}${ESMS_SEND_PATH}`;
  return {
    async send(message) {
      const response = await postWithTimeout('esms', url, {
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          ApiKey: settings.apiKey,
          SecretKey: settings.secretKey,
          Phone: toVietnameseNational(message.to),
          Content: message.text,
          Brandname: settings.brandname,
          SmsType: '2',
          IsUnicode: needsUnicode(message.text) ? '1' : '0',
        }),
      });
      const body = (await readJson(response)) as { CodeResult?: unknown; ErrorMessage?: unknown } | undefined;
      if (response.ok && String(body?.CodeResult) === '100') return;
      throw new SmsSendError('esms', `HTTP ${response.status}, CodeResult ${clip(body?.CodeResult ?? 'none')}: ${clip(body?.ErrorMessage ?? 'no error message')}`);
    },
  };
}
