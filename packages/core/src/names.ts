/**
 * Skill names: the add-time name rule, kebab-case names for converted tools and the `[a-z0-9_]`
 * slugs agent loops need for tool names.
 *
 * @see the OpenAPI document: `POST /api/v1/skills` (name rule), the MCP ⇄ skill section of the @skillport/core README (kebab-case names)
 */
import { SkillportError } from './errors.js';
import { codePointLength, quoteVisibly, showCharacter, trimNameBlanks } from './internal/text.js';
import type { NamePolicy } from './types.js';

/** Longest accepted skill name, in characters. @see the OpenAPI document: `POST /api/v1/skills` */
export const SKILL_NAME_MAX_LENGTH = 64;

/**
 * The add-time name rule: 1–64 characters of `[A-Za-z0-9_-]` (after trimming ASCII blanks).
 * @see the OpenAPI document: `POST /api/v1/skills`
 */
export const SKILL_NAME_PATTERN: RegExp = /^[A-Za-z0-9_-]{1,64}$/;

/** How much of an offending input an error message shows. */
const SHOWN_INPUT_MAX = 80;

/**
 * Converts an identifier or phrase to lowercase kebab-case, ASCII only.
 *
 * Word boundaries are case changes (`searchWeb`, `SearchWeb`), acronym ends (`HTTPServer` →
 * `http-server`, `sampleLLM` → `sample-llm`) and any run of characters other than ASCII letters and
 * digits (`search_web`, `Search Web`, `search.web`, `ispn.customer.lookup` → `ispn-customer-lookup`).
 * Accents are stripped (`Café` → `cafe`); digits stay attached to the word before them
 * (`oauth2Token` → `oauth2-token`). Repeated separators collapse and leading/trailing hyphens are
 * trimmed.
 *
 * Edge case: input with no ASCII letters or digits (`''`, `'---'`, `'検索'`) gives `''`; callers that
 * need a name must check for it.
 *
 * @param value - any string
 * @returns the kebab-case form, possibly `''`
 * @example
 * ```ts
 * toKebabCase('search_web'); // 'search-web'
 * toKebabCase('HTTPServer'); // 'http-server'
 * ```
 * @see the MCP ⇄ skill section of the @skillport/core README
 */
export function toKebabCase(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();
}

/**
 * The kebab-case spelling of a skill name that breaks the add-time name rule: lower case, accents
 * stripped, every run of other characters than ASCII letters and digits (spaces, `_`, `.`, `&`, …)
 * one `-`, no leading or trailing `-`, at most {@link SKILL_NAME_MAX_LENGTH} characters. Unlike
 * {@link toKebabCase} it keeps words as written (`ElevenLabs` → `elevenlabs`, not `eleven-labs`), so
 * the stored name reads like the original. The refusal of such a name suggests it, and a server run
 * with the `slug` name policy stores the skill under it.
 *
 * Edge case: input with no ASCII letters or digits (`'検索'`) gives `''`.
 *
 * @param name - a skill name as written in the frontmatter or a path
 * @returns the slug, possibly `''`
 * @example
 * ```ts
 * toSkillSlug('ElevenLabs Automation'); // 'elevenlabs-automation'
 * toSkillSlug('  Café & Bar_Tools '); // 'cafe-bar-tools'
 * ```
 */
export function toSkillSlug(name: string): string {
  // Only as much of the name as the slug's 64 characters need is read, a piece at a time: a name of
  // 3 million characters (an MCP prompt name) cost 0.06–0.7 s to slug whole. Pieces are cut before a
  // character below U+0300 (a starter that decomposes to a starter), where normalization, the
  // stripping of marks and lower-casing cannot cross, so the pieces give the slug of the whole name.
  let slug = '';
  let start = 0;
  while (start < name.length && slug.length <= SKILL_NAME_MAX_LENGTH) {
    const end = nextSlugCut(name, start + SLUG_PIECE_LENGTH);
    let piece = slugPiece(name.slice(start, end));
    // A run of other characters across the cut is one '-', and none leads the slug.
    if ((slug === '' || slug.endsWith('-')) && piece.startsWith('-')) piece = piece.slice(1);
    slug += piece;
    start = end;
  }
  return slug.slice(0, SKILL_NAME_MAX_LENGTH).replace(/-+$/, '');
}

