/** `skills validate`: local validation through core (no server), with located diagnostics. */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type {
  McpTool,
  NamePolicy,
  SkillIssue,
  StructuredSkill,
  ValidationProfile,
  ValidationResult,
} from '@skillport/core';
import { findInvalidUtf8, storedSkillName } from '@skillport/core/base';
import type { SkippedEntry } from '@skillport/core/node';
import type { Command } from 'commander';
import { createContext } from '../internal/context.js';
import { type SkillFileScan, scanSkillFiles } from '../internal/find-skill-files.js';
import { CliError, type CliIo, EXIT, printJson } from '../internal/io.js';
import { byPlace, formatIssue } from '../internal/issue-line.js';
import { classifyJson, readJsonFile } from '../internal/source.js';
import { escapeInlineControls } from '../internal/terminal-text.js';
import { looksLikeZip, readZippedSkill } from '../internal/zipped-skill.js';

const PROFILES: readonly ValidationProfile[] = ['openviking', 'agentskills', 'claude'];
const NAME_POLICIES: readonly NamePolicy[] = ['strict', 'slug'];

/** Options every checked file is validated with. */
interface CheckOptions {
  strict: boolean;
  profile: ValidationProfile;
  namePolicy?: NamePolicy;
}

/**
 * `upload_limit`: the skill folder zipped as `add-skill` uploads it, checked against the limits of a
 * server with default settings (`checkSkillZip` of `@skillport/core/node`, the check the server's add
 * makes), so a folder the server would refuse (too large, too many files, a zip bomb's compression
 * ratio) is an error here too, naming the limit and its setting; so is a folder holding two paths
 * that are one file on macOS and Windows (`path_conflict`, e.g. `Ref.md` and `ref.md`), and one
 * holding a file whose path the server refuses (`skillUploadPathProblem` of @skillport/core: the
 * rule is the server's `details.reason`, such as `windows_name` for `aux.py` or `notes: draft.md`,
 * `too_deep` past a default server's `max_path_depth`, `segment_too_long`). Null when a default
 * server takes it.
 *
 * @param onSkipped - told of each file add would not upload (a symlink, a file of the ignore list
 *   such as `.env` or `.git`), with its path relative to `dir`
 */
export async function uploadLimitIssue(
  dir: string,
  onSkipped?: (entry: SkippedEntry) => void,
): Promise<SkillIssue | null> {
  const { checkSkillZip, DEFAULT_UPLOAD_LIMITS: limits, zipSkillDir } = await import('@skillport/core/node');
  const issue = (message: string): SkillIssue => ({
    rule: 'upload_limit',
    severity: 'error',
    field: null,
    message: `add would be refused by a server with default limits: ${message}`,
  });
  let zip: Uint8Array;
  try {
    zip = await zipSkillDir(dir, {
      // SKILL.md and the generated .abstract.md take two of the files a skill keeps.
      maxFiles: Math.max(0, Math.min(limits.max_files_per_skill - 2, limits.max_zip_entries - 1)),
      maxTotalBytes: limits.max_uncompressed_bytes,
      maxPathDepth: limits.max_path_depth,
      ...(onSkipped ? { onSkipped } : {}),
    });
  } catch (error) {
    const details = (
      error as { code?: string; details?: { limit?: string; reason?: string; field?: string } }
    ).details;
    if (details?.field === 'path' && typeof details.reason === 'string') {
      // A file path the server's add refuses (400 with this `details.reason`), in the server's words.
      return {
        rule: details.reason,
        severity: 'error',
        field: null,
        message: `add would be refused: ${(error as Error).message}`,
      };
    }
    if (details?.reason === 'path_conflict') {
      // Two files that are one on macOS and Windows: the server refuses the upload (400 path_conflict).
      return {
        rule: 'path_conflict',
        severity: 'error',
        field: null,
        message: `add would be refused: ${(error as Error).message}; rename or remove one of them`,
      };
    }
    if ((error as { code?: string }).code !== 'PAYLOAD_TOO_LARGE') return null; // unreadable: reported elsewhere
    return details?.limit === 'maxFiles'
      ? issue(
          `more auxiliary files than a skill keeps (max_files_per_skill ${limits.max_files_per_skill}, setting ` +
            `${limits.settings.max_files_per_skill})`,
        )
      : issue(
          `its files add up to more than ${limits.max_uncompressed_bytes} bytes (max_uncompressed_bytes, setting ` +
            `${limits.settings.max_uncompressed_bytes})`,
        );
  }
  const problem = checkSkillZip(zip, limits);
  return problem === null ? null : issue(problem.message);
}

