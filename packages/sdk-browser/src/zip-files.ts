/**
 * Zipping a skill folder picked in a browser (`<input type="file" webkitdirectory>`) so it can be
 * uploaded in one request. Runtime-neutral: works on `File` objects in browsers, Node, Deno and workers.
 */
import { zipSync } from 'fflate';
import { LocalError } from './errors.js';

const refuse = (reason: string, message: string) =>
  new LocalError('INVALID_ARGUMENT', message, { details: { field: 'files', reason } });

/** One file to put in the archive: a `File` (its `webkitRelativePath`, else its name) or an explicit path. */
export type ZipInput = File | { path: string; data: Blob | Uint8Array | string };

function pathOf(entry: ZipInput): string {
  if ('path' in entry && typeof entry.path === 'string') return entry.path;
  const file = entry as File;
  const relative = (file as File & { webkitRelativePath?: string }).webkitRelativePath;
  return relative ? relative : file.name;
}

async function bytesOf(entry: ZipInput): Promise<Uint8Array> {
  const data = 'data' in entry ? entry.data : entry;
  if (typeof data === 'string') return new TextEncoder().encode(data);
  if (data instanceof Uint8Array) return data;
  return new Uint8Array(await data.arrayBuffer());
}

function normalise(raw: string): string {
  const parts = raw.replace(/\\/g, '/').split('/');
  const kept: string[] = [];
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part === '..')
      throw refuse('traversal', `refusing to zip a path that escapes its folder: "${raw.slice(0, 200)}"`);
    kept.push(part);
  }
  if (kept.length === 0) throw refuse('empty', `empty file path in the selection: "${raw.slice(0, 200)}"`);
  return kept.join('/');
}

/**
 * Zips the files of one skill folder so that `SKILL.md` sits at the archive root.
 *
 * Paths come from `webkitRelativePath` (`my-skill/SKILL.md`, `my-skill/docs/a.md`); the folder
 * holding `SKILL.md` becomes the root, and files outside it are left out. `__MACOSX/` and `.DS_Store`
 * entries are skipped.
 *
 * @param files - the picked files (a `FileList` works), or `{path, data}` entries.
 * @returns the zip archive bytes.
 * @throws LocalError `INVALID_ARGUMENT` (`details.reason` `no_skill_md`, `several_skill_md`,
 *   `traversal`, `empty`) when no `SKILL.md` is among the files, when two folders hold one, or a
 *   path contains `..` or is empty.
 * @example
 * ```ts
 * const zip = await zipSkillFiles(input.files); // <input type="file" webkitdirectory>
 * await client.addSkill(new Blob([zip]), { wait: true });
 * ```
 * @see the OpenAPI document: `POST /api/v1/resources/temp_upload`
 */
export async function zipSkillFiles(files: Iterable<ZipInput> | ArrayLike<ZipInput>): Promise<Uint8Array> {
  const entries = Array.from(files as ArrayLike<ZipInput>).map((entry) => ({
    entry,
    path: normalise(pathOf(entry)),
  }));
  const useful = entries.filter(
    ({ path }) => !path.startsWith('__MACOSX/') && !path.split('/').includes('.DS_Store'),
  );
  const definitions = useful
    .filter(({ path }) => path === 'SKILL.md' || path.endsWith('/SKILL.md'))
    .map(({ path }) => path.slice(0, path.length - 'SKILL.md'.length));
  if (definitions.length === 0)
    throw refuse('no_skill_md', 'no SKILL.md among the selected files: pick the skill folder');
  const root = definitions.reduce((best, dir) => (dir.length < best.length ? dir : best));
  if (definitions.some((dir) => dir.length === root.length && dir !== root)) {
    throw refuse(
      'several_skill_md',
      `several folders hold a SKILL.md at the same depth: ${definitions.join(', ')}; pick one skill folder`,
    );
  }
  const tree: Record<string, Uint8Array> = {};
  for (const { entry, path } of useful) {
    if (!path.startsWith(root)) continue;
    tree[path.slice(root.length)] = await bytesOf(entry);
  }
  return zipSync(tree, { level: 6, mtime: new Date('1980-01-02T00:00:00Z') });
}
