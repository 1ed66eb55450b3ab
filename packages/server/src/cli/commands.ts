/** The commands of the Passgate command line: each checks its flags, calls a service and says what it did. */
import type { AppContext } from '../context.ts';
import { AdminInputError, type AdminInputProblem } from '../features/admin-input-error.ts';
import { createTenantService, inTransaction } from '../features/tenants/tenants.service.ts';
import { ensureAccountClient } from '../features/account/account-client.ts';
import { createClientService } from '../features/clients/clients.service.ts';
import { createClientQueries } from '../features/clients/clients.queries.ts';
import { assertProviderAccepts } from '../features/clients/provider-accepts.ts';
import { createUserService, type UserStatus } from '../features/users/users.service.ts';
import { createSessionService } from '../features/sessions/sessions.service.ts';
import { createKeyService, type SigningKeyView } from '../oidc/server-secrets.ts';
import { CLIENT_FLAGS, TENANT_FLAGS, USER_FLAGS, buildInput, clientBase, tenantBase, type FlagSpec } from './flags.ts';
import { ADMIN_COMMANDS } from './admin-commands.ts';

/** Where the command line writes, and the environment it reads (tests pass their own). */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  env: NodeJS.ProcessEnv;
}

export type Values = Record<string, string | boolean | undefined>;

interface Invocation {
  ctx: AppContext;
  values: Values;
  io: CliIo;
}

export interface Command {
  flags: FlagSpec[];
  /** Flags this command accepts; every flag of `flags` when omitted. */
  accepts?: string[];
  run(call: Invocation): Promise<void>;
}

/** Required flags, checked before anything else so the messages name the flags. */
function requireFlags(values: Values, specs: FlagSpec[], flags: string[]): void {
  const missing = flags.filter((flag) => typeof values[flag] !== 'string' || values[flag] === '');
  if (missing.length > 0) {
    throw new AdminInputError(missing.map((flag) => ({ field: specs.find((s) => s.flag === flag)?.field ?? flag, message: 'is required' })));
  }
}

function flagProblems(problems: AdminInputProblem[]): void {
  if (problems.length > 0) throw new AdminInputError(problems);
}

/** Timestamps as ISO strings, for people reading `list` and `show`. */
function forDisplay(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(forDisplay);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, /At$/.test(k) && typeof v === 'number' ? new Date(v).toISOString() : forDisplay(v)]),
  );
}

const printJson = (io: CliIo, value: unknown) => io.out(JSON.stringify(forDisplay(value), null, 2));

function secretLines(io: CliIo, generated: string | undefined): void {
  if (!generated) return;
  io.out(`Client secret (generated; it will not be shown again, store it now): ${generated}`);
}

const clientSecretFrom = (values: Values, io: CliIo): Values =>
  values.secret === undefined && io.env.PASSGATE_CLIENT_SECRET ? { ...values, secret: io.env.PASSGATE_CLIENT_SECRET } : values;

/**
 * A client created or changed in a transaction that the provider's own check of the result ends
 * (as the admin API's changes are): a client it would refuse at every sign-in is never stored.
 */
function checkedClientChange<T>(ctx: AppContext, clientId: string, change: (clients: ReturnType<typeof createClientService>) => Promise<T>): Promise<T> {
  return inTransaction(ctx.db, async (trx) => {
    const result = await change(createClientService({ db: trx, keys: ctx.keys }));
    const record = await createClientQueries(trx).findById(clientId);
    if (record) await assertProviderAccepts(ctx.provider, record);
    return result;
  });
}

const keyService = (ctx: AppContext) => createKeyService({ db: ctx.db, config: ctx.config, keys: ctx.keys });

function keyLines(io: CliIo, keys: SigningKeyView[]): void {
  const state = (key: SigningKeyView) =>
    key.status === 'signing' ? 'signing' : key.status === 'next' ? 'next: published, signs after the next rotation' : `verifying only, published until ${new Date(key.retiresAt ?? 0).toISOString()}`;
  for (const key of keys) io.out(`  ${key.kid} ${key.alg.padEnd(5)} ${state(key)}`);
}

/** An operator setting a person's password is held to the list registration and reset use. */
const OPERATOR_PASSWORDS = { refuseCommonPasswords: true };

const RESTART_NOTE = 'Running instances read the keys at start-up: restart every instance (a rolling restart) to use them.';