/** One checked file. */
export interface FileValidation extends ValidationResult {
  file: string;
  dir_name: string | null;
}

/** Decodes SKILL.md bytes for the parser: UTF-8, BOM kept, bad bytes replaced (see {@link byteIssue}). */
export function decodeSkillBytes(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
}

function lineColumn(text: string, index: number): { line: number; column: number } {
  const before = text.slice(0, index);
  return { line: before.split('\n').length, column: index - before.lastIndexOf('\n') };
}

/**
 * What the server refuses before parsing (400 `invalid_utf8` / `nul_byte`), as an error issue, so
 * that validate never calls valid a file that add refuses.
 */
export function byteIssue(bytes: Uint8Array, text: string): SkillIssue | null {
  const bad = findInvalidUtf8(bytes);
  if (bad) {
    return {
      rule: 'invalid_utf8',
      severity: 'error',
      message:
        bad.encoding === null
          ? `SKILL.md is not valid UTF-8 (first bad byte at offset ${bad.offset}); the server refuses it. Save the file as UTF-8.`
          : `SKILL.md is ${bad.encoding} (it starts with the byte order mark ${bad.encoding === 'UTF-16LE' ? 'FF FE' : 'FE FF'}), not UTF-8; the server refuses it. Save the file as UTF-8.`,
      field: null,
      line: bad.line,
      column: bad.column,
    };
  }
  const nul = text.indexOf('\u0000');
  if (nul < 0) return null;
  return {
    rule: 'nul_byte',
    severity: 'error',
    message: 'SKILL.md contains a NUL character; the server refuses it.',
    field: null,
    ...lineColumn(text, nul),
  };
}

/**
 * Where the value of the frontmatter's top-level `name:` key starts (1-based), if the frontmatter
 * has one: the line of a `name_duplicate` error.
 */
function nameLine(text: string): { line: number; column: number } | undefined {
  const lines = text.replace(/^\uFEFF/, '').split('\n', 200);
  if (lines[0]?.trimEnd() !== '---') return undefined;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trimEnd() === '---') return undefined;
    const match = /^name[ \t]*:[ \t]*/.exec(line);
    if (match) return { line: i + 1, column: match[0].length + 1 };
  }
  return undefined;
}

/**
 * A file as printed: relative to the working folder when inside it (`skills/pdf/SKILL.md`), else
 * absolute (never `../../somewhere/else`).
 */
function displayPath(cwd: string, file: string): string {
  const relative = path.relative(cwd, file);
  if (
    relative === '' ||
    relative === '..' ||
    relative.startsWith(`..${path.sep}`) ||
    path.isAbsolute(relative)
  )
    return file;
  return relative;
}

/**
 * Validates the MCP tools of a `.json` file (one tool, a `tools/list` answer or an array of tools) the
 * way the server does: each tool is converted with `fromMcpTool`, the SKILL.md it gives is validated,
 * and the conversion's issues join the warnings. One result per tool, labelled `file#tool-name`.
 */
async function validateToolsFile(
  file: string,
  cwd: string,
  options: CheckOptions,
): Promise<FileValidation[]> {
  const label = displayPath(cwd, file);
  const { fromMcpTool, validateSkill } = await import('@skillport/core');
  const parsed = await readJsonFile(file, label);
  const found = classifyJson(parsed, label);
  if (found.kind === 'structured') {
    const result = validateSkill(found.skill as StructuredSkill, options);
    return [{ file: `${label}#${found.skill.name}`, dir_name: null, ...result }];
  }
  const tools = found.tools;
  return tools.map((tool) => {
    const converted = fromMcpTool(tool as McpTool);
    const result = validateSkill(converted.content, options);
    const conversion = converted.issues.filter((issue) => issue.severity === 'warning');
    const errors = converted.issues.filter((issue) => issue.severity === 'error');
    return {
      file: `${label}#${converted.name || String(tool.name)}`,
      dir_name: null,
      ...result,
      valid: result.valid && errors.length === 0,
      errors: [...errors, ...result.errors],
      warnings: [...conversion, ...result.warnings],
    };
  });
}

