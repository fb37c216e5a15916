/**
 * Shared shapes of the skill model (the skill model of the @skillport/core README, the OpenAPI document: `POST /api/v1/skills/validate`).
 * Every module of `@skillport/core` speaks these types; they are re-exported from the package root.
 */

/** How bad an issue is. `error` blocks add/update; `warning` never does. */
export type IssueSeverity = 'error' | 'warning';

/**
 * One problem found in a skill, located where possible.
 *
 * - `rule`: stable rule id (`yaml_format`, `name_required`, `name_kebab_case`, …).
 * - `field`: the frontmatter key the issue is about (`name`, `allowed-tools`, …), `body`, or `null`
 *   when it concerns the whole document.
 * - `line` / `column`: 1-based, in the original text as given (BOM and CRLF included in the
 *   count of lines, not of columns).
 * - `fix`: a suggested replacement value (e.g. the kebab-case name), when one exists.
 *
 * @see the OpenAPI document: `POST /api/v1/skills/validate` (issue = `{rule, message, field, line?, column?, fix?}`)
 */
export interface SkillIssue {
  rule: string;
  severity: IssueSeverity;
  message: string;
  field: string | null;
  line?: number;
  column?: number;
  fix?: string;
}

/**
 * A skill as read from a SKILL.md document.
 *
 * - `name` / `description`: the frontmatter values when they are strings, else `null`.
 * - `body`: the Markdown after the closing fence (the leading blank line kept as written),
 *   or the whole text when there is no frontmatter.
 * - `frontmatter`: every key as parsed (YAML 1.2 core schema), unknown keys included.
 * - `tags` / `allowedTools`: normalised lists (`allowed-tools` and `allowed_tools` both read).
 */
export interface ParsedSkill {
  name: string | null;
  description: string | null;
  body: string;
  frontmatter: Record<string, unknown>;
  tags: string[];
  allowedTools: string[];
}

/** Result of {@link parseSkillMd}: the skill (as far as it could be read) and every problem found. */
export interface ParseResult {
  skill: ParsedSkill;
  issues: SkillIssue[];
  /** True when the text had a frontmatter block that could be located (closed fences). */
  hasFrontmatter: boolean;
}

/**
 * A skill given as an object instead of SKILL.md text (`POST /api/v1/skills`, `data` form 3, in the OpenAPI document).
 * Unknown keys are kept as extra frontmatter.
 */
export interface StructuredSkill {
  name: string;
  description?: string;
  content?: string;
  tags?: string[] | string;
  allowed_tools?: string[] | string;
  [key: string]: unknown;
}

/**
 * What a server's add and update do with a `name` that breaks the name rule (1–64 of
 * `[A-Za-z0-9_-]`), as the server's `SKILLPORT_NAME_POLICY` says and `GET /api/v1/system/limits`
 * reports (`name_policy`): `strict` (the default) refuses it; `slug` stores the skill under
 * `toSkillSlug(name)` (`ElevenLabs Automation` → `elevenlabs-automation`) when that is a valid name.
 * @see the OpenAPI document: `GET /api/v1/system/limits`
 */
export type NamePolicy = 'strict' | 'slug';

/** Validation profiles (the @skillport/core README). */
export type ValidationProfile = 'openviking' | 'agentskills' | 'claude';

/**
 * Result of {@link validateSkill}; the `result` of `POST /api/v1/skills/validate`.
 * @see the OpenAPI document: `POST /api/v1/skills/validate`
 */
export interface ValidationResult {
  valid: boolean;
  strict: boolean;
  profile: ValidationProfile;
  name: string | null;
  description: string | null;
  tags: string[];
  allowed_tools: string[];
  body_lines: number;
  errors: SkillIssue[];
  warnings: SkillIssue[];
}

/** An MCP tool definition as returned by `tools/list`. */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}
