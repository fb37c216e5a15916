/**
 * Small path helpers shared by the Node-only modules: POSIX relative paths and containment checks.
 */
import path from 'node:path';

/**
 * Whether `child` is `parent` itself or lies inside it (both absolute, already resolved).
 * Compares whole segments, so `/a/bc` is not inside `/a/b`.
 */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** `target` relative to `root`, with `/` separators on every platform. */
export function toPosixRelative(root: string, target: string): string {
  return path.relative(root, target).split(path.sep).join('/');
}

/** Error code of a Node filesystem error (`ENOENT`, `EACCES`, …), or `undefined`. */
export function fsErrorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

/** A short human reason for a filesystem error, e.g. `ENOENT: no such file or directory`. */
export function describeFsError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