/**
 * Validates a zip file as `add-skill` uploads it: the SKILL.md the server's add takes from it (at the
 * archive root or in its single top-level folder, `\\` read as `/`; see {@link readZippedSkill}),
 * checked against the name of that folder as the server checks it (unless `--no-dir-name`), with the
 * server's refusals of the archive itself as errors: no SKILL.md where it looks (`missing_skill_md`),
 * an archive it cannot read or an entry it refuses — encrypted, a symlink, ZIP64, another compression
 * method, a duplicate (`zip_format`) —, a path the server's path rule refuses (the rule is the
 * server's `details.reason`: `traversal`, `windows_name`, `too_deep`, …), two paths that are one file on macOS and
 * Windows (`path_conflict`), a limit of a server with default settings (`upload_limit`; a SKILL.md
 * declared over its limit is not inflated). The result is labelled `file.zip#path/SKILL.md`.
 */
async function validateZipFile(
  label: string,
  zip: Uint8Array,
  options: CheckOptions,
  checkDirName: boolean,
): Promise<FileValidation> {
  const { validateSkill } = await import('@skillport/core');
  const refused = (rule: string, message: string): FileValidation => ({
    file: label,
    dir_name: null,
    valid: false,
    strict: options.strict,
    profile: options.profile,
    name: null,
    description: null,
    tags: [],
    allowed_tools: [],
    body_lines: 0,
    errors: [{ rule, severity: 'error', field: null, message }],
    warnings: [],
  });
  const { checkSkillZip, DEFAULT_UPLOAD_LIMITS: limits } = await import('@skillport/core/node');
  const limitError = (message: string) => `add would be refused by a server with default limits: ${message}`;
  // The server refuses an upload past its size, and an archive past its entry count, before it
  // reads a single entry.
  let early: ReturnType<typeof checkSkillZip> = null;
  try {
    early = checkSkillZip(zip, limits);
  } catch {
    // not a readable zip: said below
  }
  if (early !== null && (early.limit === 'max_upload_bytes' || early.limit === 'max_zip_entries'))
    return refused('upload_limit', limitError(early.message));
  let located: ReturnType<typeof readZippedSkill>;
  try {
    // SKILL.md is inflated only when its declared size is one a default server takes: a zip bomb
    // is refused from the archive's directory, as the server refuses it, and costs no memory.
    located = readZippedSkill(zip, {
      maxSkillMdBytes: limits.max_skill_md_bytes,
      maxPathDepth: limits.max_path_depth,
    });
  } catch (error) {
    return refused('zip_format', `not a readable zip archive (${(error as Error).message}); add refuses it`);
  }
  if (located.kind !== 'skill')
    return refused(
      located.kind === 'refused' ? located.rule : located.kind,
      `${located.message}; add refuses it`,
    );
  if (located.skillMd === null) {
    return {
      ...refused(
        'upload_limit',
        limitError(
          `SKILL.md is ${located.skillMdSize} bytes, more than ${limits.max_skill_md_bytes} (max_skill_md_bytes, setting ${limits.settings.max_skill_md_bytes})`,
        ),
      ),
      file: `${label}#${located.skillMdPath}`,
    };
  }
  const text = decodeSkillBytes(located.skillMd);
  const dirName = checkDirName ? located.folderName : null;
  const result = validateSkill(text, { ...options, ...(dirName !== null ? { dirName } : {}) });
  const byteProblem = byteIssue(located.skillMd, text);
  if (byteProblem) {
    result.valid = false;
    const utf16 = byteProblem.rule === 'invalid_utf8' && findInvalidUtf8(located.skillMd)?.encoding != null;
    result.errors = utf16 ? [byteProblem] : [byteProblem, ...result.errors];
    if (utf16) result.warnings = [];
  }
  // The files a skill keeps are counted as the server counts them (folder entries and `__MACOSX/`
  // left out, SKILL.md wherever it sits); the zip's other limits apply to the archive as it is.
  const limitMessage =
    located.files + 1 > limits.max_files_per_skill
      ? `the skill has ${located.files} files, more than the ${limits.max_files_per_skill - 1} a skill keeps besides its generated .abstract.md (max_files_per_skill ${limits.max_files_per_skill}, setting ${limits.settings.max_files_per_skill})`
      : (checkSkillZip(zip, { ...limits, max_files_per_skill: Number.POSITIVE_INFINITY })?.message ?? null);
  if (limitMessage !== null) {
    result.valid = false;
    result.errors = [
      ...result.errors,
      { rule: 'upload_limit', severity: 'error', field: null, message: limitError(limitMessage) },
    ];
  }
  return { file: `${label}#${located.skillMdPath}`, dir_name: dirName, ...result };
}

