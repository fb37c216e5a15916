import type { ParsedSkill } from '@skillport/core';
import { clipCodePoints } from './clip-code-points.js';
import { type ListItem, type Section, scanSections } from './markdown-sections.js';

/** Default size bound of an overview, in UTF-8 bytes. */
export const OVERVIEW_MAX_BYTES = 4096;

/** Headings whose sections say when or how to use the skill. */
const USAGE_TITLE =
  /\b(when (to|should|not to)|use cases?|usage|how to use|getting started|quick ?start|triggers?|instructions|workflow)\b/i;
/** Headings whose sections list parameters. */
const PARAMETER_TITLE =
  /\b(param(eter)?s?|arguments?|args|inputs?|options|flags|environment|configuration|fields)\b/i;
/** A list item that documents one parameter: `**name** (type…)`, `` `name` — … ``, `name (type): …`. */
const PARAMETER_ITEM = /^(\*\*[^*]+\*\*|`[^`]+`)\s*(\(|:|—|–|-)|^[A-Za-z_][\w.-]*\s*\([^)]*\)\s*:/;

const SUMMARY_MAX = 600;
const USAGE_MAX = 1200;
const PARAMETERS_MAX = 1500;
const OUTLINE_MAX_HEADINGS = 40;

/** Joins lines until adding one more would pass `max` characters; says how many were left out. */
function budgetLines(lines: readonly string[], max: number): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const line of lines) {
    if (used + line.length + 1 > max) {
      kept.push(`- … (${lines.length - kept.length} more)`);
      break;
    }
    kept.push(line);
    used += line.length + 1;
  }
  return kept;
}

function bullet(item: ListItem, baseDepth = 0): string {
  return `${'  '.repeat(Math.max(0, item.depth - baseDepth))}- ${clipCodePoints(item.text, 300)}`;
}

/**
 * The paragraphs the overview shows: the body's first (the summary) and the first of each usage
 * section; no other paragraph's text needs to be assembled.
 */
function leadParagraph(section: Section, kept: number): boolean {
  return (
    section.paragraphs.length === 0 &&
    (kept === 0 || (section.title !== null && USAGE_TITLE.test(section.title)))
  );
}

function usageLines(sections: readonly Section[]): string[] {
  const lines: string[] = [];
  for (const section of sections) {
    if (section.title === null || !USAGE_TITLE.test(section.title)) continue;
    // A section titled just "When to use" needs no sub-title under the overview's own "## When to use".
    if (!/^when to use[\s:.]*$/i.test(section.title.trim()))
      lines.push(`**${clipCodePoints(section.title, 120)}**`);
    const first = section.paragraphs[0];
    if (first !== undefined) lines.push(clipCodePoints(first, 400));
    for (const item of section.items.filter((i) => i.depth <= 1).slice(0, 10)) lines.push(bullet(item));
  }
  return lines;
}

function parameterLines(sections: readonly Section[]): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const section of sections) {
    const titled = section.title !== null && PARAMETER_TITLE.test(section.title);
    for (const item of section.items) {
      if (!titled && !(item.depth === 0 && PARAMETER_ITEM.test(item.text))) continue;
      const line = bullet(item);
      if (seen.has(line)) continue;
      seen.add(line);
      lines.push(line);
    }
  }
  return lines;
}

function outlineLines(sections: readonly Section[]): string[] {
  const headed = sections.filter((s) => s.title !== null && s.title !== '' && s.level <= 3);
  // A loop, not `Math.min(...levels)`: a body may hold more headings than a call takes arguments.
  const top = headed.reduce((min, s) => Math.min(min, s.level), Number.POSITIVE_INFINITY);
  const lines = headed
    .slice(0, OUTLINE_MAX_HEADINGS)
    .map((s) => `${'  '.repeat(s.level - top)}- ${clipCodePoints(s.title ?? '', 120)}`);
  if (headed.length > OUTLINE_MAX_HEADINGS) lines.push(`- … (${headed.length - OUTLINE_MAX_HEADINGS} more)`);
  return lines;
}

function utf8Length(text: string): number {
  // As TextEncoder counts: a lone surrogate is written as U+FFFD (3 bytes).
  return Buffer.byteLength(text, 'utf8');
}

/**
 * Cuts text to at most `maxBytes` UTF-8 bytes at a line boundary, marking the cut with a `…` line
 * (a single overlong line is cut by code points). Text that fits is returned unchanged.
 *
 * @param text - Markdown
 * @param maxBytes - the bound in UTF-8 bytes (≥ 8)
 * @returns the text, cut when needed
 */
export function fitBytes(text: string, maxBytes: number): string {
  // A UTF-16 code unit takes at most 3 UTF-8 bytes (a surrogate pair 4 for 2 units, a lone one 3):
  // text this short fits without counting them.
  if (text.length * 3 <= maxBytes || utf8Length(text) <= maxBytes) return text;
  const lines = text.split('\n');
  while (lines.length > 1 && utf8Length(`${lines.join('\n')}\n…\n`) > maxBytes) lines.pop();
  const joined = `${lines.join('\n').trimEnd()}\n…\n`;
  if (utf8Length(joined) <= maxBytes) return joined;
  // A single huge line: cut by code points.
  const points = Array.from(joined);
  while (points.length > 0 && utf8Length(`${points.join('')}…\n`) > maxBytes) points.pop();
  return `${points.join('')}…\n`;
}

/**
 * Renders the L1 `.overview.md` of a skill with a deterministic extractor over its parsed body:
 *
 * - `# <name> — overview` and the description;
 * - **Summary**: the first paragraph of the body;
 * - **When to use**: sections whose heading reads like usage (`When to use`, `Usage`, `Instructions`,
 *   `Quick start`, `Workflow`, …): their first paragraph and top list items;
 * - **Parameters**: the list items of parameter-like sections (`Parameters`, `Arguments`, `Options`,
 *   `Inputs`, …) and top-level bullets anywhere that document one parameter (`**name** (type)`);
 * - **Outline**: the headings (levels ≤ 3), indented by level.
 *
 * Empty parts are left out. Fenced code is ignored. The result never exceeds `maxBytes` UTF-8 bytes
 * (cut at a line boundary, marked `…`). Same input, same bytes.
 *
 * @param skill - the parsed skill (`name`, `description`, `body` are used)
 * @param options - `maxBytes`: size bound in UTF-8 bytes (default {@link OVERVIEW_MAX_BYTES}, minimum 64)
 * @returns Markdown ending in a newline
 * @example
 * ```ts
 * renderOverview(parseSkillMd(text).skill);
 * ```
 * @see the skill model of the @skillport/core README (L1)
 */
