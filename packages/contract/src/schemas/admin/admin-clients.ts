import { z } from 'zod';
import { requestBody } from '../../wire.ts';
import { clientI18nSchema, termsPrivacySchema, themeSchema } from '../client.ts';
import { usernamePolicySchema } from '../policies.ts';
import { clientCreateSchema, clientUpdateSchema } from '../admin.ts';
import { adminListQuerySchema, adminTenantParamsSchema, paginated } from './admin-list.ts';

/**
 * The admin API's clients (relying parties) of a tenant (issue 17). No secret is ever answered
 * except a newly generated client secret, once (`clientSecret`); the Facebook app secret and the
 * reCAPTCHA secret are write-only (`facebookAppSecretSet`, `recaptcha.secretSet`).
 */

export const adminClientParamsSchema = adminTenantParamsSchema.extend({
  clientId: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, 'not a client id'),
});

export const adminClientSchema = z.object({
  id: z.string(),
  tenantId: z.string(),
  name: z.string(),
  logoUri: z.string().nullable(),
  theme: themeSchema,
  i18n: clientI18nSchema,
  /** Capability strings as configured; an empty list means every capability. */
  permissions: z.array(z.string()),
  googleAppId: z.string().nullable(),
  facebookAppId: z.string().nullable(),
  facebookAppSecretSet: z.boolean(),
  usernamePolicy: usernamePolicySchema.nullable(),
  recaptcha: z.object({ enabled: z.boolean(), siteKey: z.string().nullable(), secretSet: z.boolean() }),
  termsPrivacy: termsPrivacySchema,
  redirectUris: z.array(z.string()),
  postLogoutRedirectUris: z.array(z.string()),
  clientUri: z.string().nullable(),
  initiateLoginUri: z.string().nullable(),
  backchannelLogoutUri: z.string().nullable(),
  backchannelLogoutSessionRequired: z.boolean(),
  grantTypes: z.array(z.string()),
  tokenEndpointAuthMethod: z.string(),
  /** False for public clients (auth method none): they have no secret. */
  confidential: z.boolean(),
  hasSecret: z.boolean(),
  /** Passgate's own clients (`account`, `admin-console`): only operators change them, never their URIs; they cannot be deleted. */
  builtIn: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AdminClient = z.infer<typeof adminClientSchema>;

export const adminClientListQuerySchema = adminListQuerySchema;
export const adminClientListSchema = paginated(adminClientSchema);
export type AdminClientList = z.infer<typeof adminClientListSchema>;

/** A client, and its new secret when one was just generated (shown this once; only a digest is kept). */
export const adminClientAnswerSchema = z.object({
  client: adminClientSchema,
  clientSecret: z.string().optional(),
});
export type AdminClientAnswer = z.infer<typeof adminClientAnswerSchema>;

/**
 * POST /tenants/{tenantId}/clients: the tenant comes from the path, and a confidential client's
 * secret is always generated (answered once), never chosen.
 */
export const adminClientCreateBodySchema = requestBody(clientCreateSchema.omit({ tenantId: true, secret: true }).shape);
/** PATCH /tenants/{tenantId}/clients/{clientId}: any subset; a client does not move between tenants, and its secret changes only by rotation. */
export const adminClientUpdateBodySchema = requestBody(clientUpdateSchema.omit({ tenantId: true, secret: true }).shape);
