/**
 * The text the search index holds for one skill, one string per weighted field.
 * Built the same way at write time (`putSkill`) and when the processing job adds the overview.
 */
export interface SearchDocument {
  name: string;
  tags: string;
  description: string;
  overview: string;
  body: string;
}

/** Bodies are indexed up to this many UTF-16 units; the rest of a huge document adds little to ranking. */
export const MAX_INDEXED_BODY_LENGTH = 100_000;

/**
 * Builds the indexed fields of a skill. The name is indexed as written plus its word parts
 * (`searchWeb` → `search web`; `-`/`_` already split in the tokenizer) and its compact form
 * (`search-web` → `searchweb`), so a query matches however the user spells the name.
 *
 * @param skill - name, tags, description, overview (null before the job ran) and Markdown body
 * @returns the five field texts
 * @example
 * ```ts
 * buildSearchDocument({ name: 'searchWeb', tags: ['web'], description: 'd', overview: null, body: '' }).name;
 * // 'searchWeb search Web searchweb'
 * ```
 */
export function buildSearchDocument(skill: {
  name: string;
  tags: readonly string[];
  description: string;
  overview: string | null;
  body: string;
}): SearchDocument {
  const parts = skill.name.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2').replace(/[-_.]+/g, ' ');
  const compact = skill.name.replace(/[^\p{L}\p{N}]+/gu, '').toLowerCase();
  const name = [...new Set([skill.name, parts, compact])].join(' ');
  return {
    name,
    tags: skill.tags.join(' , '),
    description: skill.description,
    overview: skill.overview ?? '',
    body:
      skill.body.length > MAX_INDEXED_BODY_LENGTH ? skill.body.slice(0, MAX_INDEXED_BODY_LENGTH) : skill.body,
  };
}
