/**
 * `db export <file>` / `db import <file>`: move a whole Skillport database (accounts, users, API key
 * hashes, skills, files, revision history, jobs) between stores — SQLite ↔ PostgreSQL — through a
 * versioned archive. Runs the server package in this process against the database directly (no
 * running server needed; stop the servers before an import).
 */
import {
  closeSync,
  createReadStream,
  createWriteStream,
  existsSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
} from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { Command } from 'commander';
import { createContext } from '../internal/context.js';
import { CliError, type CliIo, EXIT, printJson } from '../internal/io.js';
import { describeStoreError, loadServer, type ServerModule } from '../internal/load-server.js';

interface DbOptions {
  databaseUrl?: string;
  dataDir?: string;
}

/**
 * Opens the store the options (or `SKILLPORT_DATABASE_URL` / `SKILLPORT_DATA_DIR`, with the
 * PostgreSQL settings `SKILLPORT_DATABASE_SCHEMA`, `…_SSL`, `…_SSL_CA`, …) name. An export
 * needs an existing SQLite file (a typo in a path must not export an empty new database).
 */
async function openStore(server: ServerModule, io: CliIo, options: DbOptions, mustExist: boolean) {
  const env = server.optionsFromEnv(io.env);
  const databaseUrl = options.databaseUrl ?? env.databaseUrl;
  const dataDir = path.resolve(io.cwd, options.dataDir ?? env.dataDir ?? './.skillport');
  if (mustExist) {
    const sqlite = databaseUrl
      ? /^sqlite:(?:\/\/)?(.+)$/i.exec(databaseUrl.trim())?.[1]
      : path.join(dataDir, 'skillport.db');
    if (sqlite !== undefined && !existsSync(path.resolve(io.cwd, sqlite))) {
      throw new CliError(
        `no Skillport database at ${path.resolve(io.cwd, sqlite)}; pass --data-dir or --database-url (or SKILLPORT_DATA_DIR / SKILLPORT_DATABASE_URL)`,
      );
    }
  }
  try {
    // The PostgreSQL settings too (`SKILLPORT_DATABASE_SCHEMA`, `…_SSL`, `…_SSL_CA`, …), as the server
    // reads them: without them a registry in its own schema would export the `public` one.
    return await server.openStore({
      ...(databaseUrl ? { databaseUrl } : {}),
      dataDir,
      ...(env.postgres ? { postgres: env.postgres } : {}),
    });
  } catch (error) {
    // A setting the user chose (a data folder that cannot be created, an unsupported URL): exit 1.
    const refused = (error as { code?: unknown } | null)?.code === 'SKILLPORT_CONFIG';
    throw new CliError(
      `cannot open the database: ${describeStoreError(error)}`,
      refused ? EXIT.user : EXIT.server,
    );
  }
}

/**
 * What an import into a new SQLite database creates: the topmost data folder that does not exist
 * yet, or — for a `sqlite:` URL — the database file and its journal files when the file does not
 * exist yet. An import that fails removes them, so a mistyped path leaves nothing behind. Nothing
 * for PostgreSQL, or for a database or folder that was already there.
 */
function createdByImport(io: CliIo, databaseUrl: string | undefined, dataDir: string | undefined): string[] {
  if (databaseUrl) {
    const file = /^sqlite:(?:\/\/)?(.+)$/i.exec(databaseUrl.trim())?.[1];
    if (file === undefined) return [];
    const full = path.resolve(io.cwd, file);
    return existsSync(full) ? [] : ['', '-wal', '-shm', '-journal'].map((suffix) => `${full}${suffix}`);
  }
  let missing: string | undefined;
  for (let dir = path.resolve(io.cwd, dataDir ?? './.skillport'); !existsSync(dir); ) {
    missing = dir;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return missing === undefined ? [] : [missing];
}

/** One line per non-zero count, e.g. `88 skills, 101 revisions, 153 file contents`. */
function describeCounts(counts: Record<string, number>): string {
  const names: Record<string, [string, string]> = {
    account: ['account', 'accounts'],
    user: ['user', 'users'],
    api_key: ['API key', 'API keys'],
    blob: ['file content', 'file contents'],
    skill: ['skill', 'skills'],
    revision: ['revision', 'revisions'],
    task: ['job', 'jobs'],
    temp_upload: ['temp upload', 'temp uploads'],
  };
  return Object.entries(counts)
    .map(([type, n]) => {
      const [one, many] = names[type] ?? [type, type];
      return `${n} ${n === 1 ? one : many}`;
    })
    .join(', ');
}

/** A Writable over the CLI's stdout that honours its back-pressure (never ends stdout itself). */
function stdoutWritable(io: CliIo): Writable {
  const out = io.stdout as CliIo['stdout'] & { once?: (event: string, fn: () => void) => unknown };
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (out.write(chunk) === false && typeof out.once === 'function') out.once('drain', () => callback());
      else callback();
    },
  });
}

