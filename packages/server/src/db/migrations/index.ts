import type { Migration } from 'kysely';
import * as initial from './2026-11-21-initial.ts';
import * as avatarsAccountIndex from './2026-11-22-avatars-account-index.ts';
import * as mfa from './2026-11-23-mfa.ts';
import * as webauthn from './2026-11-24-webauthn.ts';
import * as social from './2026-11-25-social.ts';
import * as loginFailures from './2026-11-26-login-failures.ts';
import * as mfaFirstFactor from './2026-11-27-mfa-first-factor.ts';
import * as backupCodes from './2026-11-28-backup-codes.ts';
import * as clientHome from './2026-11-29-client-home.ts';
import * as backchannelLogout from './2026-11-30-backchannel-logout.ts';
import * as rememberedBrowsers from './2026-12-01-remembered-browsers.ts';
import * as sessionActivity from './2026-12-02-session-activity.ts';
import * as knownBrowsers from './2026-12-03-known-browsers.ts';
import * as adminRoles from './2026-12-04-admin-roles.ts';
import * as passkeys from './2026-12-05-passkeys.ts';
import * as adminUserSearch from './2026-12-06-admin-user-search.ts';
import * as searchStatistics from './2026-12-07-search-statistics.ts';
import * as deviceLoginRequester from './2026-12-08-device-login-requester.ts';
import * as partialPayloadIndexes from './2026-12-09-partial-payload-indexes.ts';
import * as clientChangeNotices from './2026-12-10-client-change-notices.ts';
import * as registrantBrowser from './2026-12-11-registrant-browser.ts';
import * as ambiguousOtpSessions from './2026-12-12-ambiguous-otp-sessions.ts';

/** Every migration, by name; names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '2026-11-21-initial': initial,
  '2026-11-22-avatars-account-index': avatarsAccountIndex,
  '2026-11-23-mfa': mfa,
  '2026-11-24-webauthn': webauthn,
  '2026-11-25-social': social,
  '2026-11-26-login-failures': loginFailures,
  '2026-11-27-mfa-first-factor': mfaFirstFactor,
  '2026-11-28-backup-codes': backupCodes,
  '2026-11-29-client-home': clientHome,
  '2026-11-30-backchannel-logout': backchannelLogout,
  '2026-12-01-remembered-browsers': rememberedBrowsers,
  '2026-12-02-session-activity': sessionActivity,
  '2026-12-03-known-browsers': knownBrowsers,
  '2026-12-04-admin-roles': adminRoles,
  '2026-12-05-passkeys': passkeys,
  '2026-12-06-admin-user-search': adminUserSearch,
  '2026-12-07-search-statistics': searchStatistics,
  '2026-12-08-device-login-requester': deviceLoginRequester,
  '2026-12-09-partial-payload-indexes': partialPayloadIndexes,
  '2026-12-10-client-change-notices': clientChangeNotices,
  '2026-12-11-registrant-browser': registrantBrowser,
  '2026-12-12-ambiguous-otp-sessions': ambiguousOtpSessions,
};
