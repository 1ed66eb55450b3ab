import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';

/**
 * The database, as Kysely sees it. Timestamps are Unix milliseconds (bigint), booleans are 0/1
 * integers and structured values are JSON text, so the same queries run on SQLite and PostgreSQL.
 */

type Bool = number;
type Json = string;
type Millis = number;

export interface TenantsTable {
  id: string;
  name: string;
  brand_name: string | null;
  terms_uri: string | null;
  privacy_uri: string | null;
  passwordless_authentication_allowed: Bool;
  password_based_authentication_allowed: Bool;
  registration_allowed: Bool;
  reset_password_allowed: Bool;
  webauthn_allowed: Bool;
  /** PasswordPolicy JSON, null for the default policy. */
  password_policy: Json | null;
  /** Days a password stays valid; null: never expires. */
  password_max_age_days: number | null;
  /** Days before expiry during which sign-in warns. */
  password_warning_days: number | null;
  /** How many previous passwords may not be reused. */
  password_history_size: number;
  /** {name, termUrl, policyUrl} JSON of the custom registration checkbox. */
  custom_register_checkbox: Json | null;
  /** Days a browser that passed the second step may skip it ('Remember this browser'); null: off. */
  remember_browser_days: number | null;
  created_at: Millis;
  updated_at: Millis;
}

export interface ClientsTable {
  id: string;
  tenant_id: string;
  name: string;
  logo_uri: string | null;
  theme: Json;
  i18n: Json;
  /** Capability strings; an empty list means every capability. */
  permissions: Json;
  google_app_id: string | null;
  facebook_app_id: string | null;
  /** Encrypted with the server key; never returned. Needed to check Facebook tokens (debug_token, appsecret_proof). */
  facebook_app_secret_encrypted: string | null;
  username_policy: Json | null;
  recaptcha_enabled: Bool;
  recaptcha_site_key: string | null;
  /** Encrypted with the server key; never returned. */
  recaptcha_secret_enc: string | null;
  terms_privacy: Json;
  redirect_uris: Json;
  post_logout_redirect_uris: Json;
  grant_types: Json;
  /** 'none' for public clients, else 'client_secret_basic' or 'client_secret_post'. */
  token_endpoint_auth_method: string;
  /** Keyed digest of the client secret (an argon2id hash until its next use); null for public clients. */
  secret_hash: string | null;
  /** The relying party's home page (OIDC client_uri); optional on insert. */
  client_uri: ColumnType<string | null, string | null | undefined, string | null>;
  /** Where the relying party starts a new sign-in (OIDC initiate_login_uri); optional on insert. */
  initiate_login_uri: ColumnType<string | null, string | null | undefined, string | null>;
  /** Where logout tokens are posted (OpenID Connect Back-Channel Logout); optional on insert. */
  backchannel_logout_uri: ColumnType<string | null, string | null | undefined, string | null>;
  /** Whether logout tokens carry the session's sid; optional on insert (off). */
  backchannel_logout_session_required: ColumnType<Bool, Bool | undefined, Bool>;
  created_at: Millis;
  updated_at: Millis;
}

export interface UsersTable {
  id: string;
  tenant_id: string;
  email: string | null;
  email_verified: Bool;
  phone_number: string | null;
  phone_number_verified: Bool;
  name: string | null;
  /** Unix seconds. */
  birthday: number | null;
  gender: string | null;
  locale: string | null;
  avatar_key: string | null;
  password_hash: string | null;
  password_changed_at: Millis | null;
  registration_method: string;
  /** 'pending' (registered, not activated), 'active' or 'disabled'. */
  status: string;
  enable_mfa: Bool;
  authenticator_type: string | null;
  /** The active authenticator secret (base32), encrypted with the server key. */
  totp_secret_enc: string | null;
  /** The last TOTP time step (30 s) accepted for this user: each code works once. */
  totp_last_step: number | null;
  /** An authenticator secret set up but not confirmed yet (encrypted). */
  totp_pending_enc: string | null;
  /** Wrong passwords in a row (reset by a sign-in, forgotten a while after the last one). */
  failed_login_count: number;
  locked_until: Millis | null;
  /** When the last wrong password was counted; null before the first. */
  last_failed_login_at: Millis | null;
  /**
   * While pending: the keyed hash of the registering browser's key (`passgate_browser`), null when
   * it registered without cookies. Whoever confirms the code elsewhere proves the address only
   * (registration/registrant-browser.ts). Cleared at activation.
   */
  registrant_browser_hash: string | null;
  created_at: Millis;
  updated_at: Millis;
}

