import type { FastifyRequest } from 'fastify';
import { ErrorCode, normalizeUsername, type Capability, type Locale, type UsernameKind } from '@passgate/contract';
import type { Logger } from 'pino';
import { ApiError } from '../../plugins/errors.ts';
import { localeFromAcceptLanguage } from '../../messaging/templates/templates.ts';
import { parseCookieHeader } from '../../lib/cookies.ts';
import { BROWSER_KEY_COOKIE } from '../known-browsers/new-browser-notice.ts';
import { classifyClientUsername } from '../clients/client-username.ts';
import type { FlowClient } from './flow-client.ts';
import type { RequestMeta } from './login-flow.service.ts';

/** Who is asking: address, browser, and the language of the screen (Accept-Language). */
export interface VisitorMeta extends RequestMeta {
  locale: Locale;
}

export function visitorMeta(request: FastifyRequest): VisitorMeta {
  return {
    ip: request.ip,
    userAgent: request.headers['user-agent'],
    browser: request.browser,
    browserKey: parseCookieHeader(request.headers.cookie).get(BROWSER_KEY_COOKIE),
    locale: localeFromAcceptLanguage(request.headers['accept-language']),
  };
}

const CAPABILITY: Record<'login' | 'register', Record<UsernameKind, Capability>> = {
  login: { email: 'users:email:login', phone: 'users:phoneNumber:login' },
  register: { email: 'users:email:register', phone: 'users:phoneNumber:register' },
};

/** The kinds of username (e-mail, phone) the client may use to sign in or to register. */
export function usernameKinds(flow: FlowClient, action: 'login' | 'register'): UsernameKind[] {
  return (['email', 'phone'] as const).filter((kind) => flow.capabilities.has(CAPABILITY[action][kind]));
}

export interface VisitorUsername {
  /** Normalized: e-mail addresses in lower case. */
  username: string;
  kind: UsernameKind;
}

/**
 * A username checked against the allowed kinds and the client's username policy (SPEC.md section
 * 5): 1016 (e-mail) or 1015 (phone) '{{username}} has an invalid format' on the field username.
 * With `requireCapability`, a kind the client may not use answers 1301 first.
 */
export function checkUsername(
  log: Pick<Logger, 'warn'>,
  flow: FlowClient,
  raw: string,
  kinds: UsernameKind[],
  options: { requireCapability?: boolean } = {},
): VisitorUsername {
  const username = normalizeUsername(raw);
  const kind: UsernameKind = username.includes('@') ? 'email' : 'phone';
  if (options.requireCapability && !kinds.includes(kind)) throw new ApiError(ErrorCode.ClientLacksPermission, 403, 'username');
  if (!classifyClientUsername(log, flow.client, username, kinds)) {
    throw new ApiError(invalidUsernameCode(username, kinds), 400, 'username', `${raw} has an invalid format`);
  }
  return { username, kind };
}

/**
 * Which of SPEC.md's codes a malformed username gets: the e-mail's when it has an '@', the phone's
 * when it is made of a phone's characters, else the one of the only kind the screen takes, and
 * 'phone or e-mail not valid' (1014) when it takes both.
 */
function invalidUsernameCode(username: string, kinds: readonly UsernameKind[]): ErrorCode {
  if (username.includes('@')) return ErrorCode.EmailInvalid;
  if (/^[+\d\s().-]+$/.test(username)) return ErrorCode.PhoneInvalid;
  if (kinds.length === 1) return kinds[0] === 'email' ? ErrorCode.EmailInvalid : ErrorCode.PhoneInvalid;
  return ErrorCode.UsernameInvalid;
}
