// The console is a chunk of its own (never part of /login's first load): it checks its forms with
// the contract's own zod schemas, so the form and the API agree.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports
import { clientUpdateSchema } from '@passgate/contract';
import type { AdminClient, Capability, PublicClient, Tenant, Theme, UsernamePolicy } from '@passgate/contract';
import { HEX_COLOUR_PATTERN } from '@passgate/contract/rules';

export type { AdminClient } from '@passgate/contract';

export const GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;
export const AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

export interface ThemeValues {
  primaryColor: string;
  buttonColor: string;
  backgroundColor: string;
  backgroundImageUri: string;
  title: string;
  iconUri: string;
  hyperlink: string;
  hyperlinkedText: string;
  hyperlinkedTextVi: string;
  hyperlinkedTextEn: string;
}

/** What the client form edits: text fields as typed (lists one per line), secrets write-only (empty: unchanged). */
export interface ClientFormValues {
  name: string;
  logoUri: string;
  redirectUris: string;
  postLogoutRedirectUris: string;
  clientUri: string;
  initiateLoginUri: string;
  backchannelLogoutUri: string;
  backchannelLogoutSessionRequired: boolean;
  grantTypes: string[];
  tokenEndpointAuthMethod: AuthMethod;
  /** Empty: every capability (SPEC.md section 3). */
  permissions: Capability[];
  googleAppId: string;
  facebookAppId: string;
  facebookAppSecret: string;
  removeFacebookAppSecret: boolean;
  recaptchaEnabled: boolean;
  recaptchaSiteKey: string;
  recaptchaSecret: string;
  emailDomains: string;
  emailRegex: string;
  phoneRegex: string;
  brandName: string;
  termsUri: string;
  privacyUri: string;
  defaultLocale: '' | 'vi' | 'en';
  theme: ThemeValues;
}

export type ClientFormField = Exclude<keyof ClientFormValues, 'theme'> | `theme.${keyof ThemeValues}`;
export type ClientFormErrors = Partial<Record<ClientFormField, string>>;

const lines = (text: string) =>
  text
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter(Boolean);
const orNull = (text: string) => text.trim() || null;
const orUndefined = (text: string) => text.trim() || undefined;

export function themeValues(theme: Theme): ThemeValues {
  return {
    primaryColor: theme.primaryColor ?? '',
    buttonColor: theme.buttonColor ?? '',
    backgroundColor: theme.backgroundColor ?? '',
    backgroundImageUri: theme.backgroundImageUri ?? '',
    title: theme.title ?? '',
    iconUri: theme.iconUri ?? '',
    hyperlink: theme.hyperlink ?? '',
    hyperlinkedText: theme.hyperlinkedText ?? '',
    hyperlinkedTextVi: theme.hyperlinkedTextI18n?.vi ?? '',
    hyperlinkedTextEn: theme.hyperlinkedTextI18n?.en ?? '',
  };
}

export function formValues(client: AdminClient): ClientFormValues {
  return {
    name: client.name,
    logoUri: client.logoUri ?? '',
    redirectUris: client.redirectUris.join('\n'),
    postLogoutRedirectUris: client.postLogoutRedirectUris.join('\n'),
    clientUri: client.clientUri ?? '',
    initiateLoginUri: client.initiateLoginUri ?? '',
    backchannelLogoutUri: client.backchannelLogoutUri ?? '',
    backchannelLogoutSessionRequired: client.backchannelLogoutSessionRequired,
    grantTypes: client.grantTypes,
    tokenEndpointAuthMethod: (AUTH_METHODS as readonly string[]).includes(client.tokenEndpointAuthMethod) ? (client.tokenEndpointAuthMethod as AuthMethod) : 'client_secret_basic',
    permissions: client.permissions as Capability[],
    googleAppId: client.googleAppId ?? '',
    facebookAppId: client.facebookAppId ?? '',
    facebookAppSecret: '',
    removeFacebookAppSecret: false,
    recaptchaEnabled: client.recaptcha.enabled,
    recaptchaSiteKey: client.recaptcha.siteKey ?? '',
    recaptchaSecret: '',
    emailDomains: (client.usernamePolicy?.email?.allowedDomains ?? []).join(', '),
    emailRegex: client.usernamePolicy?.email?.regexValidation ?? '',
    phoneRegex: client.usernamePolicy?.phone?.regexValidation ?? '',
    brandName: client.termsPrivacy.brandName ?? '',
    termsUri: client.termsPrivacy.termsUri ?? '',
    privacyUri: client.termsPrivacy.privacyUri ?? '',
    defaultLocale: client.i18n.defaultLocale ?? '',
    theme: themeValues(client.theme),
  };
}

