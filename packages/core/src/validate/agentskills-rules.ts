/**
 * Profiles `agentskills` (the Agent Skills specification) and `claude` (the specification plus the
 * limits of Claude's skill upload: no XML tags in name or description, no reserved words in the
 * name, and Claude Code's own frontmatter keys).
 *
 * Requirements of the specification are errors; its recommendations are warnings (unknown keys
 * become errors in strict mode).
 *
 * @see the @skillport/core README (profiles)
 */
import { codePointLength, describeType, excerpt, isPlainRecord } from '../internal/text.js';
import {
  checkBodyLines,
  checkDescriptionLength,
  checkDirectory,
  NAME_MAX_LENGTH,
  requireString,
  suggestName,
} from './common-rules.js';
import type { RuleContext } from './rule-context.js';

/** Longest `compatibility`, in code points. */
export const COMPATIBILITY_MAX_LENGTH = 500;

/** Frontmatter keys the Agent Skills specification defines. */
const SPEC_KEYS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'];

/** Keys Claude Code reads in a SKILL.md besides the specification's. */
const CLAUDE_KEYS = [
  'argument-hint',
  'disable-model-invocation',
  'user-invocable',
  'model',
  'context',
  'agent',
  'hooks',
  'when_to_use',
  'version',
];

const SPEC_KEY_SET = new Set(SPEC_KEYS);
const CLAUDE_KEY_SET = new Set([...SPEC_KEYS, ...CLAUDE_KEYS]);

const LOWERCASE_NAME = /^[a-z0-9-]+$/;
/**
 * What the Agent Skills reference validator (`skills-ref`) accepts after NFKC normalisation: letters
 * and digits of any script (Python's `str.isalnum`: Unicode categories L and N) and `-`.
 */
const SPEC_NAME = /^[\p{L}\p{N}-]+$/u;
const XML_TAG = /<\/?[A-Za-z][\w.:-]*(?:\s[^<>]*)?\/?>/;
const RESERVED_WORDS = ['anthropic', 'claude'];

/** Runs the `agentskills` rules, and with `claude` the `claude` additions, on a readable frontmatter. */
export function checkAgentSkills(ctx: RuleContext, claude: boolean): void {
  const name = requireString(ctx, 'name');
  const description = requireString(ctx, 'description');
  if (name !== null) checkSpecName(ctx, name, claude);
  if (description !== null) {
    checkDescriptionLength(ctx, description, 'error');
    if (claude && XML_TAG.test(description)) {
      const tag = XML_TAG.exec(description)?.[0] ?? '';
      ctx.report(
        'description_xml_tag',
        'error',
        'description',
        `"description" contains the XML tag ${excerpt(tag)}; Claude refuses XML tags in the description.`,
      );
    }
  }
  checkCompatibility(ctx);
  checkMetadata(ctx);
  const license = ctx.skill.frontmatter.license;
  if (license !== undefined && license !== null && typeof license !== 'string') {
    ctx.report(
      'license_invalid',
      'error',
      'license',
      `"license" must be a string (a license name or file), got ${describeType(license)}.`,
    );
  }
  const known = claude ? CLAUDE_KEY_SET : SPEC_KEY_SET;
  for (const key of Object.keys(ctx.skill.frontmatter)) {
    if (known.has(key)) continue;
    // The parser already warns about "allowedTools" (rule allowed_tools_spelling).
    if (key === 'allowedTools') continue;
    if (key === 'allowed_tools') {
      ctx.report(
        'frontmatter_unknown_field',
        'strict-error',
        key,
        `"${key}" is read as the allowed tools here, but the specification spells it "allowed-tools"; other agents ignore "${key}".`,
        'allowed-tools',
      );
      continue;
    }
    ctx.report(
      'frontmatter_unknown_field',
      'strict-error',
      key,
      `"${key}" is not a frontmatter key of the ${claude ? 'Claude skill format' : 'Agent Skills specification'}; other agents ignore it. Put custom data under "metadata".`,
    );
  }
  checkBodyLines(ctx, 'warning');
}