/**
 * `name_duplicate`: a valid skill whose name (as add would store it: `stored`, null when add refuses
 * the name) is that of an earlier one in the same run. `add-skill` of the same paths refuses it, as a
 * second add would replace the first skill, so it is an error here too, naming the earlier file.
 */
export function markSameName(
  results: FileValidation[],
  stored: (name: string) => string | null,
  locate: (result: FileValidation) => { line: number; column: number } | undefined = () => undefined,
): void {
  const seen = new Map<string, string>();
  for (const result of results) {
    if (!result.valid || result.name === null) continue;
    const name = stored(result.name);
    if (name === null) continue;
    const earlier = seen.get(name);
    if (earlier === undefined) {
      seen.set(name, result.file);
      continue;
    }
    const at =
      [...result.warnings, ...result.errors].find((issue) => issue.field === 'name') ?? locate(result);
    result.valid = false;
    result.errors = [
      ...result.errors,
      {
        rule: 'name_duplicate',
        severity: 'error',
        field: 'name',
        message:
          `is the skill "${name}" like ${earlier} before it: add-skill of these paths adds the first and refuses ` +
          'this one (adding it on its own would replace the first); rename one of them',
        ...(at?.line !== undefined ? { line: at.line } : {}),
        ...(at?.column !== undefined ? { column: at.column } : {}),
      },
    ];
  }
}

