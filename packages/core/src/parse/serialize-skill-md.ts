/**
 * Deterministic SKILL.md text from a skill: `serializeSkillMd` and the structured add form
 * `skillMdFromStructured`.
 */
import { Document, visit } from 'yaml';
import { SkillportError } from '../errors.js';
import { deepEqual } from '../internal/deep-equal.js';
import { describeType, isPlainRecord } from '../internal/text.js';
import type { StructuredSkill } from '../types.js';
import { ALLOWED_TOOLS_KEYS } from './list-fields.js';
import { type ParseDetail, parseSkillMdDetail } from './parse-skill-md.js';
import { splitAllowedTools, splitTags } from './split-lists.js';

/** What {@link serializeSkillMd} writes. */
export interface SerializableSkill {
  /** The skill name; when `null`, `frontmatter.name` is written if present, else no name. */
  name: string | null;
  /** The description; when `null` or absent, `frontmatter.description` is written if present. */
  description?: string | null;
  /** Markdown after the frontmatter (default `''`). */
  body?: string;
  /** Tags; written as a list when non-empty or when `frontmatter` has `tags`. */
  tags?: string[];
  /** Allowed tools; written under the key `frontmatter` already uses, else `allowed-tools`. */
  allowedTools?: string[];
  /** Every other frontmatter key, kept in its order (YAML values: strings, numbers, lists, maps…). */
  frontmatter?: Record<string, unknown>;
}

/** Plain strings that a YAML 1.1 reader (PyYAML, js-yaml 3) would not read as strings. */
const YAML11_NOT_STRING =
  /^(?:[yYnN]|yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|~|null|Null|NULL|[-+]?(?:0b[01_]+|0x[\da-fA-F_]+|0[0-7_]+|\d[\d_]*(?::[0-5]?\d)+(?:\.[\d_]*)?|[\d_]*\.[\d._]*(?:[eE][-+]?\d+)?|\d[\d_]*)|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|\d{4}-\d\d?-\d\d?(?:[Tt ].*)?)$/;

/** A line of only spaces or tabs inside a multi-line string. */
const BLANK_ONLY_LINE = /(?:^|\n)[ \t]+(?:\n|$)/;

/** Keys the serializer places itself, in this order. */
const LEADING_KEYS = new Set<string>(['name', 'description', 'tags', ...ALLOWED_TOOLS_KEYS]);

function sameList(value: unknown, list: string[], split: (value: string) => string[]): boolean {
  const read =
    typeof value === 'string'
      ? split(value)
      : Array.isArray(value)
        ? value.map((item) => (typeof item === 'string' ? item.trim() : String(item)))
        : null;
  return read !== null && read.length === list.length && read.every((item, i) => item === list[i]);
}

/**
 * Writes a skill as SKILL.md text, deterministically: the same input always gives the same bytes.
 *
 * Frontmatter key order: `name`, `description`, `tags`, the allowed tools, then every other key of
 * `frontmatter` in its order. Values are quoted only when needed — including strings a YAML 1.1
 * reader would take for booleans, numbers, nulls or dates (`"yes"`, `"1.0"`, `"2024-01-01"`) — and
 * never folded; multi-line strings become block scalars. A list field given both in `frontmatter`
 * and as `tags` / `allowedTools` keeps the frontmatter's form when both say the same. Line breaks
 * are LF; the body follows the closing fence after one blank line, unless it already starts with a
 * line break (so `parseSkillMd(serializeSkillMd(s)).skill.body` is `s.body` for bodies that start
 * with a line break, and `'\n' + s.body` otherwise).
 *
 * @param skill - the skill (a `ParsedSkill` works as is)
 * @returns the SKILL.md text, ending with the body as given
 * @throws TypeError when `skill` is not an object
 * @example
 * ```ts
 * serializeSkillMd({ name: 'pdf', description: 'Read PDFs: forms and tables', body: '# PDF\n' });
 * // '---\nname: pdf\ndescription: "Read PDFs: forms and tables"\n---\n\n# PDF\n'
 * ```
 * @see the skill model of the @skillport/core README (SKILL.md serialized deterministically for structured or MCP input)
 */