/** The theme as the contract has it: empty fields left out. */
export function themeOf(values: ThemeValues): Theme {
  const theme: Theme = {};
  const set = <K extends keyof Theme>(key: K, value: string) => {
    const trimmed = value.trim();
    if (trimmed) theme[key] = trimmed as Theme[K];
  };
  set('primaryColor', values.primaryColor);
  set('buttonColor', values.buttonColor);
  set('backgroundColor', values.backgroundColor);
  set('backgroundImageUri', values.backgroundImageUri);
  set('title', values.title);
  set('iconUri', values.iconUri);
  set('hyperlink', values.hyperlink);
  set('hyperlinkedText', values.hyperlinkedText);
  const vi = values.hyperlinkedTextVi.trim();
  const en = values.hyperlinkedTextEn.trim();
  if (vi || en) theme.hyperlinkedTextI18n = { ...(vi ? { vi } : {}), ...(en ? { en } : {}) };
  return theme;
}

function usernamePolicyOf(values: ClientFormValues): UsernamePolicy | null {
  const domains = lines(values.emailDomains);
  const email = { ...(domains.length ? { allowedDomains: domains } : {}), ...(values.emailRegex.trim() ? { regexValidation: values.emailRegex.trim() } : {}) };
  const phone = values.phoneRegex.trim() ? { regexValidation: values.phoneRegex.trim() } : undefined;
  if (!Object.keys(email).length && !phone) return null;
  return { ...(Object.keys(email).length ? { email } : {}), ...(phone ? { phone } : {}) };
}

/** A client's answer: the client alone, or with a secret generated this once. */
export function clientOfAnswer(answer: AdminClient | { client: AdminClient; clientSecret?: string }): { client: AdminClient; secret: string | null } {
  return 'client' in answer ? { client: answer.client, secret: answer.clientSecret ?? null } : { client: answer, secret: null };
}

/** The PATCH (or create) body of the admin API for the form's values; secrets only when typed. */
export function clientBody(values: ClientFormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: values.name.trim(),
    logoUri: orNull(values.logoUri),
    theme: themeOf(values.theme),
    i18n: values.defaultLocale ? { defaultLocale: values.defaultLocale } : {},
    permissions: values.permissions,
    googleAppId: orNull(values.googleAppId),
    facebookAppId: orNull(values.facebookAppId),
    usernamePolicy: usernamePolicyOf(values),
    recaptcha: {
      enabled: values.recaptchaEnabled,
      ...(values.recaptchaSiteKey.trim() ? { siteKey: values.recaptchaSiteKey.trim() } : {}),
      ...(values.recaptchaSecret.trim() ? { secret: values.recaptchaSecret.trim() } : {}),
    },
    termsPrivacy: { brandName: orUndefined(values.brandName), termsUri: orUndefined(values.termsUri), privacyUri: orUndefined(values.privacyUri) },
    redirectUris: lines(values.redirectUris),
    postLogoutRedirectUris: lines(values.postLogoutRedirectUris),
    clientUri: orNull(values.clientUri),
    initiateLoginUri: orNull(values.initiateLoginUri),
    backchannelLogoutUri: orNull(values.backchannelLogoutUri),
    backchannelLogoutSessionRequired: values.backchannelLogoutSessionRequired,
    grantTypes: values.grantTypes,
    tokenEndpointAuthMethod: values.tokenEndpointAuthMethod,
  };
  if (values.removeFacebookAppSecret) body.facebookAppSecret = null;
  else if (values.facebookAppSecret.trim()) body.facebookAppSecret = values.facebookAppSecret.trim();
  return body;
}

/** Maps a body path the API or the contract names ("recaptcha.siteKey", "redirectUris.1") to the form's field. */
export function formFieldOf(path: string): ClientFormField | null {
  const [head, next] = path.split('.');
  switch (head) {
    case 'theme':
      if (next === 'hyperlinkedTextI18n') return path.endsWith('.en') ? 'theme.hyperlinkedTextEn' : 'theme.hyperlinkedTextVi';
      return next ? (`theme.${next}` as ClientFormField) : null;
    case 'recaptcha':
      return next === 'secret' ? 'recaptchaSecret' : next === 'siteKey' ? 'recaptchaSiteKey' : 'recaptchaEnabled';
    case 'usernamePolicy':
      return path.includes('phone') ? 'phoneRegex' : path.includes('allowedDomains') ? 'emailDomains' : 'emailRegex';
    case 'termsPrivacy':
      return next === 'termsUri' ? 'termsUri' : next === 'privacyUri' ? 'privacyUri' : 'brandName';
    case 'i18n':
      return 'defaultLocale';
    case 'facebookAppSecret':
      return 'facebookAppSecret';
    case undefined:
      return null;
    default:
      return head in EMPTY_FORM ? (head as ClientFormField) : null;
  }
}

/** Whether a redirect URI is one the provider accepts: absolute http(s), no fragment (OAuth 2.0, RFC 6749 section 3.1.2). */
export function redirectUriProblem(uri: string): 'invalid' | 'fragment' | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'invalid';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'invalid';
  if (url.hash || uri.includes('#')) return 'fragment';
  return null;
}

export type ProblemKind = 'required' | 'invalidUrl' | 'fragment' | 'colour' | 'regex' | 'tooMany' | 'invalid' | 'needed';
export type ClientFormProblems = Partial<Record<ClientFormField, { kind: ProblemKind; detail?: string }>>;