function checkSpecName(ctx: RuleContext, name: string, claude: boolean): void {
  const raw = ctx.skill.frontmatter.name;
  if (typeof raw === 'string' && raw !== name) {
    ctx.report(
      'name_whitespace',
      'warning',
      'name',
      `"name" has blanks around it; it is used as ${excerpt(name)}.`,
      name,
    );
  }
  // The specification's reference validator checks the NFKC form (so full-width letters count as
  // their ASCII forms); the Claude upload accepts only ASCII lowercase letters, digits and "-".
  const normalized = name.normalize('NFKC');
  const length = codePointLength(normalized);
  if (length > NAME_MAX_LENGTH) {
    ctx.report(
      'name_max_length',
      'error',
      'name',
      `"name" is ${length} characters long; at most ${NAME_MAX_LENGTH} are allowed.`,
      suggestName(name),
    );
  }
  if (
    claude
      ? !LOWERCASE_NAME.test(name)
      : !SPEC_NAME.test(normalized) || normalized !== normalized.toLowerCase()
  ) {
    const upper = normalized !== normalized.toLowerCase() && SPEC_NAME.test(normalized);
    ctx.report(
      'name_allowed_characters',
      'error',
      'name',
      claude
        ? `"name" ${excerpt(name)} may contain only lowercase letters a–z, digits and "-" (e.g. "pdf-processing").`
        : upper
          ? `"name" ${excerpt(name)} must be lowercase (e.g. "pdf-processing").`
          : `"name" ${excerpt(name)} may contain only lowercase letters (of any script), digits and "-" (e.g. "pdf-processing", "技能-审查").`,
      suggestName(name),
    );
  }
  if (name.startsWith('-') || name.endsWith('-') || name.includes('--')) {
    ctx.report(
      'name_hyphens',
      'error',
      'name',
      `"name" ${excerpt(name)} must not start or end with "-" or contain "--".`,
      suggestName(name),
    );
  }
  checkDirectory(ctx, name, 'error');
  if (!claude) return;
  const tag = XML_TAG.exec(name)?.[0];
  if (tag !== undefined) {
    ctx.report(
      'name_xml_tag',
      'error',
      'name',
      `"name" contains the XML tag ${excerpt(tag)}; Claude refuses XML tags in the name.`,
    );
  }
  const lower = name.toLowerCase();
  const reserved = RESERVED_WORDS.find((word) => lower.includes(word));
  if (reserved !== undefined) {
    ctx.report(
      'name_reserved_word',
      'error',
      'name',
      `"name" ${excerpt(name)} contains the reserved word "${reserved}", which Claude refuses in skill names.`,
    );
  }
}

function checkCompatibility(ctx: RuleContext): void {
  const fm = ctx.skill.frontmatter;
  if (!Object.hasOwn(fm, 'compatibility')) return;
  const value = fm.compatibility;
  if (typeof value !== 'string' || value.trim() === '') {
    ctx.report(
      'compatibility_invalid',
      'error',
      'compatibility',
      `"compatibility" must be a non-empty string of at most ${COMPATIBILITY_MAX_LENGTH} characters, got ${typeof value === 'string' ? 'a blank string' : describeType(value)}.`,
    );
    return;
  }
  const length = codePointLength(value);
  if (length > COMPATIBILITY_MAX_LENGTH) {
    ctx.report(
      'compatibility_max_length',
      'error',
      'compatibility',
      `"compatibility" is ${length} characters long; at most ${COMPATIBILITY_MAX_LENGTH} are allowed.`,
    );
  }
}

function checkMetadata(ctx: RuleContext): void {
  const fm = ctx.skill.frontmatter;
  if (!Object.hasOwn(fm, 'metadata') || fm.metadata === null) return;
  const metadata = fm.metadata;
  if (!isPlainRecord(metadata)) {
    ctx.report(
      'metadata_invalid',
      'error',
      'metadata',
      `"metadata" must be a mapping of string keys to string values, got ${describeType(metadata)}.`,
    );
    return;
  }
  for (const [key, value] of Object.entries(metadata)) {
    if (typeof value === 'string') continue;
    const hint = typeof value === 'object' && value !== null ? '' : ` Quote it: ${key}: "${String(value)}"`;
    ctx.report(
      'metadata_invalid',
      'error',
      `metadata.${key}`,
      `"metadata.${key}" must be a string, got ${describeType(value)}.${hint}`,
    );
  }
}
