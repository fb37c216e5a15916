/** `keys create|list|revoke`: API keys, through the admin routes (admin or root key). */
import type { Command } from 'commander';
import { type Context, createContext } from '../internal/context.js';
import { CliError, type CliIo, printJson } from '../internal/io.js';
import { renderPairs, renderTable } from '../internal/table.js';

/**
 * The account a `keys` command acts on: `--account`, else the account of the caller's key, else
 * `default` — also for a root key, whose account (`*`, every account) names none.
 */
async function accountOf(ctx: Context, explicit: string | undefined): Promise<string> {
  if (explicit) return explicit;
  const health = await (await ctx.client()).initialize();
  const own = health.account_id;
  return own === undefined || own === null || own === '*' ? 'default' : own;
}

/** Registers `keys …`. */
export function registerKeys(program: Command, io: CliIo): void {
  const keys = program
    .command('keys')
    .description('manage API keys (needs an admin or root key; dev mode: account "default")');

  keys
    .command('create')
    .description(
      'create an API key for a user (the user is created when missing, and with a root key the account too); the key is printed once',
    )
    .requiredOption('--user <id>', 'user the key acts as')
    .option('--role <role>', 'user (default) or admin')
    .option('--account <id>', 'account (default: the account of your key, or "default")')
    .action(async (options: { user: string; role?: string; account?: string }, command: Command) => {
      const ctx = createContext(io, command);
      if (options.role !== undefined && options.role !== 'user' && options.role !== 'admin') {
        throw new CliError(`--role must be "user" or "admin", got "${options.role}"`);
      }
      const account = await accountOf(ctx, options.account);
      const client = await ctx.client();
      // In dev mode every request was user `default` of account `default`: the first key ends dev mode,
      // and the skills added so far stay with that user. Count them now to say where they went.
      const health = await client.initialize();
      const devSkills =
        health.auth_mode === 'dev' ? ((await client.listSkills({ node_limit: '1' })).total ?? 0) : 0;
      // Creating an account (root keys only) and a user are idempotent on the server, so a key can be
      // made for a new user — with a root key, of a new account — in one step.
      if (health.role === 'root') await client.createAccount(account);
      await client.createUser(account, options.user);
      const created = await client.createApiKey(account, {
        user_id: options.user,
        ...(options.role ? { role: options.role as 'user' | 'admin' } : {}),
      });
      if (health.auth_mode === 'dev') {
        const own = created.account_id === 'default' && created.user_id === 'default';
        io.stderr.write(
          'Dev mode has ended: every request now needs an API key (--api-key, SKILLPORT_API_KEY or ' +
            '`skillport config set api_key <key>`).\n',
        );
        if (devSkills > 0 && !own) {
          io.stderr.write(
            `The ${devSkills} skill${devSkills === 1 ? '' : 's'} added in dev mode belong${devSkills === 1 ? 's' : ''} to user ` +
              '"default" of account "default" (viking://user/default/skills), not to this key\'s user. To reach ' +
              'them, create a key for that user with this one: `skillport keys create --account default ' +
              '--user default --api-key <this key>`.\n',
          );
        }
      }
      if (ctx.format === 'json') return printJson(io, created);
      ctx.print(
        renderPairs([
          ['key id', created.key_id],
          ['account', created.account_id],
          ['user', created.user_id],
          ['role', created.role],
          ['api key', created.api_key],
        ]),
      );
      io.stderr.write('Store the api key now: it is not shown again.\n');
    });

  keys
    .command('list')
    .description('list the API keys of an account (never the secrets)')
    .option('--account <id>', 'account (default: the account of your key, or "default")')
    .action(async (options: { account?: string }, command: Command) => {
      const ctx = createContext(io, command);
      const account = await accountOf(ctx, options.account);
      const result = await (await ctx.client()).listApiKeys(account);
      if (ctx.format === 'json') return printJson(io, result);
      if (result.keys.length === 0) {
        return ctx.print(`no keys in account ${JSON.stringify(account)} (--account <id> lists another)\n`);
      }
      ctx.print(
        renderTable(
          result.keys,
          [
            { header: 'key id', value: (k) => k.key_id, flexible: false },
            { header: 'user', value: (k) => k.user_id },
            { header: 'role', value: (k) => k.role, flexible: false },
            { header: 'prefix', value: (k) => k.prefix, flexible: false },
            { header: 'created', value: (k) => k.created_at, flexible: false },
            { header: 'revoked', value: (k) => k.revoked_at ?? '' },
          ],
          ctx.width,
        ),
      );
    });

  keys
    .command('revoke')
    .description('revoke an API key')
    .argument('<key-id>', 'key id (from keys list)')
    .option('--account <id>', 'account (default: the account of your key, or "default")')
    .action(async (keyId: string, options: { account?: string }, command: Command) => {
      const ctx = createContext(io, command);
      const account = await accountOf(ctx, options.account);
      const result = await (await ctx.client()).revokeApiKey(account, keyId);
      if (ctx.format === 'json') return printJson(io, result);
      ctx.print(result.revoked ? `revoked ${result.key_id}\n` : `${result.key_id} was already revoked\n`);
    });
}
