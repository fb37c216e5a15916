/**
 * `skills export` / `skills import`: every skill of a root as skill folders in one zip, and back.
 *
 * The zip holds one folder per skill, `<name>/SKILL.md` plus its auxiliary files byte for byte (the
 * server's generated `.abstract.md` / `.overview.md` are left out: an import generates them again),
 * and `skillport-export.json` at the top: `{format: "skillport-skills-export", version: 1,
 * exported_at, server, root_uri, skills: [{name, revision, files: [{path, sha256, size, executable?}]}]}`
 * (`executable: true` only on executable files, whose zip entries also carry Unix mode 755; the
 * others 644). Importing it into any Skillport server stores the same files with the same executable
 * flags, so each skill gets the same revision again (the import checks this and reports it).
 */
import { type FileHandle, open, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { type AsyncHTTPClient, isApiError } from '@skillport/sdk-node';
import type { Command } from 'commander';
import { unzipSync, Zip, ZipDeflate, zipSync } from 'fflate';
import pMap from 'p-map';
import { type Context, createContext } from '../internal/context.js';
import { CliError, type CliIo, EXIT, printJson } from '../internal/io.js';
import { withProgress } from '../internal/progress.js';
import { downloadSkillFiles, resolveRemoteSkill } from '../internal/remote-skill.js';
import { isSafeRelativePath } from '../internal/skill-folder.js';
import { renderTable } from '../internal/table.js';
import { escapeInlineControls } from '../internal/terminal-text.js';

/** Name of the manifest at the top of an export. */
export const EXPORT_MANIFEST = 'skillport-export.json';
const EXPORT_FORMAT = 'skillport-skills-export';
const EXPORT_VERSION = 1;
/** Skills downloaded or uploaded at once. */
const CONCURRENCY = 4;
/** Skills per listing page. */
const LIST_PAGE = 1000;

interface ManifestSkill {
  name: string;
  revision: string;
  files: Array<{ path: string; sha256: string; size: number; executable?: boolean | undefined }>;
}

/** Zip "version made by" host: Unix, so the external attributes hold a Unix mode. */
const UNIX_HOST = 3;
/** A regular file's Unix mode in the high 16 bits of the external attributes. */
function unixAttrs(executable: boolean): number {
  return ((executable ? 0o100755 : 0o100644) << 16) >>> 0;
}

interface ExportManifest {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exported_at: string;
  server: string;
  root_uri: string;
  skills: ManifestSkill[];
}

/**
 * Opens `file` for the zip stream (a temporary file beside it, renamed at the end), before anything
 * is downloaded, so a folder that does not exist or cannot be written is reported at once.
 *
 * @throws CliError `cannot write <file>: …` naming the missing folder, or the system's reason
 */
async function zipWriter(file: string) {
  const temp = `${file}.${process.pid}.tmp`;
  let handle: FileHandle;
  try {
    if ((await stat(file).catch(() => null))?.isDirectory()) {
      throw Object.assign(new Error(`${file} is a folder`), { code: 'EISDIR' });
    }
    handle = await open(temp, 'w');
  } catch (error) {
    throw new CliError(`cannot write ${file}: ${openFailure(error as NodeJS.ErrnoException, file)}`);
  }
  const out = handle.createWriteStream();
  let failure: Error | null = null;
  out.on('error', (error) => {
    failure ??= error;
  });
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', () => (failure ? reject(failure) : resolve()));
    out.on('error', reject);
  });
  // A write error (a full disk) settles `done` before finish() awaits it: handled there, not unhandled.
  done.catch(() => {});
  const zip = new Zip((error, chunk, final) => {
    if (error) failure ??= error;
    else out.write(chunk);
    if (final) out.end();
  });
  return {
    add(name: string, bytes: Uint8Array, executable = false) {
      const entry = new ZipDeflate(name, { level: 6 });
      entry.os = UNIX_HOST;
      entry.attrs = unixAttrs(executable);
      zip.add(entry);
      entry.push(bytes, true);
    },
    async finish() {
      zip.end();
      try {
        await done;
        await rename(temp, file);
      } catch (error) {
        await rm(temp, { force: true });
        throw new CliError(`cannot write ${file}: ${(error as Error).message}`);
      }
    },
    async abort() {
      zip.terminate();
      out.destroy();
      await rm(temp, { force: true });
    },
  };
}