export const COMMANDS: Record<string, Command> = {
  'keys list': {
    flags: [],
    async run({ ctx, io }) {
      io.out('Signing keys (published at /oidc/jwks):');
      keyLines(io, await keyService(ctx).listSigningKeys());
    },
  },
  'keys rotate-signing': {
    flags: [],
    async run({ ctx, io }) {
      const { step, keys } = await keyService(ctx).rotateSigningKeys();
      if (step === 'published') {
        io.out('Step 1 of 2: new signing keys added, published but not signing yet:');
        keyLines(io, keys);
        io.out(RESTART_NOTE);
        io.out("Then run 'keys rotate-signing' again: they sign from then on, on each instance once it restarts, and every instance already publishes them.");
      } else {
        io.out('Step 2 of 2: the keys published at step 1 sign now; the previous ones only verify, until the longest token lifetime has passed:');
        keyLines(io, keys);
        io.out('Keys past that time are retired at the next start or rotation.');
        io.out(RESTART_NOTE);
      }
    },
  },
  'keys rotate-cookies': {
    flags: [],
    async run({ ctx, io }) {
      const { kept } = await keyService(ctx).rotateCookieKeys();
      io.out(`The next cookie key (known to every instance since the last rotation or restart) signs now, a new next one is added, and the ${kept - 2} before still verify (older ones dropped).`);
      io.out(RESTART_NOTE);
    },
  },

  'tenant create': {
    flags: TENANT_FLAGS,
    async run({ ctx, values, io }) {
      requireFlags(values, TENANT_FLAGS, ['id', 'name']);
      const { input, problems } = buildInput(TENANT_FLAGS, values, tenantBase());
      flagProblems(problems);
      const tenant = await createTenantService(ctx).create(input, { by: 'cli' });
      io.out(`Created tenant '${tenant.id}' (${tenant.name}).`);
      // The first tenant is the account area's (/user): its client is made here when missing.
      if ((await ensureAccountClient(ctx, { realign: false })) === tenant.id) {
        io.out(`The account area (/user) signs in the users of '${tenant.id}' (client 'account').`);
      }
    },
  },
  'tenant list': {
    flags: TENANT_FLAGS,
    accepts: [],
    async run({ ctx, io }) {
      printJson(io, await createTenantService(ctx).list());
    },
  },
  'tenant show': {
    flags: TENANT_FLAGS,
    accepts: ['id'],
    async run({ ctx, values, io }) {
      requireFlags(values, TENANT_FLAGS, ['id']);
      printJson(io, await createTenantService(ctx).show(values.id as string));
    },
  },
  'tenant update': {
    flags: TENANT_FLAGS,
    async run({ ctx, values, io }) {
      requireFlags(values, TENANT_FLAGS, ['id']);
      const service = createTenantService(ctx);
      const existing = await service.show(values.id as string);
      const { input, problems } = buildInput(
        TENANT_FLAGS.filter((s) => s.flag !== 'id'),
        values,
        tenantBase(existing),
      );
      flagProblems(problems);
      const { tenant, changed } = await service.update(existing.id, input, { by: 'cli' });
      io.out(`Updated tenant '${tenant.id}': ${changed.join(', ')}.`);
    },
  },
  'tenant remove': {
    flags: TENANT_FLAGS,
    accepts: ['id'],
    async run({ ctx, values, io }) {
      requireFlags(values, TENANT_FLAGS, ['id']);
      await createTenantService(ctx).remove(values.id as string, { by: 'cli' });
      io.out(`Removed tenant '${values.id as string}'.`);
    },
  },

  'client create': {
    flags: CLIENT_FLAGS,
    async run({ ctx, values: given, io }) {
      const values = clientSecretFrom(given, io);
      requireFlags(values, CLIENT_FLAGS, ['id', 'tenant', 'name', 'redirect-uris']);
      const { input, problems } = buildInput(CLIENT_FLAGS, values, clientBase());
      flagProblems(problems);
      const { client, generatedSecret } = await checkedClientChange(ctx, values.id as string, (service) => service.create(input, { by: 'cli' }));
      io.out(`Created client '${client.id}' in tenant '${client.tenantId}' (${client.confidential ? 'confidential' : 'public'}, ${client.tokenEndpointAuthMethod}).`);
      if (client.confidential && !generatedSecret) io.out('The client secret you gave is stored as a keyed digest (HMAC-SHA-256); it is not printed.');
      secretLines(io, generatedSecret);
    },
  },
  'client list': {
    flags: CLIENT_FLAGS,
    accepts: ['tenant'],
    async run({ ctx, values, io }) {
      printJson(io, await createClientService(ctx).list(typeof values.tenant === 'string' && values.tenant ? values.tenant : undefined));
    },
  },
  'client show': {
    flags: CLIENT_FLAGS,
    accepts: ['id'],
    async run({ ctx, values, io }) {
      requireFlags(values, CLIENT_FLAGS, ['id']);
      printJson(io, await createClientService(ctx).show(values.id as string));
    },
  },
  'client update': {
    flags: CLIENT_FLAGS,
    // No PASSGATE_CLIENT_SECRET here: a variable left in the environment must not rotate secrets on every update.
    async run({ ctx, values, io }) {
      requireFlags(values, CLIENT_FLAGS, ['id']);
      const service = createClientService(ctx);
      const existing = await service.show(values.id as string);
      const { input, problems } = buildInput(
        CLIENT_FLAGS.filter((s) => s.flag !== 'id'),
        values,
        clientBase(existing),
      );
      flagProblems(problems);
      const { client, changed, generatedSecret } = await checkedClientChange(ctx, existing.id, (clients) => clients.update(existing.id, input, { by: 'cli' }));
      io.out(`Updated client '${client.id}': ${changed.join(', ')}.`);
      if (typeof values.secret === 'string') io.out('The new client secret is stored as a keyed digest (HMAC-SHA-256); it is not printed.');
      secretLines(io, generatedSecret);
    },
  },
  'client rotate-secret': {
    flags: CLIENT_FLAGS,
    accepts: ['id'],
    async run({ ctx, values, io }) {
      requireFlags(values, CLIENT_FLAGS, ['id']);
      const { client, secret } = await createClientService(ctx).rotateSecret(values.id as string, { by: 'cli' });
      io.out(`Rotated the secret of client '${client.id}': the old one no longer works.`);
      secretLines(io, secret);
    },
  },
  'client remove': {
    flags: CLIENT_FLAGS,
    accepts: ['id'],
    async run({ ctx, values, io }) {
      requireFlags(values, CLIENT_FLAGS, ['id']);
      await createClientService(ctx).remove(values.id as string, { by: 'cli' });
      io.out(`Removed client '${values.id as string}'.`);
    },
  },

  'user create': {
    flags: USER_FLAGS,
    accepts: ['tenant', 'email', 'phone', 'name', 'password', 'status'],
    async run({ ctx, values, io }) {
      requireFlags(values, USER_FLAGS, ['tenant', 'name', ...(values.password === undefined && !io.env.PASSGATE_PASSWORD ? ['password'] : [])]);
      if (values.email === undefined && values.phone === undefined) {
        throw AdminInputError.of('email', 'give --email or --phone (or both)');
      }
      const user = await createUserService(ctx, OPERATOR_PASSWORDS).createUser(
        {
          tenantId: values.tenant as string,
          email: (values.email as string | undefined) ?? null,
          phoneNumber: (values.phone as string | undefined) ?? null,
          name: values.name as string,
          password: (values.password as string | undefined) ?? io.env.PASSGATE_PASSWORD ?? '',
          ...(typeof values.status === 'string' ? { status: values.status as UserStatus } : {}),
        },
        { by: 'cli' },
      );
      io.out(`Created user '${user.email ?? user.phoneNumber ?? user.id}' (id ${user.id}) in tenant '${user.tenantId}', status ${user.status}.`);
    },
  },
  'user set-password': {
    flags: USER_FLAGS,
    accepts: ['tenant', 'username', 'password'],
    async run({ ctx, values, io }) {
      requireFlags(values, USER_FLAGS, ['tenant', 'username', ...(values.password === undefined && !io.env.PASSGATE_PASSWORD ? ['password'] : [])]);
      const password = (values.password as string | undefined) ?? io.env.PASSGATE_PASSWORD ?? '';
      const { user, delivered } = await createUserService(ctx, OPERATOR_PASSWORDS).setPassword(values.tenant as string, values.username as string, password, { by: 'cli' });
      // The process exits after the command: the logout tokens must be on their way first (each within its timeout).
      await delivered;
      io.out(
        `Set the password of '${values.username as string}' (id ${user.id}) in tenant '${user.tenantId}' and signed it out of every session; relying parties with back-channel logout were told.`,
      );
    },
  },
  'user sign-out': {
    flags: USER_FLAGS,
    accepts: ['tenant', 'username'],
    async run({ ctx, values, io }) {
      requireFlags(values, USER_FLAGS, ['tenant', 'username']);
      const { userId, delivered } = await createSessionService(ctx).signOutEverywhere(values.tenant as string, values.username as string, { by: 'cli' });
      // The process exits after the command: the logout tokens must be on their way first (each within its timeout).
      await delivered;
      io.out(`Signed '${values.username as string}' (id ${userId}) out of every session; relying parties with back-channel logout were told.`);
    },
  },

  ...ADMIN_COMMANDS,
};
