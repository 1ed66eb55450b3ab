import { DEFAULT_PASSWORD_POLICY } from '@passgate/contract';
import type { TenantRecord } from '../features/tenants/tenants.queries.ts';
import type { ClientView } from '../features/clients/clients.service.ts';
import type { AdminInputProblem } from '../features/admin-input-error.ts';

/**
 * How a flag's text becomes a value:
 * - text: as given;
 * - nullable: as given, '' clears it (null);
 * - optional: as given, '' removes it (a key of a nested setting such as the theme);
 * - bool: true or false;
 * - int / nullableInt: a whole number ('' or 'none' clears a nullable one);
 * - list: comma-separated, '' is the empty list.
 */
export type FlagKind = 'text' | 'nullable' | 'optional' | 'bool' | 'int' | 'nullableInt' | 'list';

export interface FlagSpec {
  flag: string;
  /** Dotted path of the field in the service's input. */
  field: string;
  kind: FlagKind;
  help: string;
  /** Never echoed back in messages. */
  secret?: boolean;
}

export const TENANT_FLAGS: FlagSpec[] = [
  { flag: 'id', field: 'id', kind: 'text', help: 'tenant id: lowercase letters, digits, - and _' },
  { flag: 'name', field: 'name', kind: 'text', help: 'display name' },
  { flag: 'brand-name', field: 'brandName', kind: 'nullable', help: 'brand shown in terms and privacy texts' },
  { flag: 'terms-uri', field: 'termsUri', kind: 'nullable', help: 'terms of use URL' },
  { flag: 'privacy-uri', field: 'privacyUri', kind: 'nullable', help: 'privacy policy URL' },
  { flag: 'passwordless-allowed', field: 'passwordlessAuthenticationAllowed', kind: 'bool', help: 'sign-in by phone and code' },
  { flag: 'password-based-allowed', field: 'passwordBasedAuthenticationAllowed', kind: 'bool', help: 'sign-in by password' },
  { flag: 'registration-allowed', field: 'registrationAllowed', kind: 'bool', help: 'registration' },
  { flag: 'reset-password-allowed', field: 'resetPasswordAllowed', kind: 'bool', help: 'password recovery' },
  { flag: 'webauthn-allowed', field: 'webauthnAllowed', kind: 'bool', help: 'devices (WebAuthn)' },
  { flag: 'password-min-length', field: 'passwordPolicy.minLength', kind: 'int', help: 'password policy: minimum length (default 6)' },
  { flag: 'password-uppercase', field: 'passwordPolicy.uppercase', kind: 'int', help: 'password policy: minimum uppercase letters' },
  { flag: 'password-number', field: 'passwordPolicy.number', kind: 'int', help: 'password policy: minimum digits' },
  { flag: 'password-special', field: 'passwordPolicy.special', kind: 'int', help: 'password policy: minimum special characters' },
  { flag: 'password-max-age-days', field: 'passwordMaxAgeDays', kind: 'nullableInt', help: "days a password stays valid ('none': never expires)" },
  { flag: 'password-warning-days', field: 'passwordWarningDays', kind: 'nullableInt', help: 'days before expiry during which sign-in warns' },
  { flag: 'password-history-size', field: 'passwordHistorySize', kind: 'int', help: 'how many previous passwords may not be reused' },
  { flag: 'remember-browser-days', field: 'rememberBrowserDays', kind: 'int', help: "2-step screen's 'Don't ask again on this browser for N days' (1..365; 0: off, the default)" },
  { flag: 'custom-checkbox-name', field: 'customRegisterCheckbox.name', kind: 'optional', help: "text of the custom registration checkbox ('' removes it)" },
  { flag: 'custom-checkbox-name-vi', field: 'customRegisterCheckbox.nameI18n.vi', kind: 'optional', help: 'that text in Vietnamese, when it differs' },
  { flag: 'custom-checkbox-name-en', field: 'customRegisterCheckbox.nameI18n.en', kind: 'optional', help: 'that text in English, when it differs' },
  { flag: 'custom-checkbox-term-url', field: 'customRegisterCheckbox.termUrl', kind: 'optional', help: 'terms link of the custom checkbox' },
  { flag: 'custom-checkbox-policy-url', field: 'customRegisterCheckbox.policyUrl', kind: 'optional', help: 'policy link of the custom checkbox' },
];

