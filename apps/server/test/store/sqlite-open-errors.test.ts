/**
 * A SQLite database that cannot be opened stops the start with a message naming the file and why,
 * as a data folder that cannot be created already did. SQLite's own words ("unable to open database
 * file", "attempt to write a readonly database", "database or disk is full", "file is not a
 * database") named neither the file nor the folder, so an operator facing a folder the service user
 * cannot write, a read-only mount or a full disk was left to guess.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../src/index.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true, force: true });
  }
});
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-open-errors-'));
  dirs.push(dir);
  return dir;
}

describe('a SQLite database that cannot be opened', () => {
  it('a folder where the database file should be: the message names it', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'skillport.db');
    mkdirSync(file);
    expect(() => createSqliteStore({ dataDir: dir })).toThrow(
      `cannot open the SQLite database ${file}: ${file} is a folder, not a database file`,
    );
    // The server opens it in its database thread: the same message reaches the caller.
    await expect(startServer({ port: 0, dataDir: dir, logger: false })).rejects.toThrow(
      `cannot open the SQLite database ${file}: ${file} is a folder`,
    );
  });

  it('a file that is not a SQLite database: the message names it and keeps the code', () => {
    const dir = tempDir();
    const file = path.join(dir, 'skillport.db');
    writeFileSync(file, 'x'.repeat(4096));
    let thrown: unknown;
    try {
      createSqliteStore({ dataDir: dir });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message).toBe(`cannot open the SQLite database ${file}: file is not a database`);
    expect((thrown as { code?: string }).code).toBe('SQLITE_NOTADB');
  });

  // Permissions do not hold back root: run where the tests do not run as root.
  it.runIf(process.getuid?.() !== 0)(
    'a folder this process cannot write: the message names the folder and the user',
    async () => {
      const dir = tempDir();
      chmodSync(dir, 0o555);
      await expect(startServer({ port: 0, dataDir: dir, logger: false })).rejects.toThrow(
        `cannot open the SQLite database ${path.join(dir, 'skillport.db')}: the folder ${dir} is not writable by this process (user ${process.getuid?.()})`,
      );
    },
  );
});
