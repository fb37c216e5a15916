import { clipCodePoints } from './clip-code-points.js';

/** The facts the L0 abstract is made of. */
export interface AbstractInput {
  name: string;
  description: string | null;
  tags: readonly string[];
  allowedTools: readonly string[];
}

/** The description is cut to this many code points in the abstract. */
export const ABSTRACT_DESCRIPTION_MAX = 1024;

/**
 * Whitespace runs as one space, trimmed. Text whose only whitespace is single spaces (most
 * descriptions) is only trimmed: the replace would rebuild it unchanged, at ~2.8 µs for a typical
 * description, and `find` renders the abstract of every hit it answers.
 */
function collapse(text: string): string {
  return (/[^\S ]| {2}/.test(text) ? text.replace(/\s+/g, ' ') : text).trim();
}

function sentence(text: string): string {
  return /[.!?…:]$/.test(text) ? text : `${text}.`;
}

/**
 * Renders the L0 `.abstract.md` of a skill: one Markdown paragraph with the name, the description
 * (whitespace collapsed, cut to {@link ABSTRACT_DESCRIPTION_MAX} code points), the tags and the allowed
 * tools (each part omitted when empty). Deterministic: same input, same bytes. `find` renders it again
 * from each hit's fields instead of reading the stored file, so a change here must come with a rewrite
 * of the stored abstracts.
 *
 * @param skill - name, description (null → omitted), tags, allowed tools
 * @returns the paragraph followed by one newline
 * @example
 * ```ts
 * renderAbstract({ name: 'search-web', description: 'Search the web', tags: ['web'], allowedTools: [] });
 * // '**search-web** — Search the web. Tags: web.\n'
 * ```
 * @see the skill model of the @skillport/core README (L0)
 */
export function renderAbstract(skill: AbstractInput): string {
  const parts = [`**${collapse(skill.name)}**`];
  const description = skill.description === null ? '' : collapse(skill.description);
  let text = parts[0]!;
  if (description !== '') text += ` — ${sentence(clipCodePoints(description, ABSTRACT_DESCRIPTION_MAX))}`;
  const tags = skill.tags.map(collapse).filter((t) => t !== '');
  const tools = skill.allowedTools.map(collapse).filter((t) => t !== '');
  if (tags.length > 0) text += ` Tags: ${tags.join(', ')}.`;
  if (tools.length > 0) text += ` Allowed tools: ${tools.join(', ')}.`;
  return `${text}\n`;
}
