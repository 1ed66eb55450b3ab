import { CLIENT_FLAGS, TENANT_FLAGS, USER_FLAGS, type FlagSpec } from './flags.ts';
import { ADMIN_FLAGS } from './admin-commands.ts';

const KIND_HINT: Record<FlagSpec['kind'], string> = {
  text: '<text>',
  nullable: '<text>',
  optional: '<text>',
  bool: 'true|false',
  int: '<n>',
  nullableInt: '<n>|none',
  list: '<a,b,…>',
};

function flagLines(specs: FlagSpec[], only?: string[]): string {
  return specs
    .filter((s) => !only || only.includes(s.flag))
    .map((s) => `    --${`${s.flag} ${KIND_HINT[s.kind]}`.padEnd(38)} ${s.help}`)
    .join('\n');
}

export function helpText(): string {
  return `Passgate command line: manage tenants, clients (relying parties), users and keys.

Usage: npm run passgate -- <command> [flags]

Commands:
  tenant create --id <id> --name <name> [settings]
  tenant list
  tenant show --id <id>
  tenant update --id <id> [settings]
  tenant remove --id <id>              refused while the tenant has clients or users
  client create --id <id> --tenant <tenant> --name <name> --redirect-uris <uri,…> [settings]
  client list [--tenant <tenant>]
  client show --id <id>
  client update --id <id> [settings]
  client remove --id <id>
  client rotate-secret --id <id>       a new generated secret, printed once; the old one stops working
  user create --tenant <tenant> (--email <address> | --phone <number>) --name <name> [--password <p>] [--status <s>]
  user set-password --tenant <tenant> --username <email or phone> [--password <p>]
                                       and ends every session of the user, as a password reset does
  user sign-out --tenant <tenant> --username <email or phone>
                                       ends every session of the user; relying parties with back-channel logout are told
  admin grant --email <address> --role operator|tenant-admin [--tenant <tenant>]
                                       lets a user of the admin console's tenant use /admin (a tenant admin: --tenant's clients and users)
  admin revoke --email <address> --role operator|tenant-admin [--tenant <tenant>]
  admin list                           every admin and their roles
  keys list                            the signing keys and which of them sign
  keys rotate-signing                  in two steps, each followed by a restart of every instance: new signing keys published,
                                       then signing (the previous ones verify until the longest token lifetime has passed)
  keys rotate-cookies                  the next cookie key (known to every instance) signs, a new next one is added;
                                       the previous two still verify
  help

Flag values:
  Switches take true or false (for example --registration-allowed false).
  Lists are comma-separated (--redirect-uris https://a.example/cb,https://b.example/cb).
  An empty value clears an optional setting (--logo-uri '' or --primary-color '').
  A value that starts with '-' is written --flag=value.
  Updates change only the flags given; nested settings (theme, password policy, username policy…) keep their other fields.

Tenant settings:
${flagLines(TENANT_FLAGS)}

Client settings:
${flagLines(CLIENT_FLAGS)}

User flags:
${flagLines(USER_FLAGS)}

Admin flags:
${flagLines(ADMIN_FLAGS)}

Secrets:
  Passwords may come from PASSGATE_PASSWORD, and the secret of a client being created from
  PASSGATE_CLIENT_SECRET, instead of flags, so they stay out of shell history. Neither is ever
  printed. A confidential client created without a secret (or a public client turned confidential)
  gets a generated one, printed once. client update changes the secret only with --secret.

Keys:
  Stored keys are encrypted with APP_SECRET. Keys given by OIDC_JWKS or COOKIE_KEYS are rotated
  in the environment instead. Running instances use new keys once restarted.

Configuration comes from the environment, as for the server (DATABASE_URL, APP_SECRET…).
Exit status: 0 done, 1 invalid input (one line per problem on stderr), 2 unknown command or flag.`;
}