/** Registers `skills validate` under `skills`. */
export function registerValidate(skills: Command, io: CliIo): void {
  skills
    .command('validate')
    .description(
      'check skills locally (no server): a SKILL.md, a skill folder, a folder of skill folders, a skill zip, or an MCP tool .json',
    )
    .argument('<paths...>', 'files or folders')
    .option('--strict', 'report best-practice warnings as errors where the profile says so')
    .option('--profile <profile>', `rule set: ${PROFILES.join(', ')} (default openviking)`)
    .option(
      '--name-policy <policy>',
      'judge the name as add does on a server with this name policy (its SKILLPORT_NAME_POLICY): strict (the default policy: a name add refuses is an error) or slug (stored under its slug); without it the name rule is a warning that says what each policy does',
    )
    .option('--no-dir-name', 'do not check that the name matches the folder name')
    .action(
      async (
        targets: string[],
        options: { strict?: boolean; profile?: string; namePolicy?: string; dirName?: boolean },
        command,
      ) => {
        const ctx = createContext(io, command);
        const profile = (options.profile ?? 'openviking') as ValidationProfile;
        if (!PROFILES.includes(profile)) {
          throw new CliError(`--profile must be one of ${PROFILES.join(', ')}, got "${options.profile}"`);
        }
        const namePolicy = options.namePolicy?.trim().toLowerCase() as NamePolicy | undefined;
        if (namePolicy !== undefined && !NAME_POLICIES.includes(namePolicy)) {
          throw new CliError(
            `--name-policy must be one of ${NAME_POLICIES.join(', ')} (the server's SKILLPORT_NAME_POLICY), got "${options.namePolicy}"`,
          );
        }
        const files: string[] = [];
        const inFolders = new Set<string>(); // SKILL.md files found in a folder: add uploads the folder
        const skipped: SkillFileScan['skipped'] = [];
        for (const target of targets) {
          const resolved = path.resolve(io.cwd, target);
          const scan = await scanSkillFiles(resolved);
          files.push(...scan.files);
          const isDir = await stat(resolved).then(
            (s) => s.isDirectory(),
            () => false,
          );
          if (isDir)
            for (const file of scan.files) if (path.basename(file) === 'SKILL.md') inFolders.add(file);
          skipped.push(...scan.skipped.map((s) => ({ ...s, path: displayPath(io.cwd, s.path) })));
        }
        const { validateSkill } = await import('@skillport/core');
        const results: FileValidation[] = [];
        // Files of a skill folder that add would leave out (symlinks, the ignore list), each printed as
        // a `not_uploaded` warning unless the search already reported it as a link not followed.
        const notUploaded: SkillFileScan['skipped'] = [];
        const nameAt = new Map<FileValidation, { line: number; column: number }>();
        const options_: CheckOptions = {
          strict: options.strict === true,
          profile,
          ...(namePolicy !== undefined ? { namePolicy } : {}),
        };
        for (const file of files) {
          if (/\.json$/i.test(file)) {
            results.push(...(await validateToolsFile(file, io.cwd, options_)));
            continue;
          }
          const bytes = await readFile(file);
          if (looksLikeZip(bytes)) {
            results.push(
              await validateZipFile(displayPath(io.cwd, file), bytes, options_, options.dirName !== false),
            );
            continue;
          }
          const text = decodeSkillBytes(bytes);
          const dirName =
            options.dirName !== false && path.basename(file) === 'SKILL.md'
              ? path.basename(path.dirname(file))
              : null;
          const result = validateSkill(text, { ...options_, ...(dirName ? { dirName } : {}) });
          const refused = byteIssue(bytes, text);
          if (refused) {
            result.valid = false;
            // A UTF-16 file read as UTF-8 is noise (NULs, no frontmatter): its encoding is the one finding.
            const utf16 = refused.rule === 'invalid_utf8' && findInvalidUtf8(bytes)?.encoding != null;
            result.errors = utf16 ? [refused] : [refused, ...result.errors];
            if (utf16) result.warnings = [];
          }
          const skillDir = path.dirname(file);
          const tooLarge = inFolders.has(file)
            ? await uploadLimitIssue(skillDir, (entry) =>
                notUploaded.push({
                  path: displayPath(io.cwd, path.join(skillDir, entry.path)),
                  reason: entry.message,
                }),
              )
            : null;
          if (tooLarge) {
            result.valid = false;
            result.errors = [...result.errors, tooLarge];
          }
          const validated: FileValidation = { file: displayPath(io.cwd, file), dir_name: dirName, ...result };
          const at = nameLine(text);
          if (at) nameAt.set(validated, at);
          results.push(validated);
        }
        if (results.length > 1) {
          markSameName(
            results,
            (name) => storedSkillName(name, namePolicy ?? 'strict'),
            (result) => nameAt.get(result),
          );
        }
        const invalid = results.filter((r) => !r.valid).length;
        const reported = new Set(skipped.map((entry) => entry.path));
        const leftOut = notUploaded.filter((entry) => !reported.has(entry.path));
        // Each link not followed and each file left out is printed as a warning, so it is counted as one.
        const warnings =
          results.reduce((sum, r) => sum + r.warnings.length, 0) + skipped.length + leftOut.length;
        if (ctx.format === 'json') {
          printJson(io, {
            results,
            skipped: [...skipped, ...leftOut],
            summary: { files: results.length, valid: results.length - invalid, invalid, warnings },
          });
        } else {
          for (const result of results) {
            for (const issue of byPlace([...result.errors, ...result.warnings]))
              ctx.print(`${escapeInlineControls(formatIssue(result.file, issue))}\n`);
          }
          for (const link of skipped)
            ctx.print(`${escapeInlineControls(`${link.path} warning link_not_followed ${link.reason}`)}\n`);
          for (const entry of leftOut)
            ctx.print(`${escapeInlineControls(`${entry.path} warning not_uploaded ${entry.reason}`)}\n`);
          io.stderr.write(
            `${results.length} file${results.length === 1 ? '' : 's'} checked: ${results.length - invalid} valid, ${invalid} with errors, ${warnings} warning${warnings === 1 ? '' : 's'}\n`,
          );
        }
        if (invalid > 0) throw new CliError('', EXIT.user);
      },
    );
}
