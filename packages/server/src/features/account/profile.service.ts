import { ErrorCode, type Profile, type ProfileUpdateBody } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import type { UserRow, UserUpdate } from '../../db/schema.ts';
import { ApiError } from '../../plugins/errors.ts';
import { toProfile } from './profile.ts';

/**
 * PATCH /api/v1/me: name, birthday and gender. Only the fields sent change; null clears the
 * birthday or the gender (a name cannot be cleared). The contract schema has already checked the
 * shapes; the birthday's upper bound is the clock, so it is checked here (1002, field birthday).
 */
export function createProfileService(ctx: Pick<AppContext, 'users' | 'config'>) {
  return {
    async update(user: UserRow, body: ProfileUpdateBody): Promise<Profile> {
      if (body.birthday != null && body.birthday > Math.floor(Date.now() / 1000)) {
        throw new ApiError(ErrorCode.InvalidField, 400, 'birthday', 'The birthday cannot be in the future');
      }
      const changes: UserUpdate = {};
      if (body.name !== undefined) changes.name = body.name;
      if (body.birthday !== undefined) changes.birthday = body.birthday;
      if (body.gender !== undefined) changes.gender = body.gender;
      if (Object.keys(changes).length === 0) return toProfile(user, ctx.config.publicUrl);
      await ctx.users.update(user.id, { ...changes, updated_at: Date.now() });
      const updated = await ctx.users.findById(user.id);
      if (!updated) throw new ApiError(ErrorCode.NotAuthenticated, 401);
      return toProfile(updated, ctx.config.publicUrl);
    },
  };
}
