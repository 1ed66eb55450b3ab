import type { SmsSender } from '../messages.ts';
import { clip, postWithTimeout, readJson, SmsSendError } from './http.ts';
import { toE164 } from './phone.ts';

export interface TwilioSettings {
  baseUrl: string;
  accountSid: string;
  authToken: string;
  /** A sending number (E.164) or, when it starts with MG, a Messaging Service SID. */
  from: string;
}

/**
 * Twilio's Messages API: POST /2010-04-01/Accounts/{sid}/Messages.json, HTTP Basic (SID and auth
 * token), form fields To, Body and From (or MessagingServiceSid). 201 with a message sid is a
 * success; anything else is an error naming Twilio's code and message, never the text sent.
 */
export function twilioSmsSender(settings: TwilioSettings): SmsSender {
  const url = `${settings.baseUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`;
  return {
    async send(message) {
      const form = new URLSearchParams({ To: toE164(message.to), Body: message.text });
      if (/^MG[0-9a-f]{32}$/i.test(settings.from)) form.set('MessagingServiceSid', settings.from);
      else form.set('From', settings.from);
      const response = await postWithTimeout('twilio', url, {
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
      });
      const body = (await readJson(response)) as { sid?: unknown; code?: unknown; message?: unknown; error_code?: unknown; error_message?: unknown } | undefined;
      if (response.status === 201 && typeof body?.sid === 'string' && !body.error_code) return;
      const code = body?.code ?? body?.error_code ?? 'unknown';
      const text = body?.message ?? body?.error_message ?? 'no error message';
      throw new SmsSendError('twilio', `HTTP ${response.status}, code ${clip(code)}: ${clip(text)}`);
    },
  };
}
