/**
 * Turning what the reader gives the add page — a dropped or picked folder, a zip, one SKILL.md, or
 * pasted text — into a prepared skill: its SKILL.md text (validated in the page before anything is
 * sent), the auxiliary files that will travel with it, and what the SDK uploads.
 */
import { findInvalidUtf8 } from '@skillport/core/base';
import { type ZipInput, zipSkillFiles } from '@skillport/sdk-browser';
import { unzipSync } from 'fflate';

/** Entry names never uploaded from a folder: VCS and OS clutter and files that usually hold secrets. */
export const IGNORED_NAMES: readonly string[] = [
  '.git',
  'node_modules',
  '.DS_Store',
  '__MACOSX',
  '.env',
  '.env.*',
  '.npmrc',
  '.netrc',
  '.pypirc',
  '.git-credentials',
];

/** True when a path has a segment matching {@link IGNORED_NAMES} (exact, `prefix*` or `*suffix`). */
export function isIgnoredPath(path: string): boolean {
  return path
    .split('/')
    .some((segment) =>
      IGNORED_NAMES.some((pattern) =>
        pattern.endsWith('*')
          ? segment.startsWith(pattern.slice(0, -1))
          : pattern.startsWith('*')
            ? segment.endsWith(pattern.slice(1))
            : segment === pattern,
      ),
    );
}

/** A skill ready to validate and upload. */
export interface PreparedSkill {
  kind: 'folder' | 'zip' | 'file' | 'text';
  /** What the reader gave, for display ("my-skill/ (3 files)"). */
  label: string;
  /** SKILL.md as text. */
  skillMd: string;
  /** Name of the folder holding SKILL.md (name_matches_directory), or null. */
  folderName: string | null;
  /** Auxiliary files that will be uploaded, by path inside the skill folder. */
  files: Array<{ path: string; size: number }>;
  /** Files left out, with the reason. */
  skipped: Array<{ path: string; reason: string }>;
  /** Bytes sent (before compression). */
  totalBytes: number;
  /** What `addSkill` / `updateSkill` receive. */
  source: () => Promise<string | Blob>;
}

/** Thrown for input that cannot be a skill (no SKILL.md, two of them, unreadable zip). */
export class SkillInputError extends Error {
  override name = 'SkillInputError';
}

// A leading byte order mark is kept: the text is uploaded as it was written (L2 byte for byte).
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * SKILL.md bytes as text, refused as add and `skills validate` refuse them when they are not UTF-8
 * (decoding would put U+FFFD in place of the bytes and store that).
 */
function decodeSkillMd(bytes: Uint8Array, what: string): string {
  const bad = findInvalidUtf8(bytes);
  if (bad !== null) {
    throw new SkillInputError(
      bad.encoding !== null
        ? `${what} is ${bad.encoding}, not UTF-8: save it as UTF-8 and pick it again.`
        : `${what} is not valid UTF-8 (first bad byte at line ${bad.line}, column ${bad.column}): save it as UTF-8 and pick it again.`,
    );
  }
  return decoder.decode(bytes);
}

function definitionsOf(paths: readonly string[]): string[] {
  return paths
    .filter((p) => p === 'SKILL.md' || p.endsWith('/SKILL.md'))
    .map((p) => p.slice(0, p.length - 'SKILL.md'.length));
}

/** The folder holding the top-most SKILL.md (`''` for the root), or an error. */
function skillRoot(paths: readonly string[], what: string): string {
  const roots = definitionsOf(paths);
  if (roots.length === 0)
    throw new SkillInputError(`No SKILL.md in ${what}: a skill folder has a SKILL.md at its top.`);
  const top = roots.reduce((best, dir) => (dir.length < best.length ? dir : best));
  const rivals = roots.filter((dir) => dir !== top && dir.split('/').length === top.split('/').length);
  if (rivals.length > 0) {
    throw new SkillInputError(
      `${what} holds several skills (${[top, ...rivals].map((d) => `${d}SKILL.md`).join(', ')}); add them one at a time.`,
    );
  }
  return top;
}

/**
 * A folder's files (from a drop or `<input webkitdirectory>`): `path` relative to the picked folder's
 * parent, e.g. `my-skill/docs/guide.md`.
 */
