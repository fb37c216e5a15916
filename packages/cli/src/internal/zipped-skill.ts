/**
 * A skill zip read the way the server's add reads it: SKILL.md at the archive root or in its single
 * top-level folder, `\` read as `/` (zips made on Windows), folder entries, `__MACOSX/` metadata and
 * `.DS_Store` / `Thumbs.db` left out, and the archives the server refuses whatever their SKILL.md
 * (an encrypted, symlink or ZIP64 entry, a compression method other than stored and deflate, a path
 * the server's path rule refuses — `skillUploadPathProblem` of @skillport/core: climbing out of the
 * skill, a name Windows cannot create, too long or too deep —, a duplicate entry, two paths that are
 * one file on macOS and Windows)
 * refused here too. Nothing is inflated but SKILL.md, and that only up to a size given by the caller,
 * checked against the size the archive declares before a byte is inflated (a zip bomb costs nothing).
 * `skills validate` checks the SKILL.md so located, and `add-skill` reads the skill's name from it.
 */
import { inflateRawSync } from 'node:zlib';
import { type SkillUploadPathProblem, skillPathConflict, skillUploadPathProblem } from '@skillport/core';

/** Names the server drops from an uploaded zip wherever they are. */
const IGNORED_BASENAMES = new Set(['.DS_Store', 'Thumbs.db']);
/** Files the server generates itself and drops from an upload. */
const DERIVED = new Set(['.abstract.md', '.overview.md']);
/** Largest SKILL.md inflated when the caller names no limit: 64 MiB, all a default server unzips. */
const DEFAULT_MAX_SKILL_MD_BYTES = 64 * 1024 * 1024;

const EOCD_SIG = 0x06054b50;
const CEN_SIG = 0x02014b50;
const LOC_SIG = 0x04034b50;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** Whether `bytes` start as a zip archive does (the server recognises a zip by content, not name). */
export function looksLikeZip(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 &&
    bytes[0] === 0x50 &&
    bytes[1] === 0x4b &&
    ((bytes[2] === 0x03 && bytes[3] === 0x04) || (bytes[2] === 0x05 && bytes[3] === 0x06))
  );
}

function basename(entry: string): string {
  return entry.slice(entry.lastIndexOf('/') + 1);
}

/** The skill found in a zip. */
export interface ZippedSkill {
  kind: 'skill';
  /** The SKILL.md bytes; null when the archive declares it larger than `maxSkillMdBytes` (not inflated). */
  skillMd: Uint8Array | null;
  /** The size of SKILL.md the archive declares, bytes. */
  skillMdSize: number;
  /** The top-level folder holding SKILL.md (the server checks `name` against it), or null at the root. */
  folderName: string | null;
  /** Where SKILL.md is, `/`-separated (`my-skill/SKILL.md`). */
  skillMdPath: string;
  /**
   * The files the server keeps from the zip: SKILL.md and the auxiliary files (a generated
   * `.abstract.md` / `.overview.md` in the zip is dropped; the server writes its own `.abstract.md`).
   */
  files: number;
}

/** A zip the server's add refuses for its layout (400 `missing_skill_md`), with the server's message. */
export interface ZipLayoutProblem {
  kind: 'missing_skill_md';
  message: string;
  /** Files named SKILL.md that are not where the server looks (at most 5). */
  found: string[];
  /** Files named `skill.md` in another letter case (at most 5). */
  misnamed: string[];
}

/**
 * A zip the server's add refuses for an entry, whatever its SKILL.md says (400): `zip_format` for an
 * encrypted, symlink or ZIP64 entry, an unsupported compression method or a duplicate entry; for a
 * path the path rule refuses, the server's `details.reason` (`traversal`, `windows_name`,
 * `too_deep`, …: see `skillUploadPathProblem`); `path_conflict` for two paths that are one file on
 * macOS and Windows.
 */
export interface ZipEntryProblem {
  kind: 'refused';
  rule: 'zip_format' | 'path_conflict' | SkillUploadPathProblem['reason'];
  message: string;
  /** The entry concerned, as the archive spells it (none for a ZIP64 archive). */
  path?: string;
}

interface Entry {
  /** The path as the server reads it (`\` read as `/`). */
  name: string;
  /** The name as the archive spells it. */
  written: string;
  flags: number;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  mode: number;
}

