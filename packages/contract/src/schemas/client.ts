import { z } from 'zod';
import { HEX_COLOUR_PATTERN } from '../validation.ts';
import { passwordPolicySchema, usernamePolicySchema } from './policies.ts';
import { capabilities } from '../capabilities.ts';
import { localeSchema } from './common.ts';

const colour = z.string().regex(HEX_COLOUR_PATTERN, 'Colours are #RRGGBB');
const uri = z.url({ protocol: /^https?$/ }).max(2048);

/**
 * A relying party's own words in each language of the pages: shown in the current language when
 * given, else the plain text beside it (written in whatever language the relying party chose).
 */
export const localizedTextSchema = z.object({ vi: z.string().min(1).max(300).optional(), en: z.string().min(1).max(300).optional() });
export type LocalizedText = z.infer<typeof localizedTextSchema>;

export const themeSchema = z.object({
  primaryColor: colour.optional(),
  backgroundColor: colour.optional(),
  backgroundImageUri: uri.optional(),
  buttonColor: colour.optional(),
  title: z.string().max(200).optional(),
  iconUri: uri.optional(),
  hyperlink: uri.optional(),
  hyperlinkedText: z.string().max(200).optional(),
  hyperlinkedTextI18n: localizedTextSchema.optional(),
});
export type Theme = z.infer<typeof themeSchema>;

export const clientI18nSchema = z.object({
  defaultLocale: localeSchema.optional(),
});
export type ClientI18n = z.infer<typeof clientI18nSchema>;

export const recaptchaConfigurationSchema = z.object({
  enabled: z.boolean(),
  siteKey: z.string().max(200).optional(),
});
export type RecaptchaConfiguration = z.infer<typeof recaptchaConfigurationSchema>;

export const termsPrivacySchema = z.object({
  brandName: z.string().max(200).optional(),
  termsUri: uri.optional(),
  privacyUri: uri.optional(),
});
export type TermsPrivacy = z.infer<typeof termsPrivacySchema>;

export const socialAppSchema = z.object({ clientId: z.string().min(1).max(300) });

export const customRegisterCheckboxSchema = z.object({
  name: z.string().min(1).max(300),
  nameI18n: localizedTextSchema.optional(),
  termUrl: uri.optional(),
  policyUrl: uri.optional(),
});

/** The tenant switches of SPEC.md section 3. */
export const tenantSwitchesSchema = z.object({
  passwordlessAuthenticationAllowed: z.boolean(),
  passwordBasedAuthenticationAllowed: z.boolean(),
  registrationAllowed: z.boolean(),
  resetPasswordAllowed: z.boolean(),
  webauthnAllowed: z.boolean(),
});
export type TenantSwitches = z.infer<typeof tenantSwitchesSchema>;

export const tenantSchema = tenantSwitchesSchema.extend({
  id: z.string(),
  name: z.string(),
  brandName: z.string().nullable(),
  termsUri: z.string().nullable(),
  privacyUri: z.string().nullable(),
  customRegisterCheckbox: customRegisterCheckboxSchema.nullable(),
  passwordPolicy: passwordPolicySchema,
  /** 'Remember this browser' on the 2-step screen: the days a browser may skip the second step; null: not offered. */
  rememberBrowserDays: z.number().int().min(1).max(365).nullable(),
});
export type Tenant = z.infer<typeof tenantSchema>;

/** What the login-flow screens learn about the client that sent the user. */
export const publicClientSchema = z.object({
  clientId: z.string(),
  clientName: z.string(),
  logoUri: z.string().nullable(),
  theme: themeSchema,
  i18n: clientI18nSchema,
  permissions: z.array(z.enum(capabilities)),
  ggApp: socialAppSchema.nullable(),
  fbApp: socialAppSchema.nullable(),
  tenantId: z.string(),
  tenant: tenantSchema,
  usernamePolicy: usernamePolicySchema.nullable(),
  recaptchaConfiguration: recaptchaConfigurationSchema,
  termsPrivacy: termsPrivacySchema,
  /**
   * Where 'Back to the application' leads when a sign-in request has expired or finished: the
   * client's initiate_login_uri (a new sign-in, which completes at once while the provider session
   * lasts), else its client_uri, else the origin of its first redirect URI.
   */
  homeUri: z.string().nullable(),
});
export type PublicClient = z.infer<typeof publicClientSchema>;