const storeOptions = (command: Command): Command =>
  command
    .option(
      '--database-url <url>',
      'database to use: postgres://… or sqlite:<file> (default SKILLPORT_DATABASE_URL, else SQLite in --data-dir)',
    )
    .option(
      '--data-dir <dir>',
      'data folder of the SQLite store (default SKILLPORT_DATA_DIR or ./.skillport)',
    );

/**
 * Refuses a zip before anything is opened or created: `skills export` writes a zip of skill folders,
 * which `skills import` adds to a running server; `db import` takes only the gzip archive of
 * `db export`, and gunzip's own "incorrect header check" did not say which command was meant.
 * @throws CliError (exit 1) when `resolved` starts with a zip's local file header.
 */
function refuseSkillsZip(file: string, resolved: string): void {
  let head: Buffer;
  try {
    const fd = openSync(resolved, 'r');
    try {
      head = Buffer.alloc(4);
      readSync(fd, head, 0, 4, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return; // unreadable: reported as such when the archive is opened
  }
  if (head.equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
    throw new CliError(
      `${file} is a zip, not an archive of \`skillport db export\` (gzip): a zip of skill folders from ` +
        `\`skillport skills export\` is added to a running server with \`skillport skills import ${file}\``,
    );
  }
}

/** Registers `db export` and `db import`. */
export function registerDb(program: Command, io: CliIo): Command {
  const db = program
    .command('db')
    .description('move a whole database between stores (SQLite ↔ PostgreSQL) through a versioned archive');

  storeOptions(
    db
      .command('export <file>')
      .description(
        'write every account, user, key hash, skill, file, revision and job to an archive (- = stdout)',
      ),
  ).action(async (file: string, options: DbOptions, command: Command) => {
    const ctx = createContext(io, command);
    const server = await loadServer('skillport db export');
    const store = await openStore(server, io, options, true);
    const target = file === '-' ? null : path.resolve(io.cwd, file);
    // Written beside the target and renamed at the end, so a failed export never leaves a file
    // that looks complete (an import would refuse it anyway: it has no `end` record).
    const partial = target === null ? null : `${target}.partial`;
    let counts: Record<string, number>;
    try {
      counts = await server.exportDatabase(
        store,
        partial === null ? stdoutWritable(io) : createWriteStream(partial),
      );
      if (partial !== null && target !== null) renameSync(partial, target);
    } catch (error) {
      if (partial !== null) rmSync(partial, { force: true });
      throw new CliError(`export failed: ${(error as Error).message}`, EXIT.server);
    } finally {
      await store.close();
    }
    if (target === null) {
      io.stderr.write(`Exported ${describeCounts(counts)}\n`);
    } else if (ctx.format === 'json') {
      printJson(io, { file: target, format: server.ARCHIVE_FORMAT, version: server.ARCHIVE_VERSION, counts });
    } else {
      ctx.print(`Exported ${describeCounts(counts)} to ${target}\n`);
    }
  });

  storeOptions(
    db
      .command('import <file>')
      .description('load an archive from `db export` into an empty database, all or nothing (- = stdin)'),
  ).action(async (file: string, options: DbOptions, command: Command) => {
    const ctx = createContext(io, command);
    if (file !== '-') refuseSkillsZip(file, path.resolve(io.cwd, file));
    const server = await loadServer('skillport db import');
    const input = file === '-' ? Readable.from(io.stdin) : createReadStream(path.resolve(io.cwd, file));
    if (file !== '-') {
      await new Promise<void>((resolve, reject) => {
        (input as ReturnType<typeof createReadStream>).once('open', () => resolve());
        input.once('error', (error: Error) => reject(new CliError(`cannot read ${file}: ${error.message}`)));
      });
    }
    const env = server.optionsFromEnv(io.env);
    const created = createdByImport(
      io,
      options.databaseUrl ?? env.databaseUrl,
      options.dataDir ?? env.dataDir,
    );
    const store = await openStore(server, io, options, false);
    let result: Awaited<ReturnType<ServerModule['importDatabase']>>;
    try {
      result = await server.importDatabase(store, input);
    } catch (error) {
      await store.close();
      // The database and folders this import created go too: a failed import leaves nothing.
      for (const made of created) rmSync(made, { recursive: true, force: true });
      const code = (error as { code?: unknown }).code;
      const status = code === 'INVALID_ARGUMENT' || code === 'CONFLICT' ? EXIT.user : EXIT.server;
      throw new CliError(`import failed, nothing was written: ${(error as Error).message}`, status);
    }
    await store.close();
    if (ctx.format === 'json') {
      printJson(io, {
        file: file === '-' ? null : path.resolve(io.cwd, file),
        source: result.header,
        counts: result.counts,
      });
    } else {
      ctx.print(
        `Imported ${describeCounts(result.counts)} (archive of ${result.header.created_at} from ${result.header.source_engine})\n`,
      );
    }
  });
  return db;
}