/** Why a file could not be created, in the user's terms. */
function openFailure(error: NodeJS.ErrnoException, file: string): string {
  const folder = path.dirname(file);
  if (error.code === 'ENOENT')
    return `the folder ${folder} does not exist; create it first or choose another path`;
  if (error.code === 'ENOTDIR') return `${folder} is not a folder`;
  if (error.code === 'EACCES' || error.code === 'EPERM') return `no permission to write in ${folder}`;
  if (error.code === 'EISDIR')
    return `${file} is a folder; name a file such as ${path.join(file, 'skills.zip')}`;
  return error.message;
}

async function exportAction(io: CliIo, file: string, options: { target?: string }, command: Command) {
  const ctx = createContext(io, command);
  const client = await ctx.client();
  const root = options.target ?? 'viking://~/skills';
  const target = path.resolve(io.cwd, file);
  const writer = await zipWriter(target);
  let rootUri = root;
  const manifest: ExportManifest = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported_at: new Date().toISOString(),
    server: client.url,
    root_uri: rootUri,
    skills: [],
  };
  try {
    // The listing comes a page at a time (by name); follow the cursors to the end.
    const names: string[] = [];
    let cursor: string | null = null;
    for (;;) {
      const page = await client.listSkills({ target_uri: root, node_limit: LIST_PAGE, cursor });
      rootUri = page.root_uri ?? rootUri;
      names.push(...page.skills.map((s) => s.name));
      if (!page.has_more || !page.next_cursor) break;
      cursor = page.next_cursor;
    }
    manifest.root_uri = rootUri;
    const listing = { skills: names.map((name) => ({ name })) };
    await withProgress(
      io,
      ctx.format,
      { total: listing.skills.length, label: `Exporting ${listing.skills.length} skills` },
      async (bar) => {
        // Downloads run 4 at a time; entries are written in name order as each skill completes.
        const skills = await pMap(
          listing.skills,
          async (item) => {
            const remote = await resolveRemoteSkill(client, item.name, { targetUri: rootUri });
            const files = await downloadSkillFiles(client, remote, remote.files);
            bar.advance(1, item.name);
            return { remote, files };
          },
          { concurrency: CONCURRENCY },
        );
        for (const { remote, files } of skills) {
          for (const f of remote.files)
            writer.add(`${remote.name}/${f.path}`, files.get(f.path) as Uint8Array, f.executable === true);
          manifest.skills.push({ name: remote.name, revision: remote.revision, files: remote.files });
        }
      },
    );
    writer.add(EXPORT_MANIFEST, new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`));
    await writer.finish();
  } catch (error) {
    await writer.abort();
    throw error;
  }
  const fileCount = manifest.skills.reduce((n, s) => n + s.files.length, 0);
  if (ctx.format === 'json') {
    return printJson(io, {
      file: target,
      root_uri: rootUri,
      skills: manifest.skills.map((s) => ({ name: s.name, revision: s.revision, files: s.files.length })),
    });
  }
  ctx.print(`exported ${manifest.skills.length} skills (${fileCount} files) of ${rootUri} to ${file}\n`);
}

interface ImportedSkill {
  name: string;
  files: Map<string, Uint8Array>;
  /** The paths of its executable files, as the export's manifest records them (none without one). */
  executable: Set<string>;
  /** The revision the export recorded, when the zip has a manifest. */
  exported: string | null;
}

/** An entry of an import zip left out, and why (`no_skill_md`: a top folder; `outside_folder`: a file). */
interface SkippedEntry {
  /** The top folder (ending in `/`) or the file, as named in the zip. */
  path: string;
  reason: 'no_skill_md' | 'outside_folder';
  message: string;
}

/**
 * The refusal of a zip entry whose name could leave its folder or cannot be a file path: absolute, a
 * `.`/`..` or empty segment, a control character, or past 1,024 characters. Nothing is imported.
 */
function unsafeEntry(label: string, written: string): CliError {
  const shown = written.length > 120 ? `${written.slice(0, 120)}…` : written;
  return new CliError(
    `${label}: the zip entry ${JSON.stringify(shown)} is not a safe relative path (expected ` +
      `<skill>/<file> without a leading '/', '.', '..' or empty segments, or control characters, ` +
      'at most 1024 characters, e.g. pdf-tools/scripts/fill.py); nothing was imported',
  );
}

/**
 * Reads an export: one skill per top folder holding a SKILL.md; the manifest's revisions when present.
 * A backslash in an entry name is read as `/` (a zip re-made by a Windows tool). Every top folder
 * without a SKILL.md at its top and every file outside a folder is returned in `skipped`; the
 * manifest and `__MACOSX/` metadata are not skills and not reported.
 *
 * @throws CliError when the bytes are not a zip, an entry's name is not a safe relative path (see
 *   `unsafeEntry`; checked before anything is sent), the manifest is unreadable or of another version,
 *   or no skill folder is found (naming what was skipped)
 */
function readExport(bytes: Uint8Array, label: string): { skills: ImportedSkill[]; skipped: SkippedEntry[] } {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes);
  } catch (error) {
    throw new CliError(`${label} is not a zip file (${(error as Error).message})`);
  }
  let manifest: ExportManifest | null = null;
  const manifestBytes = entries[EXPORT_MANIFEST];
  if (manifestBytes !== undefined) {
    try {
      manifest = JSON.parse(new TextDecoder().decode(manifestBytes)) as ExportManifest;
    } catch {
      throw new CliError(`${label}: ${EXPORT_MANIFEST} is not valid JSON`);
    }
    if (manifest.format !== EXPORT_FORMAT || manifest.version !== EXPORT_VERSION) {
      throw new CliError(
        `${label}: ${EXPORT_MANIFEST} is format ${manifest.format} version ${manifest.version}; this skillport reads ${EXPORT_FORMAT} version ${EXPORT_VERSION}`,
      );
    }
  }
  const revisions = new Map((manifest?.skills ?? []).map((s) => [s.name, s.revision]));
  const executables = new Map(
    (manifest?.skills ?? []).map((s) => [
      s.name,
      new Set(
        (Array.isArray(s.files) ? s.files : []).filter((f) => f?.executable === true).map((f) => f.path),
      ),
    ]),
  );
  const skills = new Map<string, Map<string, Uint8Array>>();
  const loose: string[] = [];
  for (const [written, content] of Object.entries(entries)) {
    const entry = written.replaceAll('\\', '/');
    if (entry.endsWith('/') || entry === EXPORT_MANIFEST || entry.startsWith('__MACOSX/')) continue;
    if (!isSafeRelativePath(entry)) throw unsafeEntry(label, written);
    const slash = entry.indexOf('/');
    if (slash === -1) {
      loose.push(entry);
      continue;
    }
    const name = entry.slice(0, slash);
    const file = entry.slice(slash + 1);
    const files = skills.get(name) ?? new Map<string, Uint8Array>();
    files.set(file, content);
    skills.set(name, files);
  }
  const out: ImportedSkill[] = [];
  const skipped: SkippedEntry[] = [];
  for (const [name, files] of [...skills].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!files.has('SKILL.md')) {
      skipped.push({
        path: `${name}/`,
        reason: 'no_skill_md',
        message: `no SKILL.md at the top of this folder (${files.size} file${files.size === 1 ? '' : 's'}): not a skill folder`,
      });
      continue;
    }
    out.push({
      name,
      files,
      executable: executables.get(name) ?? new Set(),
      exported: revisions.get(name) ?? null,
    });
  }
  for (const file of loose.sort()) {
    skipped.push({ path: file, reason: 'outside_folder', message: 'a file outside any skill folder' });
  }
  if (out.length === 0) {
    const shown = skipped.slice(0, 5).map((e) => `${e.path} (${e.message})`);
    throw new CliError(
      `${label} holds no skill folder (<name>/SKILL.md)` +
        (shown.length > 0
          ? `; it holds ${shown.join(', ')}${skipped.length > 5 ? ` and ${skipped.length - 5} more` : ''}`
          : ''),
    );
  }
  return { skills: out, skipped };
}

interface ImportOutcome {
  skill: string;
  result: 'added' | 'replaced' | 'refused';
  revision: string | null;
  /** Whether the stored revision equals the exported one (null without a manifest). */
  same_revision: boolean | null;
  error?: { code: string; message: string; status?: number };
}

async function importOne(
  client: AsyncHTTPClient,
  skill: ImportedSkill,
  target: string | undefined,
): Promise<ImportOutcome> {
  // Executable files as the export recorded them: Unix mode 755 in the zip, which the server keeps.
  const zip = zipSync(
    Object.fromEntries(
      [...skill.files].map(([file, bytes]) => [
        file,
        [bytes, { os: UNIX_HOST, attrs: unixAttrs(skill.executable.has(file)) }] as const,
      ]),
    ),
  );
  try {
    const written = await client.addSkill(new Blob([zip]), {
      filename: `${skill.name}.zip`,
      ...(target ? { target_uri: target } : {}),
    });
    return {
      skill: written.name,
      result: written.replaced ? 'replaced' : 'added',
      revision: written.revision,
      same_revision: skill.exported === null ? null : skill.exported === written.revision,
    };
  } catch (error) {
    if (!isApiError(error)) throw error;
    return {
      skill: skill.name,
      result: 'refused',
      revision: null,
      same_revision: null,
      error: { code: error.code, message: error.message, status: error.status },
    };
  }
}

async function importAction(
  io: CliIo,
  file: string,
  options: { target?: string; wait?: boolean },
  command: Command,
) {
  const ctx: Context = createContext(io, command);
  const bytes = await readFile(path.resolve(io.cwd, file)).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`cannot read ${file}: ${error.message}`);
  });
  const { skills, skipped } = readExport(new Uint8Array(bytes), file);
  const client = await ctx.client();
  const outcomes = await withProgress(
    io,
    ctx.format,
    { total: skills.length, label: `Importing ${skills.length} skills` },
    (bar) =>
      pMap(
        skills,
        async (skill) => {
          const outcome = await importOne(client, skill, options.target);
          bar.advance(1, skill.name);
          return outcome;
        },
        { concurrency: CONCURRENCY },
      ),
  );
  if (options.wait) await client.waitProcessed();
  const refused = outcomes.filter((o) => o.result === 'refused');
  const changed = outcomes.filter((o) => o.same_revision === false);
  if (ctx.format === 'json') {
    printJson(io, { file, skills: outcomes, skipped });
  } else {
    ctx.print(
      renderTable(
        outcomes,
        [
          { header: 'skill', value: (o) => o.skill, flexible: false },
          { header: 'result', value: (o) => o.result, flexible: false },
          { header: 'revision', value: (o) => (o.revision ?? '').slice(0, 12), flexible: false },
          {
            header: 'as exported',
            value: (o) =>
              o.same_revision === null ? '' : o.same_revision ? 'same revision' : 'different revision',
            flexible: false,
          },
          { header: 'detail', value: (o) => (o.error ? `${o.error.code}: ${o.error.message}` : '') },
        ],
        ctx.width,
      ),
    );
    for (const entry of skipped)
      ctx.print(`${escapeInlineControls(`skipped ${entry.path}: ${entry.message}`)}\n`);
    ctx.print(
      `${outcomes.length - refused.length} of ${outcomes.length} skills imported from ${file}` +
        (changed.length > 0 ? `; ${changed.length} with a different revision than exported` : '') +
        (skipped.length > 0
          ? `; ${skipped.length} ${skipped.length === 1 ? 'entry' : 'entries'} skipped (see above)`
          : '') +
        '\n',
    );
  }
  if (refused.length > 0) {
    throw new CliError(
      ctx.format === 'json'
        ? ''
        : `${refused.length} of ${outcomes.length} skill${outcomes.length === 1 ? '' : 's'} refused: see detail`,
      refused.some((o) => (o.error?.status ?? 0) >= 500) ? EXIT.server : EXIT.user,
    );
  }
}

/** Registers `skills export` and `skills import` under `skills`. */
export function registerSkillArchive(skills: Command, io: CliIo): void {
  skills
    .command('export')
    .description('write every skill of a root to a zip of skill folders (re-importable byte for byte)')
    .argument('<file.zip>', 'the zip to write')
    .option('--target <uri>', 'skill root: your user root (default) or viking://agent/skills')
    .action((file: string, options: { target?: string }, command: Command) =>
      exportAction(io, file, options, command),
    );

  skills
    .command('import')
    .description('add every skill folder of a zip written by skills export')
    .argument('<file.zip>', 'the zip to read')
    .option('--target <uri>', 'skill root: your user root (default) or viking://agent/skills')
    .option('--wait', 'wait until the server has processed the skills')
    .action((file: string, options: { target?: string; wait?: boolean }, command: Command) =>
      importAction(io, file, options, command),
    );
}