/** Characters of a name slugged at a time by {@link toSkillSlug} (then up to the next cut). */
const SLUG_PIECE_LENGTH = 256;

/** The slug of a piece of a name: runs of other characters than `[a-z0-9]` become one '-'. */
function slugPiece(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
}

/** The first index from `from` on where {@link toSkillSlug} may cut a name (its length when none). */
function nextSlugCut(text: string, from: number): number {
  for (let i = from; i < text.length; i++) if (text.charCodeAt(i) < 0x300) return i;
  return text.length;
}

/**
 * Converts a skill name to a tool slug of `[a-z0-9_]`, as the tool-calling APIs of agent loops
 * require: the {@link toKebabCase} words joined by `_`, with no leading or trailing `_`.
 *
 * Edge case: input with no ASCII letters or digits gives `''`.
 *
 * @param value - any string, usually a skill name
 * @returns the slug, possibly `''`
 * @example
 * ```ts
 * toToolSlug('search-web'); // 'search_web'
 * toToolSlug('GitHub PR Review'); // 'git_hub_pr_review'
 * ```
 * @see the @skillport/core README (Toolbox)
 */
export function toToolSlug(value: string): string {
  return toKebabCase(value).replace(/-/g, '_');
}

/**
 * Whether `name` satisfies the add-time name rule as given (no trimming): 1–64 characters of
 * `[A-Za-z0-9_-]`.
 *
 * @param name - any value
 * @returns true for a valid skill name
 * @example
 * ```ts
 * isValidSkillName('search-web'); // true
 * isValidSkillName('search web'); // false
 * ```
 * @see the OpenAPI document: `POST /api/v1/skills`
 */
export function isValidSkillName(name: unknown): name is string {
  return typeof name === 'string' && SKILL_NAME_PATTERN.test(name);
}

/**
 * Applies the add-time name rule: trims `raw` and checks it is 1–64 characters of `[A-Za-z0-9_-]`.
 *
 * Only ASCII blanks are trimmed (spaces, tabs, line breaks). A no-break space, byte order mark, line
 * separator or any other invisible character around the name is part of it, as it is of the
 * SKILL.md an agent reads, so such a name is refused (the message names the character by its code
 * point, e.g. `U+00A0`) rather than stored under a name the SKILL.md does not hold.
 *
 * @param raw - the name as received (frontmatter value, structured `name`, `{name}` path segment)
 * @returns the trimmed name
 * @throws SkillportError `INVALID_ARGUMENT` (400) with `details: {field: 'name', value, reason}`
 *   when the trimmed name is empty, too long or has other characters; the message says what was
 *   expected, with an example, and shows the input truncated to 80 characters. When the name has a
 *   valid kebab-case spelling ({@link toSkillSlug}) the message names it and `details.fix` holds it.
 * @example
 * ```ts
 * normalizeSkillName('  search-web '); // 'search-web'
 * normalizeSkillName('search web');   // throws INVALID_ARGUMENT
 * ```
 * @see the OpenAPI document: `POST /api/v1/skills` (name rule)
 */
export function normalizeSkillName(raw: string): string {
  if (typeof raw !== 'string') {
    throw nameError(raw, `must be a string, got ${raw === null ? 'null' : typeof raw}`);
  }
  const name = trimNameBlanks(raw);
  if (SKILL_NAME_PATTERN.test(name)) return name;
  const length = codePointLength(name);
  if (length === 0) throw nameError(raw, 'is empty');
  const slug = toSkillSlug(name);
  const fix = SKILL_NAME_PATTERN.test(slug) ? slug : undefined;
  if (length > SKILL_NAME_MAX_LENGTH) {
    throw nameError(raw, `is ${length} characters long (at most ${SKILL_NAME_MAX_LENGTH})`, fix);
  }
  const bad = [...new Set([...name].filter((c) => !/[A-Za-z0-9_-]/.test(c)))];
  return throwBadCharacters(raw, bad, fix);
}

