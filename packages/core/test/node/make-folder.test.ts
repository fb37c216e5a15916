import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeFolderSync } from '../../src/node/make-folder.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'skillport-make-folder-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function failure(dir: string): NodeJS.ErrnoException & { folder?: string } {
  try {
    makeFolderSync(dir);
  } catch (error) {
    return error as NodeJS.ErrnoException & { folder?: string };
  }
  throw new Error(`makeFolderSync(${dir}) did not fail`);
}

describe('makeFolderSync', () => {
  it('creates every missing folder of the path, and accepts one that exists', () => {
    const dir = path.join(root, 'a', 'b', 'c');
    makeFolderSync(dir);
    expect(statSync(dir).isDirectory()).toBe(true);
    makeFolderSync(dir);
    makeFolderSync(root);
    expect(statSync(dir).isDirectory()).toBe(true);
  });

  it('resolves a relative path against the working folder', () => {
    const before = process.cwd();
    process.chdir(root);
    try {
      makeFolderSync('rel/x');
    } finally {
      process.chdir(before);
    }
    expect(statSync(path.join(root, 'rel', 'x')).isDirectory()).toBe(true);
  });

  it('applies mode to the folders it creates', () => {
    const dir = path.join(root, 'private');
    makeFolderSync(dir, { mode: 0o700 });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it.runIf(process.platform === 'linux')(
    'fails at once, naming the folder, where the file system lets no folder be created (/proc)',
    () => {
      // Node 20's recursive mkdir never returns here: the parent exists, yet mkdir says ENOENT.
      const error = failure('/proc/skillport-nope/data');
      expect(error.code).toBe('ENOENT');
      expect(error.path).toBe('/proc/skillport-nope');
      expect(error.folder).toBe('/proc/skillport-nope/data');
      expect(error.message).toContain('/proc/skillport-nope');
      expect(error.message).toMatch(/\/proc exists but does not allow/);
    },
  );

  it.runIf(process.platform === 'linux')(
    'fails where creating a folder is not permitted (/sys), even for root',
    () => {
      const error = failure('/sys/skillport-nope');
      expect(error.code).toBe('EPERM');
      expect(error.message).toContain('/sys/skillport-nope');
      expect(error.message).toContain('not permitted');
    },
  );

  it('fails when a part of the path is a file', () => {
    const file = path.join(root, 'file');
    writeFileSync(file, 'x');
    const below = failure(path.join(file, 'sub'));
    expect(below.code).toBe('ENOTDIR');
    expect(below.message).toContain(`${file} is a file, not a folder`);
    const itself = failure(file);
    expect(itself.code).toBe('ENOTDIR');
    expect(itself.message).toContain(`${file} is a file, not a folder`);
  });

  it.skipIf(process.getuid?.() === 0)('fails on a folder it may not write to, creating nothing', () => {
    const locked = path.join(root, 'locked');
    makeFolderSync(locked);
    chmodSync(locked, 0o500);
    try {
      const error = failure(path.join(locked, 'a', 'b'));
      expect(error.code).toBe('EACCES');
      expect(error.message).toContain('permission denied');
      expect(existsSync(path.join(locked, 'a'))).toBe(false);
    } finally {
      chmodSync(locked, 0o700);
    }
  });
});
