/**
 * Builds real file trees in a temp folder for the Node-only tests: files, folders and symlinks, from
 * a flat spec `{ 'a/b.txt': 'text', 'link': { symlink: '../target' } }`.
 */
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A symlink entry; `target` is written as given (relative targets resolve from the link's folder). */
export interface SymlinkSpec {
  symlink: string;
}

export type TreeSpec = Record<string, string | Uint8Array | SymlinkSpec | Record<string, unknown>>;

/** Writes `spec` under `root`; a plain object value that is not a symlink is written as JSON. */
export async function writeTree(root: string, spec: TreeSpec): Promise<void> {
  for (const [rel, value] of Object.entries(spec)) {
    const target = path.join(root, ...rel.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    if (typeof value === 'string' || value instanceof Uint8Array) {
      await writeFile(target, value);
    } else if ('symlink' in value && typeof value.symlink === 'string') {
      await symlink(value.symlink, target);
    } else {
      await writeFile(target, `${JSON.stringify(value, null, 2)}\n`);
    }
  }
}

/** A fresh temp folder (real path) and a function removing it. */
export async function tempDir(prefix: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), `skillport-${prefix}-`)));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A minimal valid SKILL.md. */
export function skillMd(name: string, description = `The ${name} skill`, body = `# ${name}\n`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;
}
