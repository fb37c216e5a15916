/** `config [get|set|unset|path]`: the server URL and API key the CLI uses. */
import type { Command } from 'commander';
import { configPath, parseConfigKey, readConfig, resolveSettings, writeConfig } from '../internal/config.js';
import { createContext, type GlobalOptions } from '../internal/context.js';
import { CliError, type CliIo, printJson } from '../internal/io.js';
import { renderTable } from '../internal/table.js';

function mask(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return value.length <= 8 ? '********' : `${value.slice(0, 4)}…${value.slice(-2)}`;
}

/** Registers `config …`. */
export function registerConfig(program: Command, io: CliIo): void {
  const config = program
    .command('config')
    .description(
      'show or change the server URL and API key (env SKILLPORT_URL / SKILLPORT_API_KEY win over the file)',
    );

  config
    .command('get', { isDefault: true })
    .aliases(['show', 'list'])
    .description('show the effective settings and where each comes from')
    .argument('[key]', 'url or api_key')
    .option('--reveal', 'print the API key in full')
    .action(async (key: string | undefined, options: { reveal?: boolean }, command: Command) => {
      const ctx = createContext(io, command);
      const globals = command.optsWithGlobals<GlobalOptions>();
      const settings = await resolveSettings(io.env, { url: globals.url, apiKey: globals.apiKey });
      const rows = [
        { key: 'url', value: settings.url.value, source: settings.url.source },
        {
          key: 'api_key',
          value: options.reveal ? settings.apiKey.value : mask(settings.apiKey.value),
          source: settings.apiKey.source,
        },
      ].filter((row) => key === undefined || row.key === parseConfigKey(key));
      if (ctx.format === 'json') {
        return printJson(io, { file: configPath(io.env), settings: rows });
      }
      if (key !== undefined) return ctx.print(`${rows[0]?.value ?? ''}\n`);
      ctx.print(
        renderTable(rows, [
          { header: 'key', value: (r) => r.key },
          { header: 'value', value: (r) => r.value ?? '(none)' },
          { header: 'source', value: (r) => r.source },
        ]),
      );
      ctx.print(`file: ${configPath(io.env)}\n`);
    });

  config
    .command('set')
    .description('save a setting in the config file')
    .argument('<key>', 'url or api_key')
    .argument('<value>', 'the value')
    .action(async (rawKey: string, value: string, _options: unknown, command: Command) => {
      const ctx = createContext(io, command);
      const key = parseConfigKey(rawKey);
      if (key === 'url' && !/^https?:\/\/[^/]/i.test(value)) {
        throw new CliError(
          `url must be an absolute http(s) URL such as http://127.0.0.1:1933, got "${value}"`,
        );
      }
      const userinfo = key === 'url' ? /^(https?:\/\/)([^/?#]*)@/i.exec(value) : null;
      if (userinfo) {
        // A password saved here would be shown by every message that quotes the URL; fetch refuses
        // such a URL anyway.
        throw new CliError(
          `url must not carry a user name or password (${userinfo[1]}***@${value.slice(userinfo[0].length)}): save the server's URL alone, such as http://127.0.0.1:1933, and the key with \`skillport config set api_key <key>\``,
        );
      }
      if (key === 'url' && /[?#]/.test(value)) {
        throw new CliError(
          `url must be the server's base URL, without a query (?…) or fragment (#…), such as http://127.0.0.1:1933 or https://example.com/skillport; got "${value}"`,
        );
      }
      if (key === 'api_key' && value.trim() === '') {
        throw new CliError(
          'api_key must not be empty or blank: give the key (skillport keys create prints one), or remove the saved one with `skillport config unset api_key`',
        );
      }
      if (key === 'api_key' && /[\u0000-\u0020\u007f]/.test(value)) {
        throw new CliError(
          'api_key must not contain spaces, tabs, line breaks or other control characters (a pasted key often carries one): give the key alone',
        );
      }
      const current = await readConfig(io.env);
      const file = await writeConfig(io.env, { ...current, [key]: value });
      if (ctx.format === 'json') return printJson(io, { file, key, saved: true });
      ctx.print(`saved ${key} in ${file}\n`);
    });

  config
    .command('unset')
    .description('remove a setting from the config file')
    .argument('<key>', 'url or api_key')
    .action(async (rawKey: string, _options: unknown, command: Command) => {
      const ctx = createContext(io, command);
      const key = parseConfigKey(rawKey);
      const current = await readConfig(io.env);
      delete current[key];
      const file = await writeConfig(io.env, current);
      if (ctx.format === 'json') return printJson(io, { file, key, removed: true });
      ctx.print(`removed ${key} from ${file}\n`);
    });
}
