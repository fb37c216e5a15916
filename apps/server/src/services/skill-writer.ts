/**
 * Add and update (the OpenAPI document: `POST /api/v1/skills`, `PUT /api/v1/skills/{name}`): resolve the input, validate it with core (profile
 * `openviking`), write SKILL.md + L0 + auxiliary files and the processing job in one transaction,
 * optionally wait for the job.
 */
import { isSkillportError, type SkillIssue, SkillportError, type SkillWriteResult } from '@skillport/core';
import { LIMIT_ENV, quotaBytes } from '../config.js';
import { isStorageFullError, isTransientStoreError } from '../http/errors.js';
import { overviewFields, renderOverviewOnPool } from '../levels/extract-overview.js';
import { handOver } from '../store/movable.js';
import { skillUri } from '../store/skill-uri.js';
import type { Identity, SkillFileInput, SkillWrite } from '../store/types.js';
import { ABSTRACT_PATH, DEFINITION_PATH } from '../store/types.js';
import { textRunsInline } from '../workers/inline-policy.js';
import { isProcessingLimitError } from '../workers/worker-pool.js';
import type { ServiceDeps } from './deps.js';
import { PREPARE_SKILL, PREPARE_SKILL_WRITE, type PreparedSkillWrite } from './prepare-skill.js';
import { applyRetention } from './retention.js';
import { resolveSkillSource, type SkillInputBody, type SkillSource } from './skill-input.js';
import { resolveSkillName } from './skill-name.js';
import { resolveCallerRoot } from './skill-roots.js';
import { waitForStoredSkill } from './wait.js';

/** The add/update body fields this service reads (already schema-checked). */
export interface WriteSkillBody extends SkillInputBody {
  wait?: boolean | null | undefined;
  timeout?: number | null | false | undefined;
  target_uri?: string | null | false | undefined;
  source_metadata?: Record<string, unknown> | null | false | undefined;
  /** Names of the skills to take from the source: the source's skill must be one of them. */
  skills?: string[] | null | false | undefined;
  /** `true` (list a source's skills without storing) is refused: one request stores one skill. */
  list_only?: boolean | null | undefined;
}

/** How the write was asked for. */
export interface WriteSkillMode {
  action: 'add' | 'update';
  /** The `{name}` path segment of update (raw). */
  pathName?: string;
  /** `If-Match` revision of update. */
  ifMatch?: readonly string[];
}

const encoder = new TextEncoder();

function issueForWire(issue: SkillIssue): SkillIssue {
  return { ...issue };
}

/** The rules whose warning says the add-time name rule refuses the name (`name_*` of the validator). */
const NAME_RULES = new Set(['name_max_length', 'name_allowed_characters']);

/**
 * Runs `resolve`; a name refusal it throws (`INVALID_ARGUMENT`, `details.field` `name`) gets where the
 * name is written in the SKILL.md — `details.rule`, `line`, `column`, and `(line L, column C)` in the
 * message — taken from the validator's warning for the same rule, when the content has one.
 */
function locateNameError<T>(warnings: readonly SkillIssue[], resolve: () => T): T {
  try {
    return resolve();
  } catch (error) {
    if (!isSkillportError(error) || error.code !== 'INVALID_ARGUMENT') throw error;
    const at = warnings.find((w) => NAME_RULES.has(w.rule) && w.line !== undefined);
    if (at === undefined) throw error;
    const details = (error.details ?? {}) as Record<string, unknown>;
    throw new SkillportError(
      'INVALID_ARGUMENT',
      `${error.message} (SKILL.md line ${at.line}, column ${at.column ?? 1})`,
      { details: { ...details, rule: at.rule, line: at.line, column: at.column ?? 1 } },
    );
  }
}

/**
 * The name as written, for a message: without the ASCII blanks the name rule trims, and with
 * invisible characters (no-break space, byte order mark, line separator) escaped, since they are
 * what broke the rule.
 */
