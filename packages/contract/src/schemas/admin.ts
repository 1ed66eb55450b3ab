import { z } from 'zod';
import { capabilities } from '../capabilities.ts';
import { passwordPolicySchema, usernamePolicyInputSchema } from './policies.ts';
import { displayNameSchema } from './common.ts';
import {
  clientI18nSchema,
  customRegisterCheckboxSchema,
  recaptchaConfigurationSchema,
  termsPrivacySchema,
  themeSchema,
} from './client.ts';

/**
 * What an operator sets on tenants and clients (today through the command line, later an admin
 * console). Creation requires what has no sensible default; updates take any subset.
 */

const slug = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'lowercase letters, digits, - and _, at most 63 characters');
const uri = z.url({ protocol: /^https?$/ }).max(2048);

export const tenantSettingsSchema = z.object({
  name: displayNameSchema(200),
  brandName: z.string().trim().max(200).nullable(),
  termsUri: uri.nullable(),
  privacyUri: uri.nullable(),
  passwordlessAuthenticationAllowed: z.boolean(),
  passwordBasedAuthenticationAllowed: z.boolean(),
  registrationAllowed: z.boolean(),
  resetPasswordAllowed: z.boolean(),
  webauthnAllowed: z.boolean(),
  passwordPolicy: passwordPolicySchema.nullable(),
  passwordMaxAgeDays: z.number().int().min(1).max(3650).nullable(),
  passwordWarningDays: z.number().int().min(1).max(365).nullable(),
  passwordHistorySize: z.number().int().min(0).max(24),
  customRegisterCheckbox: customRegisterCheckboxSchema.nullable(),
  /** Days a browser that passed 2-step verification may skip it ('Remember this browser'); 0 or null: off (the default). */
  rememberBrowserDays: z.number().int().min(0).max(365).nullable(),
});
export type TenantSettings = z.infer<typeof tenantSettingsSchema>;

export const tenantCreateSchema = tenantSettingsSchema.partial().extend({ id: slug, name: displayNameSchema(200) });
export type TenantCreate = z.infer<typeof tenantCreateSchema>;
export const tenantUpdateSchema = tenantSettingsSchema.partial();
export type TenantUpdateInput = z.infer<typeof tenantUpdateSchema>;

export const grantTypeSchema = z.enum(['authorization_code', 'refresh_token']);
export const tokenEndpointAuthMethodSchema = z.enum(['none', 'client_secret_basic', 'client_secret_post']);

export const clientSettingsSchema = z.object({
  tenantId: slug,
  name: displayNameSchema(200),
  logoUri: uri.nullable(),
  theme: themeSchema,
  i18n: clientI18nSchema,
  permissions: z.array(z.enum(capabilities)),
  googleAppId: z.string().min(1).max(300).nullable(),
  facebookAppId: z.string().min(1).max(300).nullable(),
  /** Clear text only on the way in; stored encrypted with the server key, never returned (null removes it). */
  facebookAppSecret: z.string().min(1).max(300).nullable(),
  usernamePolicy: usernamePolicyInputSchema.nullable(),
  recaptcha: recaptchaConfigurationSchema.extend({ secret: z.string().min(1).max(300).optional() }),
  termsPrivacy: termsPrivacySchema,
  redirectUris: z.array(uri).min(1).max(20),
  postLogoutRedirectUris: z.array(uri).max(20),
  /** The relying party's home page (OIDC client_uri): where the sign-in screens lead back to. */
  clientUri: uri.nullable(),
  /** Where the relying party starts a new sign-in (OIDC initiate_login_uri); preferred over clientUri. */
  initiateLoginUri: uri.nullable(),
  /** Where the provider posts a logout token when a session of the client ends (OpenID Connect Back-Channel Logout 1.0). */
  backchannelLogoutUri: uri.nullable(),
  /** Whether that logout token carries the session's `sid` (the client's ID tokens then carry it too). */
  backchannelLogoutSessionRequired: z.boolean(),
  grantTypes: z.array(grantTypeSchema).min(1),
  tokenEndpointAuthMethod: tokenEndpointAuthMethodSchema,
  /** Clear text only on the way in; it is stored as a keyed digest (HMAC-SHA-256). */
  secret: z.string().min(8).max(200).nullable(),
});
export type ClientSettings = z.infer<typeof clientSettingsSchema>;

export const clientCreateSchema = clientSettingsSchema.partial().extend({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, 'letters, digits, ., - and _, at most 100 characters'),
  tenantId: slug,
  name: displayNameSchema(200),
  redirectUris: z.array(uri).min(1).max(20),
});
export type ClientCreate = z.infer<typeof clientCreateSchema>;
export const clientUpdateSchema = clientSettingsSchema.partial();
export type ClientUpdateInput = z.infer<typeof clientUpdateSchema>;
