/**
 * `validateSkill`: the verdict on a skill under one profile — the same code in the CLI, the
 * browser and the server.
 */
import { isSkillportError, SkillportError } from '../errors.js';
import { countLines } from '../internal/text.js';
import { type ParseDetail, parseSkillMdDetail } from '../parse/parse-skill-md.js';
import { type StructuredSkillMd, structuredToSkillMd } from '../parse/serialize-skill-md.js';
import type {
  NamePolicy,
  ParsedSkill,
  SkillIssue,
  StructuredSkill,
  ValidationProfile,
  ValidationResult,
} from '../types.js';
import { checkAgentSkills } from './agentskills-rules.js';
import { checkOpenViking } from './openviking-rules.js';
import { createRuleContext } from './rule-context.js';

/** Options of {@link validateSkill}. */
export interface ValidateSkillOptions {
  /** Promote the rules the profile marks "error if strict" to errors. Default `false`. */
  strict?: boolean;
  /** Rule set. Default `'openviking'`. */
  profile?: ValidationProfile;
  /** Name of the skill's folder; enables `name_matches_directory`. */
  dirName?: string;
  /**
   * The name policy of the server the skill is meant for (`GET /api/v1/system/limits` →
   * `name_policy`), so that the verdict on the name is that server's add verdict: under `strict`,
   * `name_allowed_characters` and `name_max_length` are errors (add refuses the name); under `slug`
   * they stay warnings that name the stored name (an error when no valid slug exists), and
   * `name_leading_hyphen` / `name_reserved_filename` judge the stored name. Default: unknown — the
   * name rules stay warnings (the OpenViking rule table) and their messages say what each policy does.
   */
  namePolicy?: NamePolicy;
}

/**
 * Every validation profile, the default (`openviking`) first: the values `profile` accepts.
 *
 * @example
 * ```ts
 * VALIDATION_PROFILES.includes('claude'); // true
 * ```
 * @see the @skillport/core README (profiles), the OpenAPI document: `POST /api/v1/skills/validate` (`profile`)
 */
export const VALIDATION_PROFILES: readonly ValidationProfile[] = Object.freeze([
  'openviking',
  'agentskills',
  'claude',
]);

/**
 * Parse warnings about what other agents would not read — YAML that strict parsers reject, the
 * camelCase `allowedTools` — which strict `agentskills` / `claude` make errors.
 */
const STRICT_PROFILE_RULES = new Set([
  'yaml_unquoted_colon',
  'yaml_reserved_indicator',
  'yaml_duplicate_key',
  'allowed_tools_spelling',
]);

/**
 * Validates a skill: parses it once and applies the rules of a profile.
 *
 * - `openviking` (default): the rule table of `POST /api/v1/skills/validate` in the OpenAPI document — `yaml_format`,
 *   `name_required`, `description_required` (missing, not a string, blank) and `description_nul` (a
 *   NUL character, which only a YAML escape can write) are errors in every profile;
 *   `name_matches_directory`, `name_max_length` (64), `name_allowed_characters`
 *   (`[A-Za-z0-9_-]`, the add-time rule), `name_leading_hyphen` (a leading `-` reads as a
 *   command-line option), `name_reserved_filename` (`con`, `nul`, `com1`…: no such folder on
 *   Windows) and `description_max_length` (1024) are warnings that `strict` makes errors; `body_max_lines` (> 500) is a warning reported only when `strict`;
 *   `name_kebab_case`, `description_too_short` (< 20) and `name_whitespace` (blanks that add
 *   trims) are warnings.
 * - `agentskills`: the Agent Skills specification, as errors — `name_max_length` (64),
 *   `name_allowed_characters` (lowercase letters, digits, `-`), `name_hyphens` (no leading,
 *   trailing or double `-`), `name_matches_directory`, `description_max_length` (1024),
 *   `compatibility_invalid` / `compatibility_max_length` (a string of 1–500), `metadata_invalid`
 *   (string → string), `license_invalid`; and as warnings `frontmatter_unknown_field` (an error
 *   when `strict`), `description_too_short`, `body_max_lines`.
 * - `claude`: `agentskills` (Claude Code's own keys are known) plus `name_xml_tag`,
 *   `description_xml_tag` and `name_reserved_word` (`anthropic`, `claude`), all errors.
 *
 * Parse issues come first, with their severity: `yaml_format`, `yaml_unquoted_colon`,
 * `yaml_reserved_indicator`, `yaml_duplicate_key`, `yaml_warning`, `tags_invalid`,
 * `allowed_tools_invalid`, `allowed_tools_conflict`, `allowed_tools_spelling` (see
 * {@link parseSkillMd}); the recovered YAML mistakes and `allowed_tools_spelling` become errors
 * under strict `agentskills` / `claude`. When the frontmatter cannot be read, only its
 * `yaml_format` error is reported (or `frontmatter_too_large` past `MAX_FRONTMATTER_LENGTH`). A structured `content` that is not text is a `content_invalid`
 * error. Lengths count Unicode code points (descriptions trimmed). Issues carry `line`/`column`
 * for SKILL.md text; for structured input they do not (there is no text to point into) unless
 * `content` was a full SKILL.md used as is.
 *
 * @param input - SKILL.md text, or a structured skill `{name, description?, content?, tags?,
 *   allowed_tools?, …}` (see {@link skillMdFromStructured})
 * @param options - `strict` (default false), `profile` (default `'openviking'`), `dirName`,
 *   `namePolicy` (default unknown: see {@link ValidateSkillOptions.namePolicy})
 * @returns `{valid, strict, profile, name, description, tags, allowed_tools, body_lines, errors,
 *   warnings}` — `valid` is true when there is no error
 * @throws SkillportError `INVALID_ARGUMENT` for an unknown profile or name policy; TypeError when `input` is
 *   neither a string nor a plain object (programmer errors — bad skill content never throws)
 * @example
 * ```ts
 * const result = validateSkill('---\nname: My Skill\ndescription: Does things\n---\n', { strict: true });
 * result.valid; // false
 * result.errors.map((e) => e.rule); // ['name_allowed_characters']
 * ```
 * @see the OpenAPI document: `POST /api/v1/skills/validate`
 */
