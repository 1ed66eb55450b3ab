/** The admin-role commands of the command line: who may use the admin console (/admin). */
import { createAdminRoleService } from '../features/admin/admin-roles.service.ts';
import { AdminInputError } from '../features/admin-input-error.ts';
import type { Command, Values } from './commands.ts';
import type { FlagSpec } from './flags.ts';

export const ADMIN_FLAGS: FlagSpec[] = [
  { flag: 'tenant', field: 'tenantId', kind: 'text', help: "tenant a tenant admin administers (an operator's: optional, the console's tenant)" },
  { flag: 'email', field: 'email', kind: 'text', help: "e-mail address of the admin's account, in the admin console's tenant" },
  { flag: 'role', field: 'role', kind: 'text', help: 'operator (every tenant) | tenant-admin (one tenant)' },
];

function roleChange(values: Values) {
  const missing = ['email', 'role'].filter((flag) => typeof values[flag] !== 'string' || values[flag] === '');
  if (missing.length > 0) throw new AdminInputError(missing.map((flag) => ({ field: flag, message: 'is required' })));
  return {
    email: values.email as string,
    role: values.role as string,
    ...(typeof values.tenant === 'string' && values.tenant ? { tenantId: values.tenant } : {}),
  };
}

const what = (role: string, tenantId: string | null) => (role === 'operator' ? 'operator (every tenant)' : `tenant admin of '${tenantId ?? ''}'`);

export const ADMIN_COMMANDS: Record<string, Command> = {
  'admin grant': {
    flags: ADMIN_FLAGS,
    async run({ ctx, values, io }) {
      const result = await createAdminRoleService(ctx).grant(roleChange(values), { by: 'cli' });
      io.out(
        result.changed
          ? `'${values.email as string}' is now ${what(result.role, result.tenantId)}; they sign in at ${ctx.config.publicUrl}/admin (2-step verification required).`
          : `'${values.email as string}' already was ${what(result.role, result.tenantId)}; nothing changed.`,
      );
    },
  },
  'admin revoke': {
    flags: ADMIN_FLAGS,
    async run({ ctx, values, io }) {
      const result = await createAdminRoleService(ctx).revoke(roleChange(values), { by: 'cli' });
      io.out(result.changed ? `'${values.email as string}' is no longer ${what(result.role, result.tenantId)}.` : `'${values.email as string}' was not ${what(result.role, result.tenantId)}; nothing changed.`);
    },
  },
  'admin list': {
    flags: ADMIN_FLAGS,
    accepts: [],
    async run({ ctx, io }) {
      const grants = await createAdminRoleService(ctx).list();
      if (grants.length === 0) io.out('No admins yet: passgate admin grant --email <e-mail> --role operator');
      for (const grant of grants) io.out(`${grant.email ?? grant.userId}  ${what(grant.role, grant.tenantId)}  granted ${new Date(grant.grantedAt).toISOString()} by ${grant.grantedBy ?? '?'}`);
    },
  },
};