export const CLIENT_FLAGS: FlagSpec[] = [
  { flag: 'id', field: 'id', kind: 'text', help: 'client id: letters, digits, ., - and _' },
  { flag: 'tenant', field: 'tenantId', kind: 'text', help: 'tenant the client belongs to' },
  { flag: 'name', field: 'name', kind: 'text', help: 'client name' },
  { flag: 'logo-uri', field: 'logoUri', kind: 'nullable', help: 'logo URL' },
  { flag: 'primary-color', field: 'theme.primaryColor', kind: 'optional', help: 'theme: primary colour, #RRGGBB' },
  { flag: 'background-color', field: 'theme.backgroundColor', kind: 'optional', help: 'theme: background colour, #RRGGBB' },
  { flag: 'background-image-uri', field: 'theme.backgroundImageUri', kind: 'optional', help: 'theme: background image URL' },
  { flag: 'button-color', field: 'theme.buttonColor', kind: 'optional', help: 'theme: button colour, #RRGGBB' },
  { flag: 'title', field: 'theme.title', kind: 'optional', help: 'theme: page title' },
  { flag: 'icon-uri', field: 'theme.iconUri', kind: 'optional', help: 'theme: icon URL' },
  { flag: 'hyperlink', field: 'theme.hyperlink', kind: 'optional', help: 'theme: link shown on the sign-in pages' },
  { flag: 'hyperlinked-text', field: 'theme.hyperlinkedText', kind: 'optional', help: 'theme: text of that link' },
  { flag: 'hyperlinked-text-vi', field: 'theme.hyperlinkedTextI18n.vi', kind: 'optional', help: 'theme: that text in Vietnamese, when it differs' },
  { flag: 'hyperlinked-text-en', field: 'theme.hyperlinkedTextI18n.en', kind: 'optional', help: 'theme: that text in English, when it differs' },
  { flag: 'default-locale', field: 'i18n.defaultLocale', kind: 'optional', help: 'vi or en' },
  { flag: 'permissions', field: 'permissions', kind: 'list', help: "capabilities, comma-separated ('': every capability)" },
  { flag: 'google-app-id', field: 'googleAppId', kind: 'nullable', help: 'Google sign-in app id' },
  { flag: 'facebook-app-id', field: 'facebookAppId', kind: 'nullable', help: 'Facebook sign-in app id' },
  { flag: 'facebook-app-secret', field: 'facebookAppSecret', kind: 'nullable', help: "Facebook app secret, to check Facebook tokens (stored encrypted; '' removes it)", secret: true },
  { flag: 'email-allowed-domains', field: 'usernamePolicy.email.allowedDomains', kind: 'list', help: 'username policy: allowed e-mail domains, comma-separated' },
  { flag: 'email-regex', field: 'usernamePolicy.email.regexValidation', kind: 'optional', help: 'username policy: regular expression for e-mail addresses (run in linear time: no backreferences or lookarounds)' },
  { flag: 'phone-regex', field: 'usernamePolicy.phone.regexValidation', kind: 'optional', help: 'username policy: regular expression for phone numbers (run in linear time: no backreferences or lookarounds)' },
  { flag: 'recaptcha-enabled', field: 'recaptcha.enabled', kind: 'bool', help: 'reCAPTCHA on register, activation resend, password recovery and reset, passwordless code sends' },
  { flag: 'recaptcha-site-key', field: 'recaptcha.siteKey', kind: 'optional', help: 'reCAPTCHA site key' },
  { flag: 'recaptcha-secret', field: 'recaptcha.secret', kind: 'optional', help: 'reCAPTCHA secret (stored encrypted)', secret: true },
  { flag: 'terms-brand-name', field: 'termsPrivacy.brandName', kind: 'optional', help: 'brand name in the terms and privacy texts' },
  { flag: 'terms-uri', field: 'termsPrivacy.termsUri', kind: 'optional', help: 'terms of use URL' },
  { flag: 'privacy-uri', field: 'termsPrivacy.privacyUri', kind: 'optional', help: 'privacy policy URL' },
  { flag: 'redirect-uris', field: 'redirectUris', kind: 'list', help: 'OIDC redirect URIs, comma-separated' },
  { flag: 'post-logout-redirect-uris', field: 'postLogoutRedirectUris', kind: 'list', help: 'OIDC post-logout redirect URIs, comma-separated' },
  { flag: 'client-uri', field: 'clientUri', kind: 'nullable', help: "the application's home page: where the sign-in screens lead back to ('' removes it)" },
  { flag: 'initiate-login-uri', field: 'initiateLoginUri', kind: 'nullable', help: "where the application starts a new sign-in; preferred over --client-uri ('' removes it)" },
  { flag: 'backchannel-logout-uri', field: 'backchannelLogoutUri', kind: 'nullable', help: "where a logout token is posted when a session of the application ends (https recommended, http accepted; '' removes it)" },
  { flag: 'backchannel-logout-session-required', field: 'backchannelLogoutSessionRequired', kind: 'bool', help: "logout tokens carry the session's sid (default false)" },
  { flag: 'grant-types', field: 'grantTypes', kind: 'list', help: 'authorization_code,refresh_token (default both)' },
  { flag: 'auth-method', field: 'tokenEndpointAuthMethod', kind: 'text', help: 'none (public) | client_secret_basic (default) | client_secret_post' },
  { flag: 'secret', field: 'secret', kind: 'text', help: 'client secret, stored hashed (create also reads PASSGATE_CLIENT_SECRET); generated when omitted', secret: true },
];

