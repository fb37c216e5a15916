/**
 * Resolving a string given to `addSkill`/`updateSkill`: an existing file or folder on this machine is
 * read (file) or zipped (folder) so it can be uploaded; anything else is skill content.
 *
 * The package root stays free of `node:*` imports (it bundles for any runtime): the filesystem is
 * reached through `process.getBuiltinModule` (Node ≥ 20.16) and the folder zipper of
 * `@skillport/core/node` is loaded on demand. Where neither exists (browsers, workers), strings are
 * always content.
 */

import { LocalError } from '@skillport/sdk-browser';

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

/** The code for a file system error of reading `path` (`EACCES` → `PERMISSION_DENIED`, …). */
function readError(error: unknown, path: string): LocalError {
  const code = (error as { code?: unknown } | null)?.code;
  const denied = code === 'EACCES' || code === 'EPERM';
  return new LocalError(
    denied ? 'PERMISSION_DENIED' : code === 'ENOENT' ? 'NOT_FOUND' : 'INVALID_ARGUMENT',
    `cannot read ${path}: ${(error as Error).message}`,
    {
      details: { field: 'source', path, reason: typeof code === 'string' ? code : 'unreadable' },
      cause: error,
    },
  );
}

/**
 * Reads a local path for upload, or returns `undefined` when `value` is content.
 * @throws LocalError (nothing sent; `details.field` `source`, `details.path` the resolved path):
 *   `NOT_FOUND` when `value` looks like a path but nothing exists there (so a typo is not sent as
 *   content); `INVALID_ARGUMENT` when it names something that is neither a file nor a folder;
 *   `PERMISSION_DENIED` when it cannot be read; for a folder, the code `zipSkillDir` gives (`NOT_FOUND`
 *   without SKILL.md at its root, `INVALID_ARGUMENT`, `PAYLOAD_TOO_LARGE`, …) with its details.
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
      throw new LocalError(
        'NOT_FOUND',
        `no such file or folder: ${value.slice(0, 300)} (resolved to ${candidate})`,
        { details: { field: 'source', path: candidate } },
      );
    }
    return undefined;
  }
  if (info.isDirectory()) {
    // Loaded on demand: the folder walker pulls in the skill parser, which plain calls do not need.
    const [{ zipSkillDir }, { isSkillportError }] = await Promise.all([
      import('@skillport/core/node'),
      import('@skillport/core'),
    ]);
    const bytes = await zipSkillDir(candidate).catch((error: unknown) => {
      // One error class for every local refusal, which also crosses SyncHTTPClient's worker whole.
      if (isSkillportError(error)) {
        throw new LocalError(error.code, error.message, { details: error.details, cause: error });
      }
      throw readError(error, candidate);
    });
    return {
      bytes,
      filename: `${path.basename(candidate) || 'skill'}.zip`,
      source: candidate,
      kind: 'folder',
    };
  }
  if (!info.isFile()) {
    throw new LocalError('INVALID_ARGUMENT', `not a regular file or folder: ${candidate}`, {
      details: { field: 'source', path: candidate, reason: 'not_file_or_folder' },
    });
  }
  const bytes = new Uint8Array(
    await fs.readFile(candidate).catch((error: unknown) => {
      throw readError(error, candidate);
    }),
  );
  return { bytes, filename: path.basename(candidate), source: candidate, kind: 'file' };
}