/**
 * The name a skill is stored under on a server with name policy `policy`: what add and update make
 * of a skill's `name` (the frontmatter's, a structured add's, or a `{name}` path segment's).
 *
 * - A name that keeps the name rule once its ASCII blanks are trimmed ({@link SKILL_NAME_PATTERN})
 *   is stored trimmed, under either policy. Other characters around it (a no-break space, a byte
 *   order mark) are not blanks: they break the rule.
 * - Otherwise, under `slug`, its {@link toSkillSlug} spelling when that keeps the rule
 *   (`ElevenLabs Automation` → `elevenlabs-automation`).
 * - Otherwise `null`: add refuses the name ({@link normalizeSkillName} throws the refusal, naming
 *   the kebab-case fix when there is one).
 *
 * @param name - the name as written (ASCII blanks around it are ignored)
 * @param policy - the server's name policy (`name_policy` of `GET /api/v1/system/limits`,
 *   `SKILLPORT_NAME_POLICY`); default `strict`, the server default
 * @returns the stored name (1–64 characters of `[A-Za-z0-9_-]`), or `null` when add refuses it
 * @throws SkillportError `INVALID_ARGUMENT` when `name` is not a string or `policy` is neither
 *   `strict` nor `slug`
 * @example
 * ```ts
 * storedSkillName(' search-web ');                  // 'search-web'
 * storedSkillName('ElevenLabs Automation');         // null (strict refuses it)
 * storedSkillName('ElevenLabs Automation', 'slug'); // 'elevenlabs-automation'
 * ```
 * @see the OpenAPI document: `POST /api/v1/skills` (name rule), `GET /api/v1/system/limits` (`name_policy`)
 */
export function storedSkillName(name: string, policy: NamePolicy = 'strict'): string | null {
  if (typeof name !== 'string') {
    throw new SkillportError('INVALID_ARGUMENT', `A skill name must be a string, got ${describe(name)}.`, {
      details: { field: 'name', reason: 'not a string' },
    });
  }
  if (policy !== 'strict' && policy !== 'slug') {
    throw new SkillportError(
      'INVALID_ARGUMENT',
      `Unknown name policy ${JSON.stringify(policy) ?? String(policy)}: expected "strict" or "slug".`,
      { details: { field: 'namePolicy', value: String(policy) } },
    );
  }
  const trimmed = trimNameBlanks(name);
  if (SKILL_NAME_PATTERN.test(trimmed)) return trimmed;
  if (policy !== 'slug') return null;
  const slug = toSkillSlug(trimmed);
  return SKILL_NAME_PATTERN.test(slug) ? slug : null;
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

function throwBadCharacters(raw: string, bad: string[], fix: string | undefined): never {
  const shown = bad.slice(0, 5).map(showCharacter).join(', ');
  throw nameError(raw, `contains ${bad.length === 1 ? 'character' : 'characters'} ${shown}`, fix);
}

function nameError(raw: unknown, reason: string, fix?: string): SkillportError {
  const value = typeof raw === 'string' ? truncate(raw) : raw;
  const suggestion = fix === undefined ? '' : ` Use the kebab-case name ${JSON.stringify(fix)} instead.`;
  return new SkillportError(
    'INVALID_ARGUMENT',
    `Invalid skill name ${typeof value === 'string' ? quoteVisibly(value) : (JSON.stringify(value) ?? String(value))}: ${reason}. ` +
      `Expected 1-${SKILL_NAME_MAX_LENGTH} characters of letters, digits, '_' or '-' (e.g. "search-web").` +
      suggestion,
    { details: { field: 'name', value, reason, ...(fix === undefined ? {} : { fix }) } },
  );
}

function truncate(text: string): string {
  // Only the characters shown are read (the string iterator is lazy): the input may be megabytes long.
  const head: string[] = [];
  for (const char of text) {
    if (head.length === SHOWN_INPUT_MAX) return `${head.slice(0, SHOWN_INPUT_MAX - 1).join('')}…`;
    head.push(char);
  }
  return text;
}
