/**
 * The error catalogue of SPEC.md section 8. The numeric code travels in the error envelope and is
 * also the i18n key (`errors.<code>`) the SPA uses for its message; the English text here is the
 * server's fallback message.
 */
export const ErrorCode = {
  BadRequest: 1000,
  RequiredField: 1001,
  InvalidField: 1002,
  /** Not in the catalogue's table: a request body over the server's limit (413); an image over its own limit is 1072. */
  RequestTooLarge: 1003,
  AccountNotFound: 1010,
  NotActivated: 1011,
  Disabled: 1012,
  AlreadyActivated: 1013,
  UsernameInvalid: 1014,
  PhoneInvalid: 1015,
  EmailInvalid: 1016,
  WrongCredentials: 1017,
  UsernameTaken: 1018,
  PhoneTaken: 1019,
  EmailTaken: 1020,
  EmailAlreadySet: 1021,
  RequestExpired: 1026,
  NoActiveCredentials: 1027,
  /** Not in the catalogue's table: the authenticator is already registered (SPEC.md's 'This device is already registered'). */
  DeviceAlreadyRegistered: 1028,
  /** Not in the catalogue's table: a passkey sign-in with a credential this tenant does not know (deleted, or registered elsewhere). */
  PasskeyUnknown: 1029,
  PasswordReused: 1031,
  CodeInvalid: 1040,
  ActivationCodeInvalid: 1041,
  RecoveryCodeInvalid: 1042,
  PhoneCodeInvalid: 1043,
  MissingTenant: 1050,
  AudienceNotRegistered: 1060,
  ClientNotFound: 1061,
  ClientExists: 1062,
  AccessTokenInvalid: 1063,
  GoogleIdMissing: 1064,
  FacebookIdMissing: 1065,
  AppleIdMissing: 1066,
  ImageInvalid: 1070,
  MimeTypeNotAllowed: 1071,
  FileTooLarge: 1072,
  MissingMobileOrBankCode: 1080,
  Unauthorized: 1100,
  MissingAuthorization: 1101,
  NotAuthenticated: 1102,
  PasswordExpired: 1103,
  /** Not in the catalogue's table: a new password that is on the list of common breached passwords. */
  PasswordTooCommon: 1104,
  /** Not in the catalogue's table: a password change for an account that has no password (it signs in with Google, Facebook, a phone code or a device). */
  NoPasswordToChange: 1105,
  /** Not in the catalogue's table: the session to sign out is the one making the request (sign out instead). */
  SessionIsCurrent: 1110,
  /** Not in the catalogue's table: an unfinished poll, which the SPA passes over silently. */
  Pending: 1200,
  /** Not in the catalogue's table: too many requests from this address or for this account. */
  TooManyRequests: 1290,
  /** Not in the catalogue's table: a code was sent to this address less than 60 seconds ago. */
  ResendTooSoon: 1291,
  /** Not in the catalogue's table: the e-mail or SMS could not be sent (a 503 the user can retry). */
  DeliveryFailed: 1292,
  /** Not in the catalogue's table: Google or Facebook could not be reached or failed (a 503 the user can retry). */
  ProviderUnavailable: 1293,
  /**
   * Not in the catalogue's table: the database or Redis is down, refusing or silent (a 503 with
   * Retry-After the user can retry; Passgate recovers by itself when it returns).
   */
  ServiceUnavailable: 1294,
  ClientLacksPermission: 1301,
  UserBlocked: 1302,
  TenantDisallows: 1303,
  /**
   * Not in the catalogue's table: an administrator (operator or tenant admin) has no 2-step
   * verification (an authenticator app or a device) yet; the admin console sends them to set it up.
   */
  AdminNeedsTwoStep: 1304,
  /**
   * Not in the catalogue's table (409): the account is not in a state the admin action applies to
   * (disabling a disabled account, turning off 2-step that is off): it changed since the page loaded.
   */
  AdminStateConflict: 1305,
  /** Not in the catalogue's table (409): an administrator may not disable or delete their own account from the console. */
  AdminOwnAccount: 1306,
  /**
   * Not in the catalogue's table (403): the sign-in behind the token did not use an authenticator
   * app or a device, and the admin console (or a change of an administrator's own 2-step factors)
   * needs one: sign in again (prompt=login) with it.
   */
  SignInWithStrongTwoStep: 1307,
  /** Not in the catalogue's table: the route does not exist. */
  NotFound: 1404,
  /** Not in the catalogue's table: the endpoint exists but does not take this method (405, with Allow). */
  MethodNotAllowed: 1405,
  /** Not in the catalogue's table: an unexpected server failure (no detail is ever given). */
  Internal: 1500,
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const errorMessages: Record<ErrorCode, string> = {
  1000: 'Bad Request',
  1001: 'Required field',
  1002: 'Invalid field',
  1003: 'Request too large',
  1010: 'Account does not exist',
  1011: 'Your account is registered but not activated',
  1012: 'Your account is disabled',
  1013: 'Your account is already activated',
  1014: 'Phone number or email is not valid',
  1015: 'Phone number is not valid',
  1016: 'Email is not valid',
  1017: 'Username or password is not correct',
  1018: 'Username is already taken',
  1019: 'Phone number is already registered',
  1020: 'Email is already registered',
  1021: 'An email already exists, another one cannot be set',
  1026: 'Your request has expired, please retry',
  1027: 'You do not have any active credentials',
  1028: 'This device is already registered',
  1029: 'This passkey is not registered here: log in another way',
  1031: 'This password has already been used',
  1040: 'Verification code is not valid',
  1041: 'Username or activation code is not valid',
  1042: 'Username or recovery code is not valid',
  1043: 'Phone number or verification code is not valid',
  1050: 'Missing tenant_id in configuration',
  1060: 'Audience claim is not registered',
  1061: 'Client does not exist',
  1062: 'Client already exists',
  1063: 'access_token is not valid',
  1064: 'Missing id from Google',
  1065: 'Missing id from Facebook',
  1066: 'Missing sub from Apple',
  1070: 'The image cannot be decoded or is not valid',
  1071: 'The MIME type of the selected file is not allowed',
  1072: 'The file is too large',
  1080: 'Missing mobile or bank code',
  1100: 'Unauthorized',
  1101: 'Missing Authorization header',
  1102: 'User is not authenticated or credentials are invalid',
  1103: 'Your password has expired',
  1104: 'This password is too common: it appears in lists of breached passwords',
  1105: 'This account has no password to change: it signs in another way',
  1110: 'This is the session you are using: sign out instead',
  1200: 'Pending',
  1290: 'Too many requests, please try again later',
  1291: 'A code was sent a moment ago, please wait before asking for another one',
  1292: 'We could not send the code, please try again',
  1293: 'The sign-in provider cannot be reached, try again',
  1294: 'Passgate is temporarily unavailable, please try again',
  1301: 'The client does not have permission for this action',
  1302: 'User is temporarily blocked',
  1303: 'The tenant does not allow this action',
  1304: 'Set up 2-step verification to use the admin console',
  1305: 'The account is no longer in a state this action applies to',
  1306: 'You cannot do this to your own account from the admin console',
  1307: 'Sign in again with your authenticator app, or with your device (Log in with your device), to continue',
  1404: 'Not found',
  1405: 'Method not allowed',
  1500: 'Internal Server Error',
};

export const errorCodes = Object.values(ErrorCode) as ErrorCode[];