export function serializeSkillMd(skill: SerializableSkill): string {
  if (typeof skill !== 'object' || skill === null) {
    throw new TypeError(
      `serializeSkillMd: expected a skill object, got ${skill === null ? 'null' : typeof skill}`,
    );
  }
  const rest = skill.frontmatter ?? {};
  const out: Record<string, unknown> = {};
  if (typeof skill.name === 'string') out.name = skill.name;
  else if (rest.name !== undefined) out.name = rest.name;
  if (typeof skill.description === 'string') out.description = skill.description;
  else if (rest.description !== undefined) out.description = rest.description;

  if (skill.tags !== undefined) {
    if (Object.hasOwn(rest, 'tags') && sameList(rest.tags, skill.tags, splitTags)) out.tags = rest.tags;
    else if (skill.tags.length > 0 || Object.hasOwn(rest, 'tags')) out.tags = [...skill.tags];
  } else if (rest.tags !== undefined) {
    out.tags = rest.tags;
  }

  const toolsKey = ALLOWED_TOOLS_KEYS.find((key) => Object.hasOwn(rest, key));
  if (skill.allowedTools !== undefined) {
    const key = toolsKey ?? 'allowed-tools';
    if (toolsKey && sameList(rest[toolsKey], skill.allowedTools, splitAllowedTools))
      out[key] = rest[toolsKey];
    else if (skill.allowedTools.length > 0 || toolsKey) out[key] = [...skill.allowedTools];
  } else {
    for (const key of ALLOWED_TOOLS_KEYS) if (rest[key] !== undefined) out[key] = rest[key];
  }

  for (const [key, value] of Object.entries(rest)) {
    if (!LEADING_KEYS.has(key) && value !== undefined) out[key] = value;
  }

  const doc = new Document(out, { version: '1.2' });
  visit(doc, {
    Scalar(key, node) {
      const value = node.value;
      if (typeof value !== 'string') return;
      // A U+FEFF at the start of a line would be read as a byte order mark and dropped.
      if (value.includes('\uFEFF')) node.type = 'QUOTE_DOUBLE';
      // Quote values YAML 1.1 readers misread, and multi-line strings with a blank-only line,
      // which a block scalar cannot carry exactly (its spaces would read as indentation).
      else if (key !== 'key' && (YAML11_NOT_STRING.test(value) || BLANK_ONLY_LINE.test(value))) {
        node.type = 'QUOTE_DOUBLE';
      }
    },
  });
  const yaml = Object.keys(out).length === 0 ? '' : doc.toString({ lineWidth: 0, minContentWidth: 0 });
  const body = skill.body ?? '';
  const separator = body === '' || body.startsWith('\n') || body.startsWith('\r') ? '' : '\n';
  return `---\n${yaml}---\n${separator}${body}`;
}

/** What a structured skill becomes: the SKILL.md text and whether it is `content` byte for byte. */
export interface StructuredSkillMd {
  text: string;
  /** True when `content` was a full SKILL.md returned unchanged (positions in it are meaningful). */
  verbatim: boolean;
  /** The parse of `text` when one was made on the way (verbatim content), so callers need not parse again. */
  parsed?: ParseDetail;
}

/**
 * {@link skillMdFromStructured} plus whether the text is the caller's own `content`. Private.
 */