export interface PasswordHistoryTable {
  id: string;
  user_id: string;
  password_hash: string;
  created_at: Millis;
}

export interface OneTimeCodesTable {
  id: string;
  tenant_id: string;
  user_id: string | null;
  /** activation, recovery, email_change, phone_change, mfa, passwordless, webauthn_activation, webauthn_deletion… */
  purpose: string;
  /** Where the code was sent: an e-mail address or a phone number. */
  destination: string;
  /** Keyed hash (HMAC-SHA-256) of the code; the code itself is never stored. */
  code_hash: string;
  /** Extra data the purpose needs (JSON), such as a new address awaiting confirmation. */
  payload: Json | null;
  attempts: number;
  expires_at: Millis;
  consumed_at: Millis | null;
  last_sent_at: Millis;
  created_at: Millis;
}

/** The MFA token of a sign-in waiting for its second step (random, hashed, single use, 5 minutes). */
export interface MfaTokensTable {
  /** Keyed hash (HMAC-SHA-256) of the token. */
  id: string;
  tenant_id: string;
  user_id: string;
  /** The provider interaction (the sign-in challenge) the token belongs to. */
  interaction_uid: string;
  client_id: string;
  /** totp, sms or email. */
  token_type: string;
  /** What the sign-in began with: pwd, sms (passwordless code), google or facebook; null is pwd. */
  first_factor: string | null;
  attempts: number;
  expires_at: Millis;
  consumed_at: Millis | null;
  created_at: Millis;
}

/** A 2-step verification backup code: single use, replaced as a set, gone when 2-step is turned off. */
export interface BackupCodesTable {
  id: string;
  user_id: string;
  /** Keyed hash (HMAC-SHA-256) of the user id and the normalised code; the code itself is never stored. */
  code_hash: string;
  used_at: Millis | null;
  created_at: Millis;
}

/** A browser that passed 2-step verification and may skip it until `expires_at` ('Remember this browser'). */
export interface RememberedBrowsersTable {
  /** Random; the cookie carries it beside the secret. */
  id: string;
  user_id: string;
  tenant_id: string;
  /** Keyed hash (HMAC-SHA-256) of the user id and the browser's random secret; the secret itself is never stored. */
  secret_digest: string;
  /** 'Chrome 131 · Windows 10', as describeUserAgent read it when the browser was remembered. */
  user_agent: string | null;
  created_at: Millis;
  expires_at: Millis;
}

/** A Google or Facebook identity linked to an account: (tenant, provider, subject) is unique. */
export interface UserIdentitiesTable {
  id: string;
  tenant_id: string;
  user_id: string;
  /** google or facebook. */
  provider: string;
  /** The provider's id of the person (Google's sub, Facebook's user id). */
  subject: string;
  /** The e-mail address the provider gave at linking time. */
  email: string | null;
  created_at: Millis;
}

/**
 * A social sign-in waiting for the user to prove the existing account its verified e-mail belongs
 * to (random token, hashed, single use, 10 minutes), bound to the identity, the account, the
 * interaction and the client.
 */
export interface SocialLinkTokensTable {
  /** Keyed hash (HMAC-SHA-256) of the token. */
  id: string;
  tenant_id: string;
  user_id: string;
  interaction_uid: string;
  client_id: string;
  provider: string;
  subject: string;
  /** The provider's (verified) e-mail address. */
  email: string | null;
  /** Wrong passwords tried with this token. */
  attempts: number;
  expires_at: Millis;
  consumed_at: Millis | null;
  created_at: Millis;
}

