// The console is a chunk of its own (never part of /login's first load): the contract's schema checks its form.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports
import { tenantUpdateSchema } from '@passgate/contract';
import type { AdminTenant } from '@passgate/contract';

export type { AdminTenant } from '@passgate/contract';

export const TENANT_SWITCHES = [
  'passwordBasedAuthenticationAllowed',
  'passwordlessAuthenticationAllowed',
  'registrationAllowed',
  'resetPasswordAllowed',
  'webauthnAllowed',
] as const;
export type TenantSwitch = (typeof TENANT_SWITCHES)[number];

export interface TenantFormValues extends Record<TenantSwitch, boolean> {
  id: string;
  name: string;
  brandName: string;
  termsUri: string;
  privacyUri: string;
  minLength: string;
  uppercase: string;
  number: string;
  special: string;
  passwordMaxAgeDays: string;
  passwordWarningDays: string;
  passwordHistorySize: string;
  rememberBrowserDays: string;
  customCheckbox: boolean;
  customName: string;
  customNameVi: string;
  customNameEn: string;
  customTermUrl: string;
  customPolicyUrl: string;
}

export type TenantFormField = keyof TenantFormValues;
export type TenantProblem = { kind: 'required' | 'invalidUrl' | 'number' | 'range' | 'warningBeforeExpiry' | 'slug' | 'invalid'; min?: number; max?: number };
export type TenantProblems = Partial<Record<TenantFormField, TenantProblem>>;

export const NEW_TENANT: TenantFormValues = {
  id: '',
  name: '',
  brandName: '',
  termsUri: '',
  privacyUri: '',
  passwordBasedAuthenticationAllowed: true,
  passwordlessAuthenticationAllowed: false,
  registrationAllowed: true,
  resetPasswordAllowed: true,
  webauthnAllowed: false,
  minLength: '8',
  uppercase: '0',
  number: '0',
  special: '0',
  passwordMaxAgeDays: '',
  passwordWarningDays: '',
  passwordHistorySize: '0',
  rememberBrowserDays: '',
  customCheckbox: false,
  customName: '',
  customNameVi: '',
  customNameEn: '',
  customTermUrl: '',
  customPolicyUrl: '',
};

export function tenantFormValues(tenant: AdminTenant): TenantFormValues {
  const custom = tenant.customRegisterCheckbox;
  return {
    id: tenant.id,
    name: tenant.name,
    brandName: tenant.brandName ?? '',
    termsUri: tenant.termsUri ?? '',
    privacyUri: tenant.privacyUri ?? '',
    passwordBasedAuthenticationAllowed: tenant.passwordBasedAuthenticationAllowed,
    passwordlessAuthenticationAllowed: tenant.passwordlessAuthenticationAllowed,
    registrationAllowed: tenant.registrationAllowed,
    resetPasswordAllowed: tenant.resetPasswordAllowed,
    webauthnAllowed: tenant.webauthnAllowed,
    minLength: String(tenant.passwordPolicy.minLength),
    uppercase: String(tenant.passwordPolicy.uppercase),
    number: String(tenant.passwordPolicy.number),
    special: String(tenant.passwordPolicy.special),
    passwordMaxAgeDays: tenant.passwordMaxAgeDays === null ? '' : String(tenant.passwordMaxAgeDays),
    passwordWarningDays: tenant.passwordWarningDays === null ? '' : String(tenant.passwordWarningDays),
    passwordHistorySize: String(tenant.passwordHistorySize),
    rememberBrowserDays: tenant.rememberBrowserDays ? String(tenant.rememberBrowserDays) : '',
    customCheckbox: custom !== null,
    customName: custom?.name ?? '',
    customNameVi: custom?.nameI18n?.vi ?? '',
    customNameEn: custom?.nameI18n?.en ?? '',
    customTermUrl: custom?.termUrl ?? '',
    customPolicyUrl: custom?.policyUrl ?? '',
  };
}

const whole = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);
const orNull = (text: string) => text.trim() || null;
const orUndefined = (text: string) => text.trim() || undefined;