/** The entries of the archive's central directory; throws an Error when it is not a readable zip. */
function readEntries(zip: Uint8Array): { entries: Entry[]; zip64: boolean } {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let eocd = -1;
  for (let i = zip.byteLength - 22; i >= Math.max(0, zip.byteLength - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === EOCD_SIG) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('no end-of-central-directory record (not a zip, or truncated)');
  const count = view.getUint16(eocd + 10, true);
  const cdOffset = view.getUint32(eocd + 16, true);
  // 0xffff entries (or offset) is a ZIP64 archive's way of saying "see the ZIP64 record": the server
  // refuses it (for its entry count first, over a lower entry limit), so its entries are not read here.
  if (count === 0xffff || cdOffset === 0xffffffff) return { entries: [], zip64: true };
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const entries: Entry[] = [];
  let p = cdOffset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > zip.length || view.getUint32(p, true) !== CEN_SIG)
      throw new Error('corrupt central directory');
    const nameLength = view.getUint16(p + 28, true);
    const next = p + 46 + nameLength + view.getUint16(p + 30, true) + view.getUint16(p + 32, true);
    if (p + 46 + nameLength > zip.length) throw new Error('corrupt central directory');
    let written: string;
    try {
      written = decoder.decode(zip.subarray(p + 46, p + 46 + nameLength));
    } catch {
      const shown = new TextDecoder('utf-8').decode(zip.subarray(p + 46, p + 46 + nameLength));
      throw new Error(
        `entry name ${JSON.stringify(shown)} is not valid UTF-8; re-create the zip with UTF-8 file names`,
      );
    }
    entries.push({
      name: written.replaceAll('\\', '/'),
      written,
      flags: view.getUint16(p + 8, true),
      method: view.getUint16(p + 10, true),
      compressedSize: view.getUint32(p + 20, true),
      size: view.getUint32(p + 24, true),
      mode: (view.getUint32(p + 38, true) >>> 16) & 0xffff,
      localOffset: view.getUint32(p + 42, true),
    });
    p = next;
  }
  const zip64 = entries.some(
    (e) => e.size === 0xffffffff || e.compressedSize === 0xffffffff || e.localOffset === 0xffffffff,
  );
  return { entries, zip64 };
}

/**
 * The first entry the server refuses whatever SKILL.md says, in the order the server checks them.
 *
 * @param maxPathDepth - the server's `max_path_depth` (default 16, a default server's)
 */
function entryProblem(entries: readonly Entry[], maxPathDepth?: number): ZipEntryProblem | null {
  const refused = (entry: Entry, message: string): ZipEntryProblem => ({
    kind: 'refused',
    rule: 'zip_format',
    message,
    path: entry.written,
  });
  const seen = new Set<string>();
  for (const entry of entries) {
    const pathProblem = skillUploadPathProblem(entry.name, {
      maxDepth: maxPathDepth,
      written: entry.written,
    });
    if (pathProblem !== null) return { ...refused(entry, pathProblem.message), rule: pathProblem.reason };
    if ((entry.mode & S_IFMT) === S_IFLNK)
      return refused(
        entry,
        `Invalid zip upload: symlink entries are not allowed (${JSON.stringify(entry.name)})`,
      );
    if (entry.flags & 1)
      return refused(
        entry,
        `Invalid zip upload: encrypted entries are not supported (${JSON.stringify(entry.name)})`,
      );
    if (entry.method !== 0 && entry.method !== 8) {
      return refused(
        entry,
        `Invalid zip upload: entry ${JSON.stringify(entry.name)} uses compression method ${entry.method}; only stored and deflate are supported`,
      );
    }
    if (seen.has(entry.name))
      return refused(entry, `Invalid zip upload: duplicate entry ${JSON.stringify(entry.name)}`);
    seen.add(entry.name);
  }
  const conflict = skillPathConflict(seen);
  return conflict === null
    ? null
    : {
        kind: 'refused',
        rule: 'path_conflict',
        message: `Invalid zip upload: ${conflict.message}`,
        path: conflict.path,
      };
}

