/**
 * The inputs of `add-skill` / `skills add`, expanded into one item per skill: a skill folder, a folder
 * of skill folders (or a git checkout of a collection: every folder holding a `SKILL.md`, not looking
 * inside a skill), a SKILL.md or zip file, an MCP tool `.json` (one tool, or a `tools/list` answer:
 * every tool), `-` (stdin) or SKILL.md text. Each item carries the skill name it will be stored under
 * when that can be read locally, so two inputs that would write the same skill are caught before
 * anything is sent.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  fromMcpTool,
  type McpTool,
  type NamePolicy,
  parseSkillMd,
  storedSkillName,
  validateSkill,
} from '@skillport/core';
import type { SkillSource } from '@skillport/sdk-node';
import { misnamedHint, misnamedSkillFiles, toolJsonFiles } from './find-skill-files.js';
import { CliError, type CliIo } from './io.js';
import { classifyJson, readJsonFile, readStdin, toolsOf } from './source.js';
import { looksLikeZip, readZippedSkill } from './zipped-skill.js';

/** One skill to add. */
export interface BulkItem {
  /** How the input is shown in results: the path as typed (plus the folder below it), `stdin`, `content`, or `<file>#<tool>`. */
  label: string;
  /** What to hand to `addSkill`. */
  source: SkillSource;
  /** The skill name it will be stored under, or null when it cannot be read locally (the server decides). */
  name: string | null;
  /**
   * When `name` is null because the name breaks the name rule: the name a server with name policy
   * `slug` stores it under (its valid slug).
   */
  slug?: string;
  /** For a tool of a `tools/list` document: the tool's own name. */
  tool?: string;
  /** Absolute path of the skill folder or file to upload (checked against the server's limits first). */
  local?: string;
}

/** Folders never searched for skills. */
const SKIPPED = new Set(['node_modules', '.git', '.hg', '.svn', 'dist', '.turbo']);
/** Deepest folder searched below an input folder. */
const MAX_DEPTH = 8;

/** A skill's names as add stores them: under the name rule, else (name policy `slug`) its slug. */
type Names = Pick<BulkItem, 'name' | 'slug'>;

const NO_NAME: Names = { name: null };