/** The body of POST /tenants (with `id`) or PATCH /tenants/{id}. */
export function tenantBody(values: TenantFormValues, creating: boolean): Record<string, unknown> {
  const vi = values.customNameVi.trim();
  const en = values.customNameEn.trim();
  return {
    ...(creating ? { id: values.id.trim() } : {}),
    name: values.name.trim(),
    brandName: orNull(values.brandName),
    termsUri: orNull(values.termsUri),
    privacyUri: orNull(values.privacyUri),
    passwordBasedAuthenticationAllowed: values.passwordBasedAuthenticationAllowed,
    passwordlessAuthenticationAllowed: values.passwordlessAuthenticationAllowed,
    registrationAllowed: values.registrationAllowed,
    resetPasswordAllowed: values.resetPasswordAllowed,
    webauthnAllowed: values.webauthnAllowed,
    passwordPolicy: { minLength: whole(values.minLength), uppercase: whole(values.uppercase), number: whole(values.number), special: whole(values.special) },
    passwordMaxAgeDays: values.passwordMaxAgeDays.trim() ? whole(values.passwordMaxAgeDays) : null,
    passwordWarningDays: values.passwordWarningDays.trim() ? whole(values.passwordWarningDays) : null,
    passwordHistorySize: whole(values.passwordHistorySize),
    rememberBrowserDays: values.rememberBrowserDays.trim() ? whole(values.rememberBrowserDays) : null,
    customRegisterCheckbox: values.customCheckbox
      ? {
          name: values.customName.trim(),
          ...(vi || en ? { nameI18n: { ...(vi ? { vi } : {}), ...(en ? { en } : {}) } } : {}),
          termUrl: orUndefined(values.customTermUrl),
          policyUrl: orUndefined(values.customPolicyUrl),
        }
      : null,
  };
}

const NUMBER_RANGES: Partial<Record<TenantFormField, [number, number]>> = {
  minLength: [1, 128],
  uppercase: [0, 128],
  number: [0, 128],
  special: [0, 128],
  passwordMaxAgeDays: [1, 3650],
  passwordWarningDays: [1, 365],
  passwordHistorySize: [0, 24],
  rememberBrowserDays: [0, 365],
};

/** The form's own checks (the same ranges as the contract's tenant schema), then the schema itself. */
export function validateTenantForm(values: TenantFormValues, creating: boolean): TenantProblems {
  const problems: TenantProblems = {};
  const add = (field: TenantFormField, problem: TenantProblem) => {
    if (!problems[field]) problems[field] = problem;
  };
  if (creating && !/^[a-z0-9][a-z0-9_-]{0,62}$/.test(values.id.trim())) add('id', { kind: 'slug' });
  if (!values.name.trim()) add('name', { kind: 'required' });
  for (const [field, [min, max]] of Object.entries(NUMBER_RANGES) as [TenantFormField, [number, number]][]) {
    const text = String(values[field]).trim();
    if (!text && (field === 'passwordMaxAgeDays' || field === 'passwordWarningDays' || field === 'rememberBrowserDays')) continue;
    const n = whole(text);
    if (Number.isNaN(n)) add(field, { kind: 'number' });
    else if (n < min || n > max) add(field, { kind: 'range', min, max });
  }
  const maxAge = whole(values.passwordMaxAgeDays);
  const warning = whole(values.passwordWarningDays);
  if (!Number.isNaN(maxAge) && !Number.isNaN(warning) && warning >= maxAge) add('passwordWarningDays', { kind: 'warningBeforeExpiry' });
  if (values.customCheckbox && !values.customName.trim()) add('customName', { kind: 'required' });

  const parsed = tenantUpdateSchema.safeParse(tenantBody(values, false));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.map(String);
      const field = tenantFieldOf(path.join('.'));
      if (field) add(field, { kind: issue.code === 'invalid_format' ? 'invalidUrl' : 'invalid' });
    }
  }
  return problems;
}

/** The form field of a body path ("passwordPolicy.minLength", "customRegisterCheckbox.termUrl"). */
export function tenantFieldOf(path: string): TenantFormField | null {
  const [head, next] = path.split('.');
  if (head === 'passwordPolicy' && next) return next as TenantFormField;
  if (head === 'customRegisterCheckbox') {
    if (next === 'termUrl') return 'customTermUrl';
    if (next === 'policyUrl') return 'customPolicyUrl';
    if (next === 'nameI18n') return path.endsWith('.en') ? 'customNameEn' : 'customNameVi';
    return 'customName';
  }
  return head && head in NEW_TENANT ? (head as TenantFormField) : null;
}
