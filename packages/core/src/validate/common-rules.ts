/**
 * Checks every profile shares: required string fields, the add-time name rule, lengths in code
 * points, the folder name and the best-practice hints.
 */

import {
  codePointLength,
  describeType,
  excerpt,
  showCharacter,
  sliceCodePoints,
  trimNameBlanks,
} from '../internal/text.js';
import { storedSkillName, toKebabCase } from '../names.js';
import type { RuleContext, RuleLevel } from './rule-context.js';

/** Longest name, in code points. */
export const NAME_MAX_LENGTH = 64;
/** Longest description, in code points. */
export const DESCRIPTION_MAX_LENGTH = 1024;
/** A description shorter than this (code points) rarely tells an agent when to use the skill. */
export const DESCRIPTION_MIN_USEFUL_LENGTH = 20;
/** Body lines beyond which a skill should move detail into auxiliary files. */
export const BODY_MAX_LINES = 500;

const ADD_NAME_CHARACTERS = /^[A-Za-z0-9_-]+$/;
const KEBAB_CASE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Checks that `key` (`name` or `description`) is present, a string and not blank.
 *
 * @returns the trimmed value (a name: ASCII blanks only), or `null` after reporting `<key>_required` (or `description_nul` for a
 *   description holding a NUL character)
 */
export function requireString(ctx: RuleContext, key: 'name' | 'description'): string | null {
  const fm = ctx.skill.frontmatter;
  const rule = `${key}_required`;
  const example = key === 'name' ? 'name: my-skill' : 'description: What the skill does and when to use it';
  if (!Object.hasOwn(fm, key) || fm[key] === null || fm[key] === undefined) {
    // Located at the frontmatter's opening `---`: the key belongs in the block it starts.
    ctx.report(
      rule,
      'error',
      key,
      `"${key}" is required in the frontmatter (e.g. ${example}).`,
      undefined,
      ctx.frontmatterAt,
    );
    return null;
  }
  const value = fm[key];
  if (typeof value !== 'string') {
    const shown = typeof value === 'object' ? '' : ` (${excerpt(String(value))})`;
    ctx.report(
      rule,
      'error',
      key,
      `"${key}" must be a string, got ${describeType(value)}${shown}. Quote it: ${example}`,
    );
    return null;
  }
  // A name loses only ASCII blanks, as add trims it (`trimNameBlanks`): an invisible character
  // around it stays, for the name rule to report.
  const trimmed = key === 'name' ? trimNameBlanks(value) : value.trim();
  if (trimmed === '') {
    ctx.report(rule, 'error', key, `"${key}" is blank (e.g. ${example}).`);
    return null;
  }
  if (key === 'description' && value.includes('\u0000')) {
    // Only an escape can put one there (SKILL.md text with a NUL byte is refused before): no
    // registry column can hold it (PostgreSQL text cannot), and no agent reads it.
    ctx.report(
      'description_nul',
      'error',
      key,
      '"description" contains a NUL character (U+0000, e.g. written "\\0" in a quoted YAML string); remove it.',
    );
    return null;
  }
  return trimmed;
}

/** A kebab-case suggestion for `name`, at most 64 code points, or `undefined` when none exists. */
export function suggestName(name: string): string | undefined {
  const kebab = toKebabCase(name);
  const cut = sliceCodePoints(kebab, NAME_MAX_LENGTH).replace(/-+$/, '');
  return cut === '' || cut === name ? undefined : cut;
}

/**
 * What add does with a name that breaks the rule, as the end of a message, and the level:
 * the verdict of a server with the context's name policy, or of both policies when it is unknown.
 */
function addNameVerdict(
  ctx: RuleContext,
  name: string,
  level: RuleLevel,
): { said: string; level: RuleLevel; fix: string | undefined } {
  // The name breaks the rule: what a server with name policy `slug` stores it as (null: refused there too).
  const slug = storedSkillName(name, 'slug');
  // The fix add's refusal names (`normalizeSkillName`): the slug, when it is a valid name.
  const fix = slug ?? suggestName(name);
  switch (ctx.namePolicy) {
    case 'strict':
      return { said: 'Add refuses this name (name policy strict).', level: 'error', fix };
    case 'slug':
      return slug !== null
        ? { said: `Add stores the skill as "${slug}" (name policy slug).`, level, fix: slug }
        : {
            said: 'Add refuses this name: it has no usable slug (name policy slug).',
            level: 'error',
            fix: undefined,
          };
    default:
      return {
        said:
          slug !== null
            ? 'Add refuses this name on a server with the default name policy (strict); a server with ' +
              `SKILLPORT_NAME_POLICY=slug stores the skill as "${slug}".`
            : 'Add refuses this name under either name policy.',
        level,
        fix,
      };
  }
}

/**
 * The add-time name rule (trimmed, 1–64 of `[A-Za-z0-9_-]`), as `level` issues whose message says
 * what add does under the context's name policy (see `ValidateSkillOptions.namePolicy`), plus
 * surrounding blanks (always a warning: add trims them).
 */