export function renderOverview(
  skill: Pick<ParsedSkill, 'name' | 'description' | 'body'>,
  options: { maxBytes?: number } = {},
): string {
  const maxBytes = Math.max(64, Math.floor(options.maxBytes ?? OVERVIEW_MAX_BYTES));
  const sections = scanSections(skill.body, { keepParagraph: leadParagraph });
  const out: string[] = [`# ${(skill.name ?? 'skill').trim()} — overview`];
  const description = skill.description?.replace(/\s+/g, ' ').trim() ?? '';
  if (description !== '') out.push('', clipCodePoints(description, 1024));

  const summary = sections.find((s) => s.paragraphs.length > 0)?.paragraphs[0];
  if (summary !== undefined && summary !== description)
    out.push('', '## Summary', '', clipCodePoints(summary, SUMMARY_MAX));

  const usage = usageLines(sections);
  if (usage.length > 0) out.push('', '## When to use', '', ...budgetLines(usage, USAGE_MAX));

  const parameters = parameterLines(sections);
  if (parameters.length > 0) out.push('', '## Parameters', '', ...budgetLines(parameters, PARAMETERS_MAX));

  const outline = outlineLines(sections);
  if (outline.length > 0) out.push('', '## Outline', '', ...outline);

  return fitBytes(`${out.join('\n')}\n`, maxBytes);
}
