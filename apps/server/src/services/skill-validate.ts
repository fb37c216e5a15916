/**
 * `POST /api/v1/skills/validate`: the validator's verdict on any `data` form, nothing stored.
 */
import {
  isSkillportError,
  type SkillIssue,
  type StructuredSkill,
  type ValidateSkillResult,
  type ValidationProfile,
  validateSkill,
} from '@skillport/core';
import type { ServerLimits } from '../config.js';
import { jsonRunsInline } from '../workers/inline-policy.js';
import { defineWorkerTask } from '../workers/worker-task.js';
import type { ServiceDeps } from './deps.js';
import { fromData, looksLikeHostPath, type SkillSource } from './skill-input.js';

/** What validation needs of the server: the SKILL.md size limit. */
export interface ValidateDeps {
  limits: Pick<ServerLimits, 'maxSkillMdBytes'>;
}

/** The validate body fields this service reads (already schema-checked). */
export interface ValidateBody {
  data: unknown;
  strict?: boolean | null | false | undefined;
  profile?: ValidationProfile | null | false | undefined;
  skill_dir_name?: string | null | false | undefined;
  source_path?: string | null | false | undefined;
}

/**
 * Resolves `data` as add does; what add refuses with 400 `INVALID_ARGUMENT` (a NUL character, an MCP
 * tool it cannot convert) comes back as an error issue instead, so validate stays a 200 verdict.
 */
function resolveData(data: unknown, deps: ValidateDeps): SkillSource | SkillIssue {
  try {
    return fromData(data, deps);
  } catch (error) {
    if (!isSkillportError(error) || error.code !== 'INVALID_ARGUMENT') throw error;
    const details = error.details ?? {};
    return {
      rule: typeof details.reason === 'string' ? details.reason : 'data_invalid',
      severity: 'error',
      message: error.message,
      field: typeof details.field === 'string' ? details.field : null,
      ...(typeof details.line === 'number' ? { line: details.line } : {}),
      ...(typeof details.column === 'number' ? { column: details.column } : {}),
    };
  }
}

function withError(result: ValidateSkillResult, issue: SkillIssue): ValidateSkillResult {
  return { ...result, valid: false, errors: [issue, ...result.errors] };
}

/**
 * Validates `data` (SKILL.md text, MCP tool or structured skill) with core's `validateSkill`.
 * Always a verdict, never a refusal of the skill: `data` of another JSON type (a number, a list, null)
 * is invalid with a `yaml_format` error on `data`; a string that looks like a host path (which add
 * refuses with 403) is reported invalid with a `host_path` error; an MCP conversion's issues join
 * the warnings; a structured object goes to core as is (a missing name is an issue, not a 400).
 *
 * @returns the contract's validate result, with the request's `source_path` and `skill_dir_name`
 *   (`""` when not given) as OpenViking's validate returns them
 */
export function validateSkillInput(deps: ValidateDeps, body: ValidateBody): ValidateSkillResult {
  return {
    ...verdictOf(deps, body),
    source_path: typeof body.source_path === 'string' ? body.source_path : '',
    skill_dir_name: typeof body.skill_dir_name === 'string' ? body.skill_dir_name : '',
  };
}

/** The verdict on `data` no skill could be read from: invalid, nothing parsed, the one `error`. */
function unreadVerdict(
  options: { strict: boolean; profile: ValidationProfile },
  error: SkillIssue,
): ValidateSkillResult {
  return {
    valid: false,
    strict: options.strict,
    profile: options.profile,
    name: null,
    description: null,
    tags: [],
    allowed_tools: [],
    body_lines: 0,
    errors: [error],
    warnings: [],
  };
}

/** What JSON type `data` is, for the message refusing it. */
function jsonTypeOf(data: unknown): string {
  if (data === null) return 'null';
  if (Array.isArray(data)) return 'a list';
  return `a ${typeof data}`;
}

function verdictOf(deps: ValidateDeps, body: ValidateBody): ValidateSkillResult {
  const data = body.data;
  const structured =
    typeof data === 'object' && data !== null && !Array.isArray(data) && !('inputSchema' in data);
  const options: { strict: boolean; profile: ValidationProfile; dirName?: string } = {
    strict: body.strict === true,
    profile: body.profile || 'openviking',
  };
  if (typeof body.skill_dir_name === 'string' && body.skill_dir_name !== '')
    options.dirName = body.skill_dir_name;
  if (structured) {
    // Core validates the structured form itself, so a missing name is a `name_required` issue, not a 400.
    const result = validateSkill(data as StructuredSkill, options);
    // Add also refuses the text it builds (e.g. a NUL in `content`); core reports the name itself.
    const resolved = resolveData(data, deps);
    return 'rule' in resolved && resolved.rule !== 'data_invalid' ? withError(result, resolved) : result;
  }
  if (typeof data !== 'string' && (typeof data !== 'object' || data === null || Array.isArray(data))) {
    return unreadVerdict(options, {
      rule: 'yaml_format',
      severity: 'error',
      message: `data is ${jsonTypeOf(data)}; send SKILL.md text (a string), an MCP tool or a structured skill (an object)`,
      field: 'data',
    });
  }
  if (typeof data === 'string' && looksLikeHostPath(data)) {
    const result = validateSkill(data, options);
    const issue = {
      rule: 'host_path',
      severity: 'error' as const,
      message:
        'data looks like a host path; the server validates skill content, not paths (upload the file or send its text)',
      field: null,
    };
    return { ...result, valid: false, errors: [issue, ...result.errors] };
  }
  const source = resolveData(data, deps);
  if ('rule' in source) {
    if (typeof data === 'string') return withError(validateSkill(data, options), source);
    return unreadVerdict(options, source);
  }
  const result = validateSkill(source.text, options);
  return { ...result, warnings: [...source.conversionIssues, ...result.warnings] };
}

/** {@link validateSkillInput} with cloneable arguments, for the worker pool. */
export function validateSkillInputTask(input: { limits: ValidateDeps['limits']; body: ValidateBody }) {
  return validateSkillInput({ limits: input.limits }, input.body);
}

/** {@link validateSkillInputTask} as a worker pool task. */
export const VALIDATE_SKILL_INPUT = defineWorkerTask(
  import.meta.url,
  'validateSkillInputTask',
  validateSkillInputTask,
);

/**
 * Validates `data` as {@link validateSkillInput} does, in a worker thread when it is large.
 *
 * @returns the contract's validate result
 */
export function validateSkillRequest(
  deps: Pick<ServiceDeps, 'limits' | 'workers'>,
  body: ValidateBody,
): Promise<ValidateSkillResult> {
  return deps.workers.run(
    VALIDATE_SKILL_INPUT,
    { limits: { maxSkillMdBytes: deps.limits.maxSkillMdBytes }, body },
    { inline: jsonRunsInline(body.data) },
  );
}