export function checkAddNameRule(ctx: RuleContext, name: string, level: RuleLevel): void {
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
  const length = codePointLength(name);
  const tooLong = length > NAME_MAX_LENGTH;
  const badCharacters = !ADD_NAME_CHARACTERS.test(name);
  if (!tooLong && !badCharacters) return;
  const verdict = addNameVerdict(ctx, name, level);
  if (tooLong) {
    ctx.report(
      'name_max_length',
      verdict.level,
      'name',
      `"name" is ${length} characters long; at most ${NAME_MAX_LENGTH} are allowed (${excerpt(name)}). ${verdict.said}`,
      verdict.fix,
    );
  }
  if (badCharacters) {
    const bad = [...new Set([...name].filter((c) => !/[A-Za-z0-9_-]/.test(c)))].slice(0, 5);
    ctx.report(
      'name_allowed_characters',
      verdict.level,
      'name',
      `"name" ${excerpt(name)} contains ${bad.map(showCharacter).join(', ')}; ` +
        `only letters, digits, "_" and "-" are allowed (e.g. "search-web"). ${verdict.said}`,
      verdict.fix,
    );
  }
}

/**
 * Device names Windows reserves in every folder (case-insensitive). Windows reserves them with an
 * extension too (`nul.txt`), but a stored name holds no `.`: such a name breaks the add rule instead.
 */
const WINDOWS_RESERVED = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/**
 * Names a skill may have on the wire but that break where it goes next: `name_leading_hyphen` (a
 * leading `-` reads as an option on a command line: `skillport install -x`) and
 * `name_reserved_filename` (`con`, `nul`, `com1`… cannot be a folder on Windows, where `install`
 * writes the skill folder), as `level` issues. They judge the name a server stores (see
 * `storedSkillName` under the context's policy, `strict` when unknown): a name add refuses has no
 * folder anywhere.
 */
export function checkPortableName(ctx: RuleContext, name: string, level: RuleLevel): void {
  const stored = storedSkillName(name, ctx.namePolicy === 'slug' ? 'slug' : 'strict');
  if (stored === null) return;
  const shown = stored === name ? excerpt(name) : `${excerpt(name)}, stored as ${excerpt(stored)},`;
  if (stored.startsWith('-')) {
    ctx.report(
      'name_leading_hyphen',
      level,
      'name',
      `"name" ${shown} starts with "-": command lines read it as an option (it must be typed ` +
        `after "--", as in \`skillport install -- ${stored}\`). Rename it without the leading "-".`,
      suggestName(name),
    );
  }
  if (WINDOWS_RESERVED.test(stored)) {
    ctx.report(
      'name_reserved_filename',
      level,
      'name',
      `"name" ${shown} is a device name Windows reserves: a folder of that name cannot be ` +
        'created there, so the skill cannot be installed on Windows. Choose another name.',
    );
  }
}

/**
 * `name_matches_directory` when a folder name is known. The fix is the folder name only when a server
 * takes it as a name: a folder such as `pdf tools` or `café` is renamed instead (setting `name` to it
 * would make add refuse the skill).
 */
export function checkDirectory(ctx: RuleContext, name: string, level: RuleLevel): void {
  const dir = ctx.dirName;
  if (dir === undefined || dir === '' || dir === name) return;
  const differs = `"name" ${excerpt(name)} differs from the skill's folder name ${excerpt(dir)}; they must be the same.`;
  if (storedSkillName(dir, 'strict') === dir) {
    ctx.report('name_matches_directory', level, 'name', differs, dir);
    return;
  }
  ctx.report(
    'name_matches_directory',
    level,
    'name',
    `${differs} The folder name is not a valid skill name (letters, digits, "_" and "-"; add refuses ` +
      'it as a name): rename the folder to the name instead.',
  );
}

/** `name_kebab_case` best-practice warning. */
export function checkKebabCase(ctx: RuleContext, name: string): void {
  if (KEBAB_CASE.test(name)) return;
  ctx.report(
    'name_kebab_case',
    'warning',
    'name',
    `"name" ${excerpt(name)} is not lowercase kebab-case (e.g. "search-web"), which agents and folders handle best.`,
    suggestName(name),
  );
}

/** `description_max_length` (level given) and `description_too_short` (warning). */
export function checkDescriptionLength(ctx: RuleContext, description: string, level: RuleLevel): void {
  const length = codePointLength(description);
  if (length > DESCRIPTION_MAX_LENGTH) {
    ctx.report(
      'description_max_length',
      level,
      'description',
      `"description" is ${length} characters long; at most ${DESCRIPTION_MAX_LENGTH} are allowed. Move detail into the body.`,
    );
  } else if (length < DESCRIPTION_MIN_USEFUL_LENGTH) {
    ctx.report(
      'description_too_short',
      'warning',
      'description',
      `"description" is ${length} character${length === 1 ? '' : 's'} long; say what the skill does and when to use it (at least ${DESCRIPTION_MIN_USEFUL_LENGTH} characters).`,
    );
  }
}

/** `body_max_lines` warning. */
export function checkBodyLines(ctx: RuleContext, level: RuleLevel): void {
  if (ctx.bodyLines <= BODY_MAX_LINES) return;
  ctx.report(
    'body_max_lines',
    level,
    'body',
    `The body has ${ctx.bodyLines} lines; keep it under ${BODY_MAX_LINES} and move detail into auxiliary files.`,
  );
}