function namesOf(raw: unknown): Names {
  if (typeof raw !== 'string') return NO_NAME;
  const name = storedSkillName(raw, 'strict');
  if (name !== null) return { name };
  const slug = storedSkillName(raw, 'slug');
  return slug === null ? NO_NAME : { name, slug };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The `name` of SKILL.md text as add would store it; null when add would refuse the text anyway
 * (validation errors, a name outside the name rule), so such an input is reported with the server's
 * own reason rather than as a collision.
 */
function nameInText(text: string): Names {
  try {
    if (validateSkill(text, { profile: 'openviking' }).errors.length > 0) return NO_NAME;
    return namesOf(parseSkillMd(text).skill.name);
  } catch {
    return NO_NAME;
  }
}

/** The name in SKILL.md bytes (null for bytes that are not UTF-8: add refuses those). */
function nameInBytes(bytes: Uint8Array): Names {
  try {
    return nameInText(utf8.decode(bytes));
  } catch {
    return NO_NAME;
  }
}

/**
 * The name in a SKILL.md or zip file (a zip recognised by its bytes, as the server does): in a zip,
 * the SKILL.md the server's add takes (see {@link readZippedSkill}: a zip made on Windows, with `\\`
 * in its entry names, included).
 */
async function nameInFile(file: string): Promise<Names> {
  const read = await readFile(file).catch(() => null);
  if (read === null) return NO_NAME;
  const bytes = new Uint8Array(read);
  if (!looksLikeZip(bytes)) return nameInBytes(bytes);
  try {
    const located = readZippedSkill(bytes);
    return located.kind === 'skill' && located.skillMd !== null ? nameInBytes(located.skillMd) : NO_NAME;
  } catch {
    return NO_NAME;
  }
}

function toolName(tool: McpTool): string | null {
  try {
    return storedSkillName(fromMcpTool(tool).name, 'strict');
  } catch {
    return null;
  }
}

async function isFile(file: string): Promise<boolean> {
  return stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}

/**
 * A folder below a folder of skill folders that add leaves out: `no_skill_md` (no SKILL.md in it or
 * in its sub-folders; reported once, at its top), `hidden` (its name starts with `.`: not searched),
 * `too_deep` (nested past the search depth: its sub-folders were not searched), `link` (a symbolic
 * link to a folder: not followed). Folders that are never skills (`node_modules`, `.git`, `dist`, …)
 * are not reported.
 */
export interface SkippedFolder {
  /** The folder as shown in results (the input as typed plus the path below it), ending in `/`. */
  path: string;
  reason: 'no_skill_md' | 'hidden' | 'too_deep' | 'link';
  message: string;
}

const SKIPPED_MESSAGES: Record<SkippedFolder['reason'], string> = {
  no_skill_md: 'no SKILL.md in it or its sub-folders: not a skill folder',
  hidden: 'a hidden folder (its name starts with "."): not searched; give it as an input to add its skills',
  too_deep: `nested more than ${MAX_DEPTH} folders deep: its sub-folders were not searched; give it as an input`,
  link: 'a symbolic link: not followed; give it as an input to add what it leads to',
};

/**
 * Folders under `dir` holding a SKILL.md, sorted; a skill folder's own sub-folders are not searched.
 * `skipped` gets the folders left out, as paths relative to the input folder.
 */
async function skillFolders(
  dir: string,
  skipped: Array<Pick<SkippedFolder, 'path' | 'reason'>>,
  depth = 0,
  rel = '',
): Promise<string[]> {
  if (await isFile(path.join(dir, 'SKILL.md'))) return [dir];
  if (depth >= MAX_DEPTH) {
    skipped.push({ path: rel, reason: 'too_deep' });
    return [];
  }
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const found: string[] = [];
  for (const entry of entries) {
    if (entry.isSymbolicLink() && !SKIPPED.has(entry.name) && !entry.name.startsWith('.')) {
      // A linked folder (agents' skills folders often link skills in) is not followed, as a skill
      // folder's own links are not zipped; said, so that its skills are not left out silently.
      const target = await stat(path.join(dir, entry.name)).catch(() => undefined);
      if (target?.isDirectory()) skipped.push({ path: `${rel}${entry.name}/`, reason: 'link' });
      continue;
    }
    if (!entry.isDirectory() || SKIPPED.has(entry.name)) continue;
    const below = `${rel}${entry.name}/`;
    if (entry.name.startsWith('.')) {
      skipped.push({ path: below, reason: 'hidden' });
      continue;
    }
    const inner: typeof skipped = [];
    const folders = await skillFolders(path.join(dir, entry.name), inner, depth + 1, below);
    found.push(...folders);
    // A folder with nothing to add and nothing else to say is one line, not one per sub-folder.
    if (folders.length === 0 && inner.every((s) => s.reason === 'no_skill_md')) {
      skipped.push({ path: below, reason: 'no_skill_md' });
    } else {
      skipped.push(...inner);
    }
  }
  return found;
}

/** The items of a `.json` file: each tool of a tools/list answer, or the one tool or structured skill. */
async function jsonItems(file: string, label: string): Promise<BulkItem[]> {
  const parsed = await readJsonFile(file, label);
  const found = classifyJson(parsed, label);
  if (found.kind === 'structured') {
    return [{ label, source: found.skill as SkillSource, ...namesOf(found.skill.name) }];
  }
  if (found.tools.length === 1 && !Array.isArray(parsed) && toolsOf(parsed) === undefined) {
    // One tool given on its own (not inside a tools/list answer).
    return [{ label, source: found.tools[0] as SkillSource, name: toolName(found.tools[0] as McpTool) }];
  }
  return found.tools.map((tool, i) => {
    const toolLabel = typeof tool.name === 'string' ? tool.name : `#${i + 1}`;
    return {
      label: `${label}#${toolLabel}`,
      source: tool as SkillSource,
      name: toolName(tool as McpTool),
      tool: toolLabel,
    };
  });
}

/**
 * Expands every input into skill items, in input order.
 *
 * @param options - `onSkippedFolder`: told of each folder below a folder of skill folders that is
 *   left out, and why (see {@link SkippedFolder}), in the order found
 * @throws CliError for a `.json` file that is neither an MCP tool, a tools list nor a structured
 *   skill, a folder without any SKILL.md, or `-` given twice
 */
export async function expandInputs(
  io: CliIo,
  inputs: readonly string[],
  options: { onSkippedFolder?: (folder: SkippedFolder) => void } = {},
): Promise<BulkItem[]> {
  const items: BulkItem[] = [];
  let stdinUsed = false;
  for (const raw of inputs) {
    if (raw === '-') {
      if (stdinUsed) throw new CliError('"-" (stdin) can be given once');
      stdinUsed = true;
      const text = await readStdin(io);
      items.push({ label: 'stdin', source: text, ...nameInText(text) });
      continue;
    }
    const full = !raw.includes('\n') && raw.length < 4096 ? path.resolve(io.cwd, raw) : null;
    const info = full === null ? undefined : await stat(full).catch(() => undefined);
    if (full === null || info === undefined) {
      // Neither a path nor SKILL.md text (which opens with a `---` frontmatter fence): a mistyped path.
      if (full !== null && !/^\uFEFF?\s*---/.test(raw)) {
        throw new CliError(
          `no such file or folder: ${raw} (${full}); SKILL.md text given inline starts with a "---" frontmatter fence`,
        );
      }
      items.push({ label: 'content', source: raw, ...nameInText(raw) });
      continue;
    }
    if (info.isDirectory()) {
      const skipped: Array<Pick<SkippedFolder, 'path' | 'reason'>> = [];
      const folders = await skillFolders(full, skipped);
      if (folders.length === 0) {
        // A folder of MCP tool definitions: each `.json` file at its top level.
        const jsons = await toolJsonFiles(full);
        if (jsons.length === 0) {
          // Skills in hidden or deep folders are not searched: name them, as the input to give instead.
          const unsearched = skipped.filter((f) => f.reason !== 'no_skill_md').map((f) => f.path);
          const misnamed = misnamedHint(await misnamedSkillFiles(full, raw));
          throw new CliError(
            `no SKILL.md in ${raw} or its sub-folders, and no .json tool files${misnamed}` +
              (unsearched.length > 0
                ? `; not searched: ${unsearched
                    .slice(0, 3)
                    .map((p) => `${raw.replace(/[/\\]+$/, '')}/${p}`)
                    .join(
                      ', ',
                    )}${unsearched.length > 3 ? ', …' : ''} (give a folder as an input to add its skills)`
                : ''),
          );
        }
        for (const file of jsons)
          items.push(...(await jsonItems(file, `${raw.replace(/[/\\]+$/, '')}/${path.basename(file)}`)));
        continue;
      }
      const shownRoot = raw.replace(/[/\\]+$/, '');
      for (const folder of skipped) {
        options.onSkippedFolder?.({
          path: `${shownRoot}/${folder.path}`,
          reason: folder.reason,
          message: SKIPPED_MESSAGES[folder.reason],
        });
      }
      for (const folder of folders) {
        // Shown as typed, plus the path below it: `../corpus/skills/pdf-tools`.
        const below = path.relative(full, folder).split(path.sep).join('/');
        const label = below === '' ? raw : `${raw.replace(/[/\\]+$/, '')}/${below}`;
        items.push({
          label,
          source: folder,
          ...(await nameInFile(path.join(folder, 'SKILL.md'))),
          local: folder,
        });
      }
      continue;
    }
    if (/\.json$/i.test(full)) {
      items.push(...(await jsonItems(full, raw)));
      continue;
    }
    items.push({ label: raw, source: full, ...(await nameInFile(full)), local: full });
  }
  return items;
}

/**
 * Finds the items that would write a skill name an earlier item (in input order) already writes:
 * adding both would make the later one silently replace the earlier one.
 *
 * @param namePolicy - the server's name policy: under `slug`, a name outside the name rule is
 *   compared as the slug the server stores it under (default `strict`: such a name is refused anyway)
 * @returns for each such later item, the earlier item holding the name
 */
export function findCollisions(
  items: readonly BulkItem[],
  namePolicy: NamePolicy = 'strict',
): Map<BulkItem, BulkItem> {
  const first = new Map<string, BulkItem>();
  const out = new Map<BulkItem, BulkItem>();
  for (const item of items) {
    const name = storedName(item, namePolicy);
    if (name === null) continue;
    const earlier = first.get(name);
    if (earlier === undefined) first.set(name, item);
    else out.set(item, earlier);
  }
  return out;
}

/** The name an item is stored under on a server with `namePolicy` (null: the server decides). */
export function storedName(item: Names, namePolicy: NamePolicy): string | null {
  return item.name ?? (namePolicy === 'slug' ? (item.slug ?? null) : null);
}