export const USER_FLAGS: FlagSpec[] = [
  { flag: 'tenant', field: 'tenantId', kind: 'text', help: 'tenant of the user' },
  { flag: 'email', field: 'email', kind: 'text', help: 'e-mail address' },
  { flag: 'phone', field: 'phoneNumber', kind: 'text', help: 'phone number (10 digits)' },
  { flag: 'name', field: 'name', kind: 'text', help: 'full name' },
  { flag: 'status', field: 'status', kind: 'text', help: 'pending | active (default) | disabled' },
  { flag: 'username', field: 'username', kind: 'text', help: 'e-mail address or phone number of the user' },
  { flag: 'password', field: 'password', kind: 'text', help: 'password (better: the PASSGATE_PASSWORD environment variable)', secret: true },
];

type Values = Record<string, string | boolean | undefined>;
type Obj = Record<string, unknown>;

/** The existing settings nested flags are merged into, so `--primary-color` keeps the rest of the theme. */
export function tenantBase(tenant?: TenantRecord): Obj {
  return {
    passwordPolicy: { ...(tenant?.passwordPolicy ?? DEFAULT_PASSWORD_POLICY) },
    customRegisterCheckbox: { ...(tenant?.customRegisterCheckbox ?? {}) },
  };
}

export function clientBase(client?: ClientView): Obj {
  return {
    theme: { ...(client?.theme ?? {}) },
    i18n: { ...(client?.i18n ?? {}) },
    termsPrivacy: { ...(client?.termsPrivacy ?? {}) },
    usernamePolicy: structuredClone(client?.usernamePolicy ?? {}),
    recaptcha: client ? { enabled: client.recaptcha.enabled, ...(client.recaptcha.siteKey ? { siteKey: client.recaptcha.siteKey } : {}) } : { enabled: false },
  };
}