/** A user's registered WebAuthn device; inactive until its activation code is confirmed. */
export interface WebauthnCredentialsTable {
  /** Our id of the device (`webauthnCredentialId`). */
  id: string;
  tenant_id: string;
  user_id: string;
  /** The authenticator's credential id, base64url; unique per tenant. */
  credential_id: string;
  /** The COSE public key; blob on SQLite, bytea on PostgreSQL; a Buffer either way. */
  public_key: Buffer;
  /** The last signature counter seen (0 for authenticators that do not count). */
  counter: number;
  /** JSON list of transports (usb, nfc, ble, internal, hybrid…), as the browser reported them. */
  transports: Json | null;
  device_name: string;
  active: Bool;
  created_at: Millis;
  last_used_at: Millis | null;
  /** Whether the credential is discoverable (a passkey), as the browser said at registration (credProps); null: not said. */
  discoverable: ColumnType<Bool | null, Bool | null | undefined, Bool | null>;
  /** Whether the authenticator said the credential is backed up (synced); null for devices registered before. */
  backed_up: ColumnType<Bool | null, Bool | null | undefined, Bool | null>;
}

/**
 * The challenge of a passkey sign-in (autofill): random, stored only as a keyed hash, bound to the
 * interaction (and so the browser) and the client, single use (deleted when used), 5 minutes.
 */
export interface PasskeyChallengesTable {
  /** Keyed hash (HMAC-SHA-256) of the WebAuthn challenge. */
  id: string;
  tenant_id: string;
  client_id: string;
  interaction_uid: string;
  expires_at: Millis;
  created_at: Millis;
}

/**
 * A WebAuthn ceremony or device challenge: registration (5 minutes), activation and deletion
 * codes (10 minutes), sign-in with a device (300 s). Random, stored hashed, single use, bound to
 * the user, the client and (sign-in) the interaction.
 */
export interface WebauthnChallengesTable {
  /** Keyed hash (HMAC-SHA-256) of the challenge id handed out. */
  id: string;
  tenant_id: string;
  /** registration, activation, deletion or authn. */
  type: string;
  user_id: string;
  client_id: string;
  /** The provider interaction (sign-in challenge) of a device sign-in. */
  interaction_uid: string | null;
  /** The device (webauthn_credentials.id) an activation or deletion is for. */
  credential_id: string | null;
  /** The WebAuthn challenge (base64url) the authenticator signs. */
  webauthn_challenge: string | null;
  /** Keyed hash of a device sign-in's redirect URL key. */
  redirect_key_hash: string | null;
  /** pending, approved (device sign-in asserted), consumed, or denied (refused on the device asked to approve it). */
  state: string;
  expires_at: Millis;
  created_at: Millis;
  /** The address of the browser that asked for a device sign-in (null for other challenges and older rows). */
  requester_ip: string | null;
  /** Its User-Agent header, cut to 512 characters. */
  requester_user_agent: string | null;
}

/**
 * Failed sign-ins of a username that has no password to check (no such account, or one that signs
 * in another way), counted and locked like an account's own so the answers do not tell them apart.
 * One row per tenant and username, deleted once forgotten.
 */
export interface LoginFailuresTable {
  tenant_id: string;
  /** Keyed hash (HMAC-SHA-256) of the normalised username: what was typed is never stored. */
  username_hash: string;
  failures: number;
  last_failure_at: Millis;
  locked_until: Millis | null;
}

export interface AuditEventsTable {
  id: string;
  tenant_id: string | null;
  user_id: string | null;
  client_id: string | null;
  type: string;
  ip: string | null;
  user_agent: string | null;
  details: Json | null;
  created_at: Millis;
}

/** An administrative role (issue 17): `operator` (every tenant, tenant_id null) or `tenant-admin` of one tenant. */
export interface AdminRolesTable {
  id: string;
  user_id: string;
  /** The tenant administered; null for an operator. */
  tenant_id: string | null;
  /** 'operator' or 'tenant-admin'. */
  role: string;
  granted_at: Millis;
  /** 'cli', 'seed', or the granting admin's user id. */
  granted_by: string | null;
}

