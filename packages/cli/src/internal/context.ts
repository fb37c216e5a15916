/** What every command gets: the streams, the output format, and a client built from the settings. */
import { AsyncHTTPClient } from '@skillport/sdk-node';
import type { Command } from 'commander';
import { resolveSettings } from './config.js';
import { CliError, type CliIo, type OutputFormat } from './io.js';

/** Global options (`-o`, `--url`, `--api-key`). */
export interface GlobalOptions {
  output?: string;
  url?: string;
  apiKey?: string;
}

export interface Context {
  io: CliIo;
  format: OutputFormat;
  /** Width tables must fit: the terminal's on a TTY, else `COLUMNS` or 160. */
  width: number | undefined;
  /** The client for the resolved URL and key (created on first use). */
  client(): Promise<AsyncHTTPClient>;
  /** Writes text (table mode) — callers print JSON with `printJson`. */
  print(text: string): void;
}

/** Parses `-o`. */
export function parseFormat(raw: string | undefined): OutputFormat {
  const value = (raw ?? 'table').toLowerCase();
  if (value !== 'table' && value !== 'json') {
    throw new CliError(`-o/--output must be "table" or "json", got "${raw}"`);
  }
  return value;
}

/** Builds the context of a command from its merged global options. */
export function createContext(io: CliIo, command: Command): Context {
  const options = command.optsWithGlobals<GlobalOptions>();
  const format = parseFormat(options.output);
  let client: AsyncHTTPClient | undefined;
  return {
    io,
    format,
    width: io.stdout.isTTY
      ? io.stdout.columns || Number(io.env.COLUMNS) || 100
      : Number(io.env.COLUMNS) || 160,
    async client() {
      if (!client) {
        const settings = await resolveSettings(io.env, { url: options.url, apiKey: options.apiKey });
        client = new AsyncHTTPClient({
          ...(settings.url.value ? { url: settings.url.value } : {}),
          ...(settings.apiKey.value ? { apiKey: settings.apiKey.value } : {}),
        });
      }
      return client;
    },
    print(text: string) {
      io.stdout.write(text);
    },
  };
}

/** Parses a positive number option (seconds, limits). */
export function parsePositive(name: string, raw: string | undefined, integer = false): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new CliError(`${name} must be a positive ${integer ? 'integer' : 'number'}, got "${raw}"`);
  }
  return value;
}