function parseValue(spec: FlagSpec, raw: string): { value: unknown } | { problem: string } {
  switch (spec.kind) {
    case 'text':
      return { value: raw };
    case 'nullable':
      return { value: raw.trim() === '' ? null : raw };
    case 'optional':
      return { value: raw.trim() === '' ? undefined : raw };
    case 'bool':
      return raw === 'true' ? { value: true } : raw === 'false' ? { value: false } : { problem: `must be true or false (got '${raw}')` };
    case 'int':
    case 'nullableInt':
      if (spec.kind === 'nullableInt' && (raw.trim() === '' || raw.trim() === 'none')) return { value: null };
      return /^\d{1,9}$/.test(raw.trim()) ? { value: Number.parseInt(raw.trim(), 10) } : { problem: `must be a whole number (got '${raw}')` };
    case 'list':
      return { value: raw.split(',').map((s) => s.trim()).filter(Boolean) };
  }
}

function setPath(target: Obj, path: string[], value: unknown): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (rest.length === 0) {
    if (value === undefined) delete target[head];
    else target[head] = value;
    return;
  }
  const next = target[head];
  const child: Obj = next && typeof next === 'object' ? (next as Obj) : {};
  target[head] = child;
  setPath(child, rest, value);
}

/** Drops empty nested objects; an emptied policy becomes null. */
function prune(value: Obj): Obj {
  for (const [k, v] of Object.entries(value)) {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      prune(v as Obj);
      if (Object.keys(v).length === 0) delete value[k];
    }
  }
  return value;
}

/**
 * The service input for the flags given: nested settings start from `base` (the defaults, or the
 * record being updated). Returns the problems with the flags' own format (bad booleans, numbers).
 */
export function buildInput(specs: FlagSpec[], values: Values, base: Obj): { input: Obj; problems: AdminInputProblem[] } {
  const input: Obj = {};
  const problems: AdminInputProblem[] = [];
  for (const spec of specs) {
    const raw = values[spec.flag];
    if (typeof raw !== 'string') continue;
    const parsed = parseValue(spec, raw);
    if ('problem' in parsed) {
      problems.push({ field: spec.field, message: parsed.problem });
      continue;
    }
    const path = spec.field.split('.');
    const group = path[0] as string;
    if (path.length > 1 && !(group in input)) input[group] = structuredClone(base[group] ?? {});
    setPath(input, path, parsed.value);
  }

  if ('customRegisterCheckbox' in input) {
    const box = input.customRegisterCheckbox as Obj;
    if (Object.keys(box).length === 0 || (box.name === undefined && values['custom-checkbox-name'] === '')) input.customRegisterCheckbox = null;
    else if (box.name === undefined) problems.push({ field: 'customRegisterCheckbox.name', message: 'is required for a custom registration checkbox' });
  }
  if ('usernamePolicy' in input) {
    const policy = prune(input.usernamePolicy as Obj);
    if (Object.keys(policy).length === 0) input.usernamePolicy = null;
  }
  return { input, problems };
}

/** The flag a problem's field came from, for messages that name what the operator typed. */
export function flagFor(specs: FlagSpec[], field: string): FlagSpec | undefined {
  return (
    specs.find((s) => s.field === field) ??
    specs.find((s) => field.startsWith(`${s.field}.`)) ??
    specs.find((s) => s.field.startsWith(`${field}.`))
  );
}

/** One line per problem, naming the flag and, when it is not a secret, the value it was given. */
export function describeProblems(specs: FlagSpec[], problems: AdminInputProblem[], values: Values, extra: Record<string, string> = {}): string[] {
  return problems.map((problem) => {
    if (problem.field === '(input)') return problem.message;
    const spec = flagFor(specs, problem.field);
    if (!spec) return `${extra[problem.field] ?? problem.field}: ${problem.message}`;
    const name = extra[problem.field] ?? `--${spec.flag}`;
    const raw = values[spec.flag];
    let got = '';
    if (!spec.secret && typeof raw === 'string' && !problem.message.includes('(got ') && !problem.message.includes(raw.trim())) {
      if (spec.field === problem.field && spec.kind !== 'list') got = ` (got '${raw}')`;
      const index = problem.field.slice(spec.field.length + 1);
      if (spec.kind === 'list' && /^\d+$/.test(index)) got = ` (got '${raw.split(',').map((s) => s.trim()).filter(Boolean)[Number(index)] ?? ''}')`;
    }
    return `${name}: ${problem.message}${got}`;
  });
}