/**
 * What the form can tell before asking the server: the contract's own rules (clientUpdateSchema),
 * the provider's rules for redirect URIs, colours, and regular expressions that compile.
 */
export function validateClientForm(values: ClientFormValues, existing: { facebookSecretSet: boolean; recaptchaSecretSet: boolean }): ClientFormProblems {
  const problems: ClientFormProblems = {};
  const add = (field: ClientFormField, kind: ProblemKind, detail?: string) => {
    if (!problems[field]) problems[field] = { kind, ...(detail ? { detail } : {}) };
  };

  if (!values.name.trim()) add('name', 'required');
  const redirects = lines(values.redirectUris);
  if (redirects.length === 0) add('redirectUris', 'required');
  if (redirects.length > 20) add('redirectUris', 'tooMany');
  for (const uri of redirects) {
    const problem = redirectUriProblem(uri);
    if (problem) add('redirectUris', problem === 'invalid' ? 'invalidUrl' : problem, uri);
  }
  const postLogout = lines(values.postLogoutRedirectUris);
  if (postLogout.length > 20) add('postLogoutRedirectUris', 'tooMany');
  for (const uri of postLogout) {
    const problem = redirectUriProblem(uri);
    if (problem) add('postLogoutRedirectUris', problem === 'invalid' ? 'invalidUrl' : problem, uri);
  }
  for (const key of ['primaryColor', 'buttonColor', 'backgroundColor'] as const) {
    const colour = values.theme[key].trim();
    if (colour && !HEX_COLOUR_PATTERN.test(colour)) add(`theme.${key}`, 'colour', colour);
  }
  for (const [field, source] of [
    ['emailRegex', values.emailRegex],
    ['phoneRegex', values.phoneRegex],
  ] as const) {
    if (!source.trim()) continue;
    try {
      new RegExp(source);
    } catch {
      add(field, 'regex');
    }
  }
  if (values.grantTypes.length === 0) add('grantTypes', 'required');
  if (values.recaptchaEnabled) {
    if (!values.recaptchaSiteKey.trim()) add('recaptchaSiteKey', 'needed');
    if (!values.recaptchaSecret.trim() && !existing.recaptchaSecretSet) add('recaptchaSecret', 'needed');
  }

  // The rest by the contract's schema, so the form and the API never disagree.
  const parsed = clientUpdateSchema.safeParse(clientBody(values));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = formFieldOf(issue.path.map(String).join('.'));
      if (!field) continue;
      const isUrl = /url|uri/i.test(String(issue.path[issue.path.length - 1] ?? '')) || issue.code === 'invalid_format';
      add(field, isUrl ? 'invalidUrl' : 'invalid');
    }
  }
  return problems;
}

export const EMPTY_THEME: ThemeValues = themeValues({});

export const EMPTY_FORM: ClientFormValues = {
  name: '',
  logoUri: '',
  redirectUris: '',
  postLogoutRedirectUris: '',
  clientUri: '',
  initiateLoginUri: '',
  backchannelLogoutUri: '',
  backchannelLogoutSessionRequired: false,
  grantTypes: ['authorization_code', 'refresh_token'],
  tokenEndpointAuthMethod: 'client_secret_basic',
  permissions: [],
  googleAppId: '',
  facebookAppId: '',
  facebookAppSecret: '',
  removeFacebookAppSecret: false,
  recaptchaEnabled: false,
  recaptchaSiteKey: '',
  recaptchaSecret: '',
  emailDomains: '',
  emailRegex: '',
  phoneRegex: '',
  brandName: '',
  termsUri: '',
  privacyUri: '',
  defaultLocale: '',
  theme: EMPTY_THEME,
};

/**
 * The client's public face as the Login screen receives it, from the form's current values: the
 * preview shows what its users would see (its tenant's switches decide which ways in there are).
 */
export function previewClient(clientId: string, values: ClientFormValues, tenant: Tenant): PublicClient {
  const theme = themeOf(values.theme);
  // A half-typed colour is left out of the preview rather than breaking it.
  for (const key of ['primaryColor', 'buttonColor', 'backgroundColor'] as const) {
    if (theme[key] && !HEX_COLOUR_PATTERN.test(theme[key])) delete theme[key];
  }
  for (const key of ['backgroundImageUri', 'iconUri', 'hyperlink'] as const) {
    if (theme[key] && !isHttpUrl(theme[key])) delete theme[key];
  }
  const logo = values.logoUri.trim();
  return {
    clientId,
    clientName: values.name.trim() || clientId,
    logoUri: logo && isHttpUrl(logo) ? logo : null,
    theme,
    i18n: values.defaultLocale ? { defaultLocale: values.defaultLocale } : {},
    permissions: values.permissions,
    ggApp: values.googleAppId.trim() ? { clientId: values.googleAppId.trim() } : null,
    fbApp: values.facebookAppId.trim() ? { clientId: values.facebookAppId.trim() } : null,
    tenantId: tenant.id,
    tenant,
    usernamePolicy: usernamePolicyOf(values),
    recaptchaConfiguration: { enabled: false },
    termsPrivacy: {},
    homeUri: null,
  };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
