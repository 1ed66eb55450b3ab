import type { Gender, Profile } from '@passgate/contract';
import type { UserRow } from '../../db/schema.ts';
import { avatarPath } from '../../context.ts';

export function toProfile(user: UserRow, publicUrl: string): Profile {
  return {
    id: user.id,
    tenantId: user.tenant_id,
    name: user.name,
    email: user.email,
    emailVerified: user.email_verified === 1,
    phoneNumber: user.phone_number,
    phoneNumberVerified: user.phone_number_verified === 1,
    avatarUrl: user.avatar_key ? `${publicUrl}${avatarPath(user.avatar_key)}` : null,
    birthday: user.birthday,
    gender: (user.gender as Gender | null) ?? null,
    locale: user.locale,
    enableMfa: user.enable_mfa === 1,
    authenticatorType: (user.authenticator_type as Profile['authenticatorType']) ?? null,
    registrationMethod: (user.registration_method as Profile['registrationMethod']) ?? 'password',
    hasPassword: user.password_hash !== null,
  };
}