export async function prepareFolder(entries: Array<{ path: string; file: File }>): Promise<PreparedSkill> {
  const paths = entries.map((e) => e.path);
  const topFolder = paths[0]?.split('/')[0] ?? 'folder';
  const root = skillRoot(paths, `the folder ${topFolder}/`);
  const kept: Array<{ path: string; file: File }> = [];
  const skipped: Array<{ path: string; reason: string }> = [];
  for (const entry of entries) {
    if (!entry.path.startsWith(root)) {
      skipped.push({ path: entry.path, reason: 'outside the skill folder' });
      continue;
    }
    const inner = entry.path.slice(root.length);
    if (isIgnoredPath(inner)) {
      skipped.push({ path: inner, reason: 'never uploaded (VCS, OS or secrets file)' });
      continue;
    }
    kept.push({ path: inner, file: entry.file });
  }
  const definition = kept.find((e) => e.path === 'SKILL.md');
  if (!definition) throw new SkillInputError('No SKILL.md in the folder.');
  const skillMd = decodeSkillMd(new Uint8Array(await definition.file.arrayBuffer()), 'SKILL.md');
  const folderName = root === '' ? topFolder : (root.slice(0, -1).split('/').pop() ?? null);
  const files = kept.filter((e) => e.path !== 'SKILL.md').map((e) => ({ path: e.path, size: e.file.size }));
  const inputs: ZipInput[] = kept.map((e) => ({ path: e.path, data: e.file }));
  return {
    kind: 'folder',
    label: `${folderName ?? topFolder}/`,
    skillMd,
    folderName,
    files: files.sort((a, b) => a.path.localeCompare(b.path)),
    skipped,
    totalBytes: kept.reduce((sum, e) => sum + e.file.size, 0),
    source: async () =>
      new Blob([(await zipSkillFiles(inputs)) as Uint8Array<ArrayBuffer>], { type: 'application/zip' }),
  };
}

/** A zip of a skill folder: SKILL.md at the root or in its single top folder (as the server reads it). */
export async function prepareZip(file: File): Promise<PreparedSkill> {
  let tree: Record<string, Uint8Array>;
  try {
    tree = unzipSync(new Uint8Array(await file.arrayBuffer()));
  } catch (error) {
    throw new SkillInputError(`${file.name} is not a readable zip archive (${(error as Error).message}).`);
  }
  const paths = Object.keys(tree).filter((p) => !p.endsWith('/') && !p.startsWith('__MACOSX/'));
  const root = skillRoot(paths, file.name);
  const definition = tree[`${root}SKILL.md`];
  if (!definition) throw new SkillInputError(`No SKILL.md in ${file.name}.`);
  const files = paths
    .filter((p) => p.startsWith(root) && p !== `${root}SKILL.md`)
    .map((p) => ({ path: p.slice(root.length), size: tree[p]?.length ?? 0 }))
    .sort((a, b) => a.path.localeCompare(b.path));
  return {
    kind: 'zip',
    label: file.name,
    skillMd: decodeSkillMd(definition, `${root}SKILL.md`),
    folderName: root === '' ? null : (root.slice(0, -1).split('/').pop() ?? null),
    files,
    skipped: [],
    totalBytes: file.size,
    source: async () => file,
  };
}

/** One SKILL.md file. */
export async function prepareFile(file: File): Promise<PreparedSkill> {
  const skillMd = decodeSkillMd(new Uint8Array(await file.arrayBuffer()), file.name);
  return {
    kind: 'file',
    label: file.name,
    skillMd,
    folderName: null,
    files: [],
    skipped: [],
    totalBytes: file.size,
    source: async () => skillMd,
  };
}

/** Pasted or typed SKILL.md text. */
export function prepareText(text: string): PreparedSkill {
  return {
    kind: 'text',
    label: 'pasted SKILL.md',
    skillMd: text,
    folderName: null,
    files: [],
    skipped: [],
    totalBytes: new TextEncoder().encode(text).length,
    source: async () => text,
  };
}

/** True for bytes that start like a zip archive (`PK\x03\x04`). */
async function looksLikeZip(file: File): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  return head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
}

/** A single picked or dropped file: a zip (by content) or a SKILL.md. */
export async function prepareSingleFile(file: File): Promise<PreparedSkill> {
  return (await looksLikeZip(file)) ? prepareZip(file) : prepareFile(file);
}

/** Files of `<input webkitdirectory>`. */
export function entriesFromFileList(files: FileList | File[]): Array<{ path: string; file: File }> {
  return Array.from(files).map((file) => ({ path: file.webkitRelativePath || file.name, file }));
}

/** Reads everything under a dropped folder entry. */
async function walkEntry(entry: FileSystemEntry, prefix: string, out: Array<{ path: string; file: File }>) {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) =>
      (entry as FileSystemFileEntry).file(resolve, reject),
    );
    out.push({ path: `${prefix}${entry.name}`, file });
    return;
  }
  if (!entry.isDirectory) return;
  if (out.length > 5000)
    throw new SkillInputError('The folder holds more than 5,000 files; is it a skill folder?');
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) break;
    for (const child of batch) await walkEntry(child, `${prefix}${entry.name}/`, out);
  }
}

/** What was dropped: a folder, or one file (zip or SKILL.md). */
export async function prepareDrop(data: DataTransfer): Promise<PreparedSkill> {
  const items = Array.from(data.items).filter((item) => item.kind === 'file');
  const entries = items
    .map((item) => item.webkitGetAsEntry?.())
    .filter((e): e is FileSystemEntry => Boolean(e));
  const folder = entries.find((e) => e.isDirectory);
  if (folder) {
    const out: Array<{ path: string; file: File }> = [];
    await walkEntry(folder, '', out);
    return prepareFolder(out);
  }
  const file = data.files[0];
  if (!file) throw new SkillInputError('Nothing to add: drop a skill folder, a zip or a SKILL.md.');
  return prepareSingleFile(file);
}
