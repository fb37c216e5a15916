import { createHash } from 'node:crypto';

/** One line of a revision manifest. */
export interface ManifestEntry {
  path: string;
  sha256: string;
  /** True for an executable file (see {@link computeRevision}). */
  executable?: boolean | undefined;
}

/**
 * Hex sha-256 of a byte string.
 *
 * @param content - the bytes (a string is hashed as its UTF-8 encoding)
 * @returns 64 lowercase hex characters
 * @example
 * ```ts
 * sha256Hex(''); // 'e3b0c442…b855'
 * ```
 */
export function sha256Hex(content: Uint8Array | string): string {
  return createHash('sha256').update(content).digest('hex');
}

/** Bytes hashed between two yields to the event loop by {@link sha256HexAsync} (~2 ms of work). */
const HASH_SLICE = 1024 * 1024;

/**
 * {@link sha256Hex} for large contents without holding the event loop: hashed a mebibyte at a time,
 * yielding in between (48 MiB is ~100 ms of hashing).
 *
 * @param content - the bytes
 * @returns 64 lowercase hex characters
 */
export async function sha256HexAsync(content: Uint8Array): Promise<string> {
  if (content.byteLength <= HASH_SLICE) return sha256Hex(content);
  const hash = createHash('sha256');
  for (let start = 0; start < content.byteLength; start += HASH_SLICE) {
    hash.update(content.subarray(start, Math.min(content.byteLength, start + HASH_SLICE)));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return hash.digest('hex');
}

/**
 * The revision of a skill: the hex sha-256 of its file manifest, i.e. one `path\0sha256\n` line per
 * file — `path\0sha256\0x\n` for an executable one — sorted by path (code-unit order). Two versions
 * with the same files at the same paths have the same revision whatever order the files were given
 * in; renaming or changing any file, or making one executable or not, changes it. A skill without
 * executable files hashes exactly as before executable files were recorded, so its revision (and
 * ETag) stayed what it was.
 *
 * The derived `.overview.md` is never part of a revision (see `store/types.ts`); callers pass the
 * files written by `putSkill`.
 *
 * @param entries - the files (`path`, hex `sha256`); paths must be unique
 * @returns 64 lowercase hex characters
 * @throws Error when two entries share a path (a programmer error: the store checks paths first)
 * @example
 * ```ts
 * computeRevision([{ path: 'SKILL.md', sha256: sha256Hex(text) }]);
 * ```
 */
export function computeRevision(entries: readonly ManifestEntry[]): string {
  const sorted = [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const hash = createHash('sha256');
  let previous: string | null = null;
  for (const entry of sorted) {
    if (entry.path === previous)
      throw new Error(`computeRevision: duplicate path ${JSON.stringify(entry.path)}`);
    previous = entry.path;
    hash.update(
      entry.executable === true ? `${entry.path}\0${entry.sha256}\0x\n` : `${entry.path}\0${entry.sha256}\n`,
    );
  }
  return hash.digest('hex');
}