export function validateSkill(
  input: string | StructuredSkill,
  options: ValidateSkillOptions = {},
): ValidationResult {
  return validateDetail(input, options).validation;
}

/**
 * {@link validateSkill} of SKILL.md text together with the skill it parsed — what
 * {@link parseSkillMd} returns as `skill` — from one parse: for a caller that stores what it
 * validated (the server's add and update).
 *
 * @param text - SKILL.md text
 * @param options - as for {@link validateSkill}
 * @returns `validation` (exactly `validateSkill(text, options)`) and `skill` (exactly
 *   `parseSkillMd(text).skill`)
 * @throws SkillportError `INVALID_ARGUMENT` for an unknown profile
 * @example
 * ```ts
 * const { validation, skill } = validateAndParseSkillMd('---\nname: pdf\ndescription: Reads PDF files\n---\nBody\n');
 * validation.valid; // true
 * skill.body; // 'Body\n'
 * ```
 */
export function validateAndParseSkillMd(
  text: string,
  options: ValidateSkillOptions = {},
): { validation: ValidationResult; skill: ParsedSkill } {
  return validateDetail(text, options);
}

/** The opening `---` of a frontmatter: always the first line (after a byte-order mark, if any). */
const FRONTMATTER_START = { line: 1, column: 1 } as const;

function validateDetail(
  input: string | StructuredSkill,
  options: ValidateSkillOptions,
): { validation: ValidationResult; skill: ParsedSkill } {
  const strict = options.strict ?? false;
  const profile = options.profile ?? 'openviking';
  if (options.namePolicy !== undefined && options.namePolicy !== 'strict' && options.namePolicy !== 'slug') {
    throw new SkillportError(
      'INVALID_ARGUMENT',
      `Unknown name policy ${JSON.stringify(options.namePolicy)}; expected strict or slug.`,
      { details: { field: 'namePolicy', value: options.namePolicy } },
    );
  }
  if (!VALIDATION_PROFILES.includes(profile)) {
    throw new SkillportError(
      'INVALID_ARGUMENT',
      `Unknown validation profile ${JSON.stringify(profile)}; expected one of ${VALIDATION_PROFILES.join(', ')}.`,
      { details: { field: 'profile', value: profile } },
    );
  }
  let detail: ParseDetail;
  let located = true;
  let contentIssue: SkillIssue | undefined;
  if (typeof input === 'string') {
    detail = parseSkillMdDetail(input);
  } else {
    const built = readStructured(input);
    if (built.issue) contentIssue = built.issue;
    detail = built.parsed ?? parseSkillMdDetail(built.text);
    located = built.verbatim;
  }
  const { skill } = detail.result;
  const bodyLines = countLines(skill.body);
  const ctx = createRuleContext(
    skill,
    strict,
    options.dirName,
    bodyLines,
    located ? detail.locate : () => undefined,
    located && detail.result.hasFrontmatter ? FRONTMATTER_START : undefined,
    options.namePolicy,
  );
  if (detail.readable) {
    if (profile === 'openviking') checkOpenViking(ctx);
    else checkAgentSkills(ctx, profile === 'claude');
  }

  const errors: SkillIssue[] = contentIssue ? [contentIssue] : [];
  const warnings: SkillIssue[] = [];
  const promoteYaml = strict && profile !== 'openviking';
  for (const parsed of detail.result.issues) {
    let issue = parsed;
    if (!located) {
      const { line: _line, column: _column, ...rest } = parsed;
      issue = rest;
    }
    if (issue.severity === 'warning' && promoteYaml && STRICT_PROFILE_RULES.has(issue.rule)) {
      issue = { ...issue, severity: 'error' };
    }
    (issue.severity === 'error' ? errors : warnings).push(issue);
  }
  for (const issue of ctx.issues) (issue.severity === 'error' ? errors : warnings).push(issue);

  const validation: ValidationResult = {
    valid: errors.length === 0,
    strict,
    profile,
    name: skill.name,
    description: skill.description,
    tags: skill.tags,
    allowed_tools: skill.allowedTools,
    body_lines: bodyLines,
    errors,
    warnings,
  };
  return { validation, skill };
}

/**
 * The structured form as SKILL.md text; a `content` that is not text becomes a `content_invalid`
 * error and is left out, so the rest of the skill is still checked.
 */
function readStructured(input: StructuredSkill): StructuredSkillMd & { issue?: SkillIssue } {
  try {
    return structuredToSkillMd(input);
  } catch (error) {
    if (!isSkillportError(error) || error.details?.field !== 'content') throw error;
    const { content: _content, ...rest } = input;
    return {
      ...structuredToSkillMd(rest as StructuredSkill),
      issue: { rule: 'content_invalid', severity: 'error', message: error.message, field: 'content' },
    };
  }
}