export function structuredToSkillMd(input: StructuredSkill): StructuredSkillMd {
  if (!isPlainRecord(input)) {
    throw new TypeError(
      `skillMdFromStructured: expected an object like {name, description, content}, got ${Array.isArray(input) ? 'an array' : input === null ? 'null' : typeof input}`,
    );
  }
  const { name, description, content, tags, allowed_tools, ...extra } = input;
  if (content !== undefined && content !== null && typeof content !== 'string') {
    throw new SkillportError(
      'INVALID_ARGUMENT',
      `"content" must be a string (the Markdown body, or a full SKILL.md), got ${describeType(content)}.`,
      { details: { field: 'content' } },
    );
  }
  const explicit: Record<string, unknown> = { ...extra };
  if (name !== undefined) explicit.name = name;
  if (description !== undefined) explicit.description = description;
  const tagList = typeof tags === 'string' ? splitTags(tags) : tags;
  const toolList = typeof allowed_tools === 'string' ? splitAllowedTools(allowed_tools) : allowed_tools;

  if (typeof content === 'string' && /^\uFEFF?---[ \t]*(?:\r\n?|\n|$)/.test(content)) {
    const parsed = parseSkillMdDetail(content);
    if (!parsed.readable) return { text: content, verbatim: true, parsed };
    const { skill } = parsed.result;
    const overrides = Object.entries(explicit).filter(
      ([key, value]) => !deepEqual(skill.frontmatter[key], value),
    );
    const tagsDiffer = tagList !== undefined && !sameList(tagList, skill.tags, splitTags);
    const toolsDiffer = toolList !== undefined && !sameList(toolList, skill.allowedTools, splitAllowedTools);
    if (overrides.length === 0 && !tagsDiffer && !toolsDiffer)
      return { text: content, verbatim: true, parsed };
    const frontmatter: Record<string, unknown> = { ...skill.frontmatter, ...Object.fromEntries(overrides) };
    // A list that is not a list is written as given, so the validator names it instead of losing it.
    if (tagsDiffer && !Array.isArray(tagList)) frontmatter.tags = tagList;
    if (toolsDiffer && !Array.isArray(toolList)) frontmatter['allowed-tools'] = toolList;
    return {
      text: serializeSkillMd({
        name: typeof frontmatter.name === 'string' ? frontmatter.name : null,
        body: skill.body,
        ...(tagsDiffer && Array.isArray(tagList) ? { tags: tagList as string[] } : {}),
        ...(toolsDiffer && Array.isArray(toolList) ? { allowedTools: toolList as string[] } : {}),
        frontmatter,
      }),
      verbatim: false,
    };
  }

  const frontmatter: Record<string, unknown> = { ...explicit };
  if (tagList !== undefined) frontmatter.tags = tagList;
  if (toolList !== undefined) frontmatter['allowed-tools'] = toolList;
  return {
    text: serializeSkillMd({
      name: typeof name === 'string' ? name : null,
      body: content ?? '',
      frontmatter,
    }),
    verbatim: false,
  };
}

/**
 * Builds SKILL.md text from the structured add form `{name, description?, content?, tags?,
 * allowed_tools?, …}`.
 *
 * `content` is the Markdown body, or a full SKILL.md when it starts with a `---` fence: then the
 * given fields override that document's frontmatter, and when they all agree with it the content is
 * returned byte for byte. `tags` / `allowed_tools` may be lists or strings (split like the
 * frontmatter forms); `allowed_tools` is written as `allowed-tools`. Every other key is kept as
 * frontmatter, in order. Values are written as given — this does not validate: run
 * {@link validateSkill} on the structured object (or on the result) for the verdict.
 *
 * @param input - the structured skill (a JSON object)
 * @returns deterministic SKILL.md text (see {@link serializeSkillMd})
 * @throws TypeError when `input` is not a plain object; SkillportError `INVALID_ARGUMENT`
 *   (`details.field = 'content'`) when `content` is neither a string nor absent
 * @example
 * ```ts
 * skillMdFromStructured({ name: 'search-web', description: 'Search the web', content: '# search-web\n' });
 * // '---\nname: search-web\ndescription: Search the web\n---\n\n# search-web\n'
 * ```
 * @see the OpenAPI document: `POST /api/v1/skills` (form 1, structured)
 */
export function skillMdFromStructured(input: StructuredSkill): string {
  return structuredToSkillMd(input).text;
}
