/**
 * Where the CLI finds the server URL and API key: `--url`/`--api-key`, then `SKILLPORT_URL` /
 * `SKILLPORT_API_KEY`, then the config file (`$XDG_CONFIG_HOME/skillport/config.json`, else
 * `~/.config/skillport/config.json`), then the default URL `http://127.0.0.1:1933`.
 */
import { chmod, readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_URL } from '@skillport/sdk-node';
import { makeFolder } from './folder.js';
import { CliError } from './io.js';

/** Keys of the config file. */
export const CONFIG_KEYS = ['url', 'api_key'] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];
export type ConfigFile = Partial<Record<ConfigKey, string>>;

/** Where a setting came from. */
export type ConfigSource = 'flag' | 'env' | 'file' | 'default' | 'unset';

export interface ResolvedSetting {
  value: string | undefined;
  source: ConfigSource;
}

/** Path of the user's config file. */
export function configPath(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME?.trim()
    ? env.XDG_CONFIG_HOME
    : path.join(env.HOME ?? os.homedir(), '.config');
  return path.join(base, 'skillport', 'config.json');
}

/** Reads the config file; a missing file is an empty config, a broken one a clear error. */
export async function readConfig(env: NodeJS.ProcessEnv): Promise<ConfigFile> {
  const file = configPath(env);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CliError(`cannot read ${file}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    // A byte order mark, as Windows editors and PowerShell 5 save UTF-8, is not part of the JSON.
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new CliError(`${file} is not valid JSON (${(error as Error).message}); fix or delete it`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new CliError(`${file} must hold a JSON object such as {"url": "${DEFAULT_URL}"}`);
  }
  const config: ConfigFile = {};
  for (const key of CONFIG_KEYS) {
    const value = (parsed as Record<string, unknown>)[key];
    if (typeof value === 'string') config[key] = value;
  }
  return config;
}

/** Writes the config file atomically, readable by the user only (it may hold an API key). */
export async function writeConfig(env: NodeJS.ProcessEnv, config: ConfigFile): Promise<string> {
  const file = configPath(env);
  makeFolder(path.dirname(file), 0o700);
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(temp, 0o600);
  await rename(temp, file);
  return file;
}

/** Resolves the URL and key with their sources (flag, env, file, default). */
export async function resolveSettings(
  env: NodeJS.ProcessEnv,
  flags: { url?: string | undefined; apiKey?: string | undefined },
): Promise<{ url: ResolvedSetting; apiKey: ResolvedSetting }> {
  const file = await readConfig(env);
  const pick = (flag: string | undefined, envValue: string | undefined, fileValue: string | undefined) =>
    flag
      ? { value: flag, source: 'flag' as const }
      : envValue
        ? { value: envValue, source: 'env' as const }
        : fileValue
          ? { value: fileValue, source: 'file' as const }
          : undefined;
  const url = pick(flags.url, env.SKILLPORT_URL, file.url) ?? {
    value: DEFAULT_URL,
    source: 'default' as const,
  };
  const apiKey = pick(flags.apiKey, env.SKILLPORT_API_KEY, file.api_key) ?? {
    value: undefined,
    source: 'unset' as const,
  };
  return { url, apiKey };
}

/** Checks a config key name. */
export function parseConfigKey(raw: string): ConfigKey {
  const key = raw.replace(/-/g, '_') as ConfigKey;
  if (!CONFIG_KEYS.includes(key)) {
    throw new CliError(`unknown config key "${raw}": expected one of ${CONFIG_KEYS.join(', ')} (e.g. "url")`);
  }
  return key;
}