/** The bytes of one entry, never more than it declares (an Error when they are not what it declares). */
function inflate(zip: Uint8Array, entry: Entry): Uint8Array {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const p = entry.localOffset;
  if (p + 30 > zip.length || view.getUint32(p, true) !== LOC_SIG)
    throw new Error(`corrupt local header for ${JSON.stringify(entry.name)}`);
  const start = p + 30 + view.getUint16(p + 26, true) + view.getUint16(p + 28, true);
  if (start + entry.compressedSize > zip.length)
    throw new Error(`entry ${JSON.stringify(entry.name)} is truncated`);
  const data = zip.subarray(start, start + entry.compressedSize);
  let content: Uint8Array;
  try {
    content = entry.method === 0 ? data : inflateRawSync(data, { maxOutputLength: entry.size + 1 });
  } catch {
    throw new Error(
      `entry ${JSON.stringify(entry.name)} is not valid deflate data, or inflates past its declared size`,
    );
  }
  if (content.length !== entry.size)
    throw new Error(`entry ${JSON.stringify(entry.name)} does not hold the ${entry.size} bytes it declares`);
  return content;
}

/**
 * Locates the skill in a zip as the server's add does, reading the archive's directory only and
 * inflating SKILL.md alone, never past `maxSkillMdBytes` or the size the archive declares for it.
 *
 * @param zip - the archive bytes
 * @param options.maxSkillMdBytes - largest SKILL.md inflated (default 64 MiB); a larger one is
 *   reported with `skillMd` null
 * @param options.maxPathDepth - the server's `max_path_depth`: most segments of an entry's path
 *   (default 16, a default server's)
 * @returns the skill, the layout problem the server would refuse it for, or the entry it would refuse
 * @throws Error when the bytes are not a readable zip archive
 */
export function readZippedSkill(
  zip: Uint8Array,
  options: { maxSkillMdBytes?: number; maxPathDepth?: number } = {},
): ZippedSkill | ZipLayoutProblem | ZipEntryProblem {
  const read = readEntries(zip);
  if (read.zip64)
    return {
      kind: 'refused',
      rule: 'zip_format',
      message: 'Invalid zip upload: ZIP64 archives are not supported',
    };
  const all = read.entries.filter((e) => !e.name.startsWith('__MACOSX/') && !e.name.endsWith('/'));
  const problem = entryProblem(all, options.maxPathDepth);
  if (problem !== null) return problem;
  const kept = all.filter((e) => !IGNORED_BASENAMES.has(basename(e.name)));
  const byPath = new Map(kept.map((e) => [e.name, e]));
  const paths = [...byPath.keys()];
  let prefix: string | null = null;
  if (byPath.has('SKILL.md')) prefix = '';
  else {
    const tops = new Set(paths.map((p) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : '')));
    const [only] = tops;
    if (tops.size === 1 && only && byPath.has(`${only}/SKILL.md`)) prefix = `${only}/`;
  }
  if (prefix === null) {
    const found = paths.filter((p) => basename(p) === 'SKILL.md').slice(0, 5);
    const misnamed = paths
      .filter((p) => basename(p) !== 'SKILL.md' && basename(p).toLowerCase() === 'skill.md')
      .slice(0, 5);
    const none =
      misnamed.length > 0
        ? ` (no SKILL.md at all; found ${misnamed.join(', ')}: the file must be named SKILL.md, in capitals)`
        : ' (no SKILL.md at all)';
    return {
      kind: 'missing_skill_md',
      message:
        'Zip upload holds no SKILL.md at its root or in its single top-level folder' +
        (found.length > 0 ? ` (found: ${found.join(', ')})` : none),
      found,
      misnamed,
    };
  }
  const skillMdPath = `${prefix}SKILL.md`;
  const entry = byPath.get(skillMdPath) as Entry;
  const max = options.maxSkillMdBytes ?? DEFAULT_MAX_SKILL_MD_BYTES;
  return {
    kind: 'skill',
    skillMd: entry.size > max ? null : inflate(zip, entry),
    skillMdSize: entry.size,
    folderName: prefix === '' ? null : prefix.slice(0, -1),
    skillMdPath,
    files: paths.filter((p) => p.startsWith(prefix) && !DERIVED.has(p.slice(prefix.length))).length,
  };
}
