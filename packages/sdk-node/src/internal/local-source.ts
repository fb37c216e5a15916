/**
 * Resolving a string given to `addSkill`/`updateSkill`: an existing file or folder on this machine is
 * read (file) or zipped (folder) so it can be uploaded; anything else is skill content.
 *
 * The package root stays free of `node:*` imports (it bundles for any runtime): the filesystem is
 * reached through `process.getBuiltinModule` (Node ≥ 20.16) and the folder zipper of
 * `@skillport/core/node` is loaded on demand. Where neither exists (browsers, workers), strings are
 * always content.
 */

/** A local file or folder read for upload: the bytes and the file name to send. */
export interface LocalUpload {
  bytes: Uint8Array;
  filename: string;
  /** Absolute path that was read. */
  source: string;
  kind: 'file' | 'folder';
}

interface NodeFs {
  stat(path: string): Promise<{ isDirectory(): boolean; isFile(): boolean }>;
  readFile(path: string): Promise<Uint8Array>;
}
interface NodePath {
  resolve(...parts: string[]): string;
  join(...parts: string[]): string;
  basename(path: string): string;
}
interface NodeProcess {
  env: Record<string, string | undefined>;
  getBuiltinModule?: (id: string) => unknown;
}

function nodeModules(): { fs: NodeFs; path: NodePath; env: NodeProcess['env'] } | undefined {
  const proc = (globalThis as { process?: NodeProcess }).process;
  const get = proc?.getBuiltinModule;
  if (!proc || typeof get !== 'function') return undefined;
  return { fs: get('node:fs/promises') as NodeFs, path: get('node:path') as NodePath, env: proc.env };
}

/** True when a string has the shape of a host path rather than of SKILL.md content (`POST /api/v1/skills`, `data` form 1, in the OpenAPI document). */
export function looksLikePath(value: string): boolean {
  if (value.includes('\n') || value.length > 4096 || value.trim() === '') return false;
  return (
    /[\\/]/.test(value) || /^(\.{1,2}[\\/]|~[\\/]|[A-Za-z]:\\)/.test(value) || /\.(md|zip)$/i.test(value)
  );
}

/**
 * Reads a local path for upload, or returns `undefined` when `value` is content.
 * @throws Error when `value` looks like a path but nothing exists there (so a typo is not sent as
 *   content), or when it names something that is neither a file nor a folder.
 */
export async function readLocalSource(value: string): Promise<LocalUpload | undefined> {
  if (value.includes('\n') || value.trim() === '' || value.length > 4096) return undefined;
  const node = nodeModules();
  if (!node) return undefined;
  const { fs, path, env } = node;
  const home = env.HOME ?? env.USERPROFILE;
  const trimmed = value.trim();
  const expanded = home && /^~[\\/]/.test(trimmed) ? path.join(home, trimmed.slice(2)) : trimmed;
  const candidate = path.resolve(expanded);
  const info = await fs.stat(candidate).catch(() => undefined);
  if (!info) {
    if (looksLikePath(value)) {
      throw new Error(`no such file or folder: ${value.slice(0, 300)} (resolved to ${candidate})`);
    }
    return undefined;
  }
  if (info.isDirectory()) {
    // Loaded on demand: the folder walker pulls in the skill parser, which plain calls do not need.
    const { zipSkillDir } = await import('@skillport/core/node');
    const bytes = await zipSkillDir(candidate);
    return {
      bytes,
      filename: `${path.basename(candidate) || 'skill'}.zip`,
      source: candidate,
      kind: 'folder',
    };
  }
  if (!info.isFile()) throw new Error(`not a regular file or folder: ${candidate}`);
  const bytes = new Uint8Array(await fs.readFile(candidate));
  return { bytes, filename: path.basename(candidate), source: candidate, kind: 'file' };
}