/** A browser an account has signed in from (the new sign-in notice), known by a keyed hash of its browser-key cookie. */
export interface KnownBrowsersTable {
  id: string;
  user_id: string;
  /** HMAC-SHA-256 (server key) of the browser's random key; the key itself is only in the browser's cookie. */
  browser_key_hash: string;
  first_seen_at: Millis;
  last_seen_at: Millis;
}

export interface OidcPayloadsTable {
  model: string;
  id: string;
  payload: Json;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  /** The account the artifact belongs to (payload.accountId), so deleting an account deletes them all. */
  account_id: string | null;
  expires_at: Millis | null;
  consumed_at: Millis | null;
}

/** A provider session as the Security page lists it, keyed by the session's uid (see the 2026-12-02 migration). */
export interface SessionActivityTable {
  session_uid: string;
  user_id: string;
  tenant_id: string;
  /** Sign-in time. */
  created_at: Millis;
  last_active_at: Millis;
  ip: string | null;
  /** Cut to 512 characters. */
  user_agent: string | null;
  expires_at: Millis;
}

/** A user's current avatar: the normalised image, served publicly at /api/v1/avatars/{key}. */
export interface AvatarsTable {
  /** Random and unguessable; a new one for every upload, so the image can be cached for good. */
  key: string;
  user_id: string;
  content_type: string;
  /** blob on SQLite, bytea on PostgreSQL; a Buffer either way. */
  data: Buffer;
  created_at: Millis;
}

export interface ServerSecretsTable {
  name: string;
  value: Json;
  created_at: Millis;
}

export interface DevOutboxTable {
  id: string;
  /** 'email' or 'sms'. */
  channel: string;
  recipient: string;
  subject: string | null;
  text: string;
  html: string | null;
  /** The one-time code the message carries, when it carries one. */
  code: string | null;
  created_at: Millis;
}

export interface Database {
  tenants: TenantsTable;
  clients: ClientsTable;
  users: UsersTable;
  password_history: PasswordHistoryTable;
  one_time_codes: OneTimeCodesTable;
  mfa_tokens: MfaTokensTable;
  backup_codes: BackupCodesTable;
  remembered_browsers: RememberedBrowsersTable;
  webauthn_credentials: WebauthnCredentialsTable;
  webauthn_challenges: WebauthnChallengesTable;
  passkey_challenges: PasskeyChallengesTable;
  user_identities: UserIdentitiesTable;
  social_link_tokens: SocialLinkTokensTable;
  login_failures: LoginFailuresTable;
  audit_events: AuditEventsTable;
  admin_roles: AdminRolesTable;
  oidc_payloads: OidcPayloadsTable;
  known_browsers: KnownBrowsersTable;
  session_activity: SessionActivityTable;
  avatars: AvatarsTable;
  server_secrets: ServerSecretsTable;
  dev_outbox: DevOutboxTable;
}

export type TenantRow = Selectable<TenantsTable>;
export type NewTenantRow = Insertable<TenantsTable>;
export type TenantUpdate = Updateable<TenantsTable>;
export type ClientRow = Selectable<ClientsTable>;
export type NewClientRow = Insertable<ClientsTable>;
export type ClientUpdate = Updateable<ClientsTable>;
export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type OneTimeCodeRow = Selectable<OneTimeCodesTable>;
export type MfaTokenRow = Selectable<MfaTokensTable>;
export type WebauthnCredentialRow = Selectable<WebauthnCredentialsTable>;
export type WebauthnChallengeRow = Selectable<WebauthnChallengesTable>;
export type UserIdentityRow = Selectable<UserIdentitiesTable>;
export type SocialLinkTokenRow = Selectable<SocialLinkTokensTable>;
export type AuditEventRow = Selectable<AuditEventsTable>;
export type AvatarRow = Selectable<AvatarsTable>;
