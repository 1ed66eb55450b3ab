import { realpathSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '../config.ts';
import { createAppContext, type AppContext } from '../context.ts';
import { AdminInputError } from '../features/admin-input-error.ts';
import { describeProblems } from './flags.ts';
import { COMMANDS, type CliIo, type Command, type Values } from './commands.ts';
import { helpText } from './help.ts';
import { ServerSecretsError } from '../oidc/server-secrets.ts';

const processIo: CliIo = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  env: process.env,
};

export type { CliIo };

/** A command line that cannot be understood (exit status 2). */
class UsageError extends Error {}

function parseCommand(argv: string[]): { name: string; command: Command; values: Values } {
  const [group, action, ...rest] = argv;
  const name = `${group ?? ''} ${action ?? ''}`;
  const command = COMMANDS[name];
  if (!command) {
    if (group && ['tenant', 'client', 'user', 'keys', 'admin'].includes(group)) {
      const actions = Object.keys(COMMANDS).filter((k) => k.startsWith(`${group} `)).map((k) => k.slice(group.length + 1));
      throw new UsageError(action ? `unknown command '${group} ${action}' (${group} commands: ${actions.join(', ')})` : `missing command after '${group}' (one of: ${actions.join(', ')})`);
    }
    throw new UsageError(`unknown command '${group ?? ''}'`);
  }
  const accepted = command.accepts ?? command.flags.map((s) => s.flag);
  const options = Object.fromEntries(accepted.map((flag) => [flag, { type: 'string' as const }]));
  try {
    const { values, positionals } = parseArgs({ args: rest, options, strict: true, allowPositionals: true });
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}' (values are given with flags, such as --id)`);
    return { name, command, values: values as Values };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    const flag = /'(--?[^'\s]+)/.exec(message)?.[1];
    const code = (error as { code?: string }).code;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag) throw new UsageError(`unknown flag '${flag}' for '${name}'`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && flag) throw new UsageError(`flag '${flag}' needs a value (write --flag=value when the value starts with '-')`);
    throw new UsageError(message.split('. ')[0] ?? message);
  }
}

/**
 * Runs one command and answers its exit status: 0 done, 1 invalid input or failure, 2 usage.
 * The context (database, keys) is created only for a valid command, and always closed.
 */
export async function run(argv: string[], io: CliIo = processIo): Promise<number> {
  if (argv.length === 0) {
    io.err(helpText());
    return 2;
  }
  if (['help', '--help', '-h'].includes(argv[0] ?? '') || argv.includes('--help') || argv.includes('-h')) {
    io.out(helpText());
    return 0;
  }

  let parsed: ReturnType<typeof parseCommand>;
  try {
    parsed = parseCommand(argv);
  } catch (error) {
    io.err(`passgate: ${(error as Error).message}`);
    io.err("Run 'npm run passgate -- help' for the commands and flags.");
    return 2;
  }

  let ctx: AppContext | undefined;
  try {
    ctx = await createAppContext(loadConfig(io.env));
    await parsed.command.run({ ctx, values: parsed.values, io });
    return 0;
  } catch (error) {
    if (error instanceof AdminInputError) {
      const extra: Record<string, string> = {};
      if (parsed.values.password === undefined && io.env.PASSGATE_PASSWORD) extra.password = 'PASSGATE_PASSWORD';
      if (parsed.name === 'client create' && parsed.values.secret === undefined && io.env.PASSGATE_CLIENT_SECRET) extra.secret = 'PASSGATE_CLIENT_SECRET';
      for (const line of describeProblems(parsed.command.flags, error.problems, parsed.values, extra)) io.err(line);
      return 1;
    }
    if (error instanceof ConfigError || error instanceof ServerSecretsError) {
      io.err(error.message);
      return 1;
    }
    io.err(`passgate ${parsed.name}: failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await ctx?.close();
  }
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  run(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