function quoteName(written: string): string {
  return JSON.stringify(written.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '')).replace(
    /[\u007f-\u009f\u00a0\u00ad\u1680\u180e\u2000-\u200b\u200e-\u200f\u2028-\u202f\u205f-\u2064\u2066-\u206f\u3000\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The warning of a write whose name was replaced by its kebab-case spelling (name policy `slug`). */
function sluggedWarning(written: string, stored: string): SkillIssue {
  return {
    rule: 'name_slugged',
    severity: 'warning',
    message:
      `"name" ${quoteName(written)} breaks the name rule; the skill is stored as ` +
      `${JSON.stringify(stored)} (name policy "slug"), SKILL.md as uploaded. Get, update and delete ` +
      'accept either spelling.',
    field: 'name',
    fix: stored,
  };
}

/**
 * The names add's `skills` selection (OpenViking's `ov add-skill --skill`) stands for, under the name
 * rule a skill's own name follows: ASCII blanks around an entry are trimmed, a no-break space, byte
 * order mark or other invisible character is not (such an entry is refused, naming the character and
 * the fix), and under the `slug` name policy an entry stands for its kebab-case spelling, as the
 * skill's name does. Checked before the source is read.
 *
 * @param skills - the request's `skills` (schema-checked: strings with a non-blank character)
 * @param policy - the server's name policy
 * @returns the stored names selected, or null when nothing is selected (`undefined`, `null`, `false`
 *   or `[]`)
 * @throws SkillportError 400 `INVALID_ARGUMENT` with `details {field: "skills", index, value, reason,
 *   fix?}` for an entry the name rule refuses
 */
function selectedNames(skills: WriteSkillBody['skills'], policy: ServiceDeps['namePolicy']): string[] | null {
  if (!Array.isArray(skills) || skills.length === 0) return null;
  return [
    ...new Set(
      skills.map((entry, index) => {
        try {
          return resolveSkillName(entry, policy).name;
        } catch (error) {
          if (!isSkillportError(error) || error.code !== 'INVALID_ARGUMENT') throw error;
          throw new SkillportError('INVALID_ARGUMENT', `skills[${index}]: ${error.message}`, {
            details: { ...error.details, field: 'skills', index },
          });
        }
      }),
    ),
  ];
}

/**
 * Checks add's `skills` selection against the one skill of the source: its stored name must be
 * selected. Nothing selected (null) selects it.
 *
 * @param selected - from {@link selectedNames}
 * @param name - the name the skill is stored under
 * @throws SkillportError 400 `INVALID_ARGUMENT` with `details {field: "skills", missing, available}`
 */
function checkSelected(selected: readonly string[] | null, name: string): void {
  if (selected === null || selected.includes(name)) return;
  const shown = selected.slice(0, 20);
  throw new SkillportError(
    'INVALID_ARGUMENT',
    `The source holds the skill ${JSON.stringify(name)}, not ${shown.map((s) => JSON.stringify(s)).join(', ')}` +
      `${selected.length > shown.length ? ', …' : ''}: list ${JSON.stringify(name)} in skills, or leave skills out`,
    { details: { field: 'skills', missing: shown, available: [name] } },
  );
}

/**
 * Parses and validates the source's SKILL.md. Small text is read in this thread; large text in a
 * worker thread, so one big SKILL.md never holds up other requests — in one hop with the overview
 * when the server processes at write time (`overview` is null otherwise, or when it is rendered
 * later: see {@link PreparedSkillWrite}). Should that hop pass its time budget or heap, the text is
 * read again without the overview, so the outcome is the one of reading it alone (refused only when
 * reading it alone is; the overview is then left to the separate render below, or to the job).
 */
async function prepareSource(deps: ServiceDeps, source: SkillSource): Promise<PreparedSkillWrite> {
  const input = { text: source.text, ...(source.folderName !== null ? { dirName: source.folderName } : {}) };
  if (textRunsInline(source.text)) {
    return { ...(await deps.workers.run(PREPARE_SKILL, input, { inline: true })), overview: null };
  }
  try {
    return await deps.workers.run(PREPARE_SKILL_WRITE, { ...input, overview: deps.processAtWrite });
  } catch (error) {
    if (!isProcessingLimitError(error)) throw error;
    return { ...(await deps.workers.run(PREPARE_SKILL, input)), overview: null };
  }
}

/**
 * Adds or replaces a skill.
 *
 * @returns the contract's add result (`queue_status` when `wait`, else `task_id`; `action` on update)
 * @throws SkillportError `SKILL_INVALID` (validation errors; nothing stored), `INVALID_ARGUMENT`
 *   (name rule; update name mismatch with `details {expected, actual}`), `INVALID_URI`, `NOT_FOUND`
 *   (update of a missing skill), `CONFLICT` 412 (stale `If-Match`), `DEADLINE_EXCEEDED` (wait timeout: the skill is stored, and
 *   the details say what was stored and name its task, see {@link waitForStoredSkill})
 */
export async function writeSkill(
  deps: ServiceDeps,
  identity: Identity,
  body: WriteSkillBody,
  mode: WriteSkillMode,
): Promise<SkillWriteResult> {
  if (body.list_only === true) {
    throw new SkillportError(
      'INVALID_ARGUMENT',
      'list_only is not supported: this server stores one skill per request and lists no source; check a ' +
        'source with POST /api/v1/skills/validate, or send it without list_only to store it',
      { details: { field: 'list_only', reason: 'unsupported' } },
    );
  }
  const expected =
    mode.pathName === undefined ? undefined : resolveSkillName(mode.pathName, deps.namePolicy).name;
  const rootUri = resolveCallerRoot(identity, typeof body.target_uri === 'string' ? body.target_uri : null);
  const selected = selectedNames(body.skills, deps.namePolicy);
  const source = await resolveSkillSource(body, identity, deps);
  const validation = await prepareSource(deps, source);
  const parsed = validation;
  if (validation.errors.length > 0) {
    const first = validation.errors[0] as SkillIssue;
    const where =
      first.line !== undefined
        ? ` (line ${first.line}${first.column !== undefined ? `, column ${first.column}` : ''})`
        : '';
    throw new SkillportError('SKILL_INVALID', `Skill parse error: ${first.message}${where}`, {
      details: { issues: [...validation.errors, ...validation.warnings].map(issueForWire) },
    });
  }
  const writtenName = validation.name ?? '';
  const { name, slugged } = locateNameError(validation.warnings, () =>
    resolveSkillName(writtenName, deps.namePolicy),
  );
  if (expected !== undefined && name !== expected) {
    throw new SkillportError(
      'INVALID_ARGUMENT',
      `The name in the content (${JSON.stringify(name)}) must equal the name in the path (${JSON.stringify(expected)})`,
      { details: { field: 'name', expected, actual: name } },
    );
  }
  checkSelected(selected, name);
  const description = validation.description ?? '';
  const abstract = deps.renderAbstract({
    name,
    description,
    tags: parsed.tags,
    allowedTools: parsed.allowedTools,
  });
  // The contents are not read here after the write: a store in another thread may move them.
  const files: SkillFileInput[] = [
    { path: DEFINITION_PATH, kind: 'definition', content: handOver(source.bytes) },
    { path: ABSTRACT_PATH, kind: 'summary', content: encoder.encode(abstract) },
    ...source.auxiliary.map((f) => ({
      path: f.path,
      kind: 'auxiliary' as const,
      content: handOver(f.content),
      ...(f.executable === true ? { executable: true } : {}),
    })),
  ];
  if (files.length > deps.limits.maxFilesPerSkill) {
    throw new SkillportError(
      'PAYLOAD_TOO_LARGE',
      `Skill has ${files.length} files; the limit is ${deps.limits.maxFilesPerSkill} (${LIMIT_ENV.maxFilesPerSkill})`,
      { details: { files: files.length, limit: deps.limits.maxFilesPerSkill } },
    );
  }
  const given =
    body.source_metadata !== null && typeof body.source_metadata === 'object' ? body.source_metadata : null;
  // An MCP tool's own name (`search_web`) is not in its SKILL.md: it is kept with the provenance,
  // so get with include_source gives it back (and `toMcpTool(content, {mcpTool})` the tool).
  const sourceMetadata =
    source.mcpTool !== undefined && source.mcpTool !== null ? { ...given, mcp_tool: source.mcpTool } : given;
  const write: SkillWrite = {
    accountId: identity.accountId,
    rootUri,
    name,
    description,
    tags: parsed.tags,
    allowedTools: parsed.allowedTools,
    frontmatter: parsed.frontmatter,
    body: parsed.body,
    sourceMetadata,
    files,
    ...(mode.ifMatch !== undefined ? { ifMatch: mode.ifMatch } : {}),
    ...(mode.action === 'update' ? { mustExist: true } : {}),
    ...(source.tempUploadId !== undefined ? { tempUploadId: source.tempUploadId } : {}),
    quotaBytes: quotaBytes(deps.limits.accountQuotaMb),
    maxSkills: deps.limits.accountMaxSkills,
    task: {
      type: mode.action === 'update' ? 'update_skill' : 'add_skill',
      userId: identity.userId,
      // A write that waits for its job runs it ahead of backlogs (see `taskPriority`).
      ...(body.wait === true ? { interactive: true } : {}),
    },
  };
  if (deps.processAtWrite) {
    // The overview the job would render (`createPooledSummarizer`), from the same fields. Should that
    // fail (past its time budget, the worker queue full), the write goes ahead without it and the job
    // renders it — or fails its task — as on a server that does not process at write time.
    try {
      const overview =
        validation.overview ??
        (await renderOverviewOnPool(
          deps.workers,
          overviewFields({ frontmatter: parsed.frontmatter, name, description, body: parsed.body }),
        ));
      write.processed = {
        overview,
        // With an embedder the task stays pending: its job embeds the skill and keeps this overview.
        result: deps.embedAfterWrite
          ? null
          : { overview_bytes: encoder.encode(overview).byteLength, indexed: true, attempt: 1 },
      };
    } catch {
      // Left to the job (see above).
    }
  }
  let written: Awaited<ReturnType<typeof deps.store.putSkill>>;
  try {
    written = await deps.store.putSkill(write);
  } catch (error) {
    if (isSkillportError(error) || isTransientStoreError(error) || isStorageFullError(error)) throw error;
    throw new SkillportError(
      'PROCESSING_ERROR',
      `Storing skill ${JSON.stringify(name)} failed after it was accepted`,
      {
        details: { name, root_uri: rootUri },
        cause: error,
      },
    );
  }
  // A task completed with the write leaves the runner nothing to claim.
  deps.kickJobs(write.processed === undefined || write.processed.result === null);
  await applyRetention(deps, { accountId: identity.accountId, rootUri, name }, written.revisions);
  const uri = skillUri(rootUri, name);
  const result: SkillWriteResult = {
    status: 'success',
    root_uri: uri,
    uri,
    name,
    auxiliary_files: source.auxiliary.length,
    revision: written.skill.revision,
    replaced: !written.created,
    warnings: [
      ...source.conversionIssues,
      ...(slugged ? [sluggedWarning(writtenName, name)] : []),
      // Under the slug policy the name is stored: `name_slugged` says so in place of the name rule.
      ...validation.warnings.filter((w) => !(slugged && w.rule === 'name_allowed_characters')),
    ].map(issueForWire),
  };
  if (mode.action === 'update') result.action = 'update';
  if (body.wait === true) {
    result.queue_status = await waitForStoredSkill(deps, identity, result, written.taskId, body.timeout);
  } else {
    result.task_id = written.taskId;
  }
  return result;
}
