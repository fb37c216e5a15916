/** What `serve` and `db` say when the server's SQLite binding cannot be loaded. */
import { describe, expect, it } from 'vitest';
import { describeStoreError } from '../../src/internal/load-server.js';

describe('describeStoreError', () => {
  it('a binding that was never built (install scripts skipped, as pnpm 10 does): says how to build it', () => {
    const error = new Error(
      'Could not locate the bindings file. Tried:\n → /app/node_modules/better-sqlite3/build/better_sqlite3.node\n → /app/node_modules/better-sqlite3/build/Release/better_sqlite3.node',
    );
    const text = describeStoreError(error);
    expect(text.split('\n')[0]).toBe('Could not locate the bindings file (better-sqlite3).');
    expect(text).toContain("SQLite's native binding (better-sqlite3) is not built");
    expect(text).toContain('npm rebuild better-sqlite3');
    expect(text).toContain('pnpm approve-builds');
    expect(text).toContain('onlyBuiltDependencies');
    expect(text).toContain('--database-url postgres://');
    expect(text).not.toContain('/build/Release/');
  });

  it('a binding built for another Node.js version: says the same', () => {
    const error = new Error(
      "The module '/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 127. Please try re-compiling or re-installing\nthe module (for instance, using `npm rebuild` or `npm install`).",
    );
    const text = describeStoreError(error);
    expect(text).toContain('was compiled against a different Node.js version');
    expect(text).toContain(`is not built for this Node.js (${process.version})`);
    expect(text).toContain('npm rebuild better-sqlite3');
  });

  it('any other error is its message alone', () => {
    expect(describeStoreError(new Error('SQLITE_CANTOPEN: unable to open database file'))).toBe(
      'SQLITE_CANTOPEN: unable to open database file',
    );
    expect(describeStoreError('plain')).toBe('plain');
  });
});
