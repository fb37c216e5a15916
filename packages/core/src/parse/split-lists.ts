/**
 * Splitting of the string forms of the list fields: `allowed-tools: Bash(git add:*) Read, Write`
 * and `tags: pdf, reports`.
 *
 * @see the skill model of the @skillport/core README (frontmatter)
 */

/**
 * Splits an `allowed-tools` string into tool patterns: on whitespace and commas that are outside
 * parentheses, so a pattern's arguments (`Bash(git add:*)`, `Bash(npm run test, lint)`) stay whole.
 *
 * Edge cases: empty pieces are dropped (`'Read,,  Write'` → two tools); an unclosed `(` keeps the
 * rest of the string in that tool; a stray `)` is kept as a character.
 *
 * @param value - the string value of `allowed-tools` / `allowed_tools`
 * @returns the tool patterns in order, trimmed, without empty entries (possibly `[]`)
 * @example
 * ```ts
 * splitAllowedTools('Bash(git add:*) Read, Write'); // ['Bash(git add:*)', 'Read', 'Write']
 * ```
 * @see the skill model of the @skillport/core README (`allowed_tools`: split on whitespace and commas outside parentheses)
 */
export function splitAllowedTools(value: string): string[] {
  const tools: string[] = [];
  let depth = 0;
  let start = -1;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i] as string;
    if (ch === '(') depth++;
    else if (ch === ')' && depth > 0) depth--;
    const separator = depth === 0 && (ch === ',' || /\s/.test(ch));
    if (separator) {
      if (start !== -1) tools.push(value.slice(start, i));
      start = -1;
    } else if (start === -1) {
      start = i;
    }
  }
  if (start !== -1) tools.push(value.slice(start).trim());
  return tools.filter((tool) => tool.length > 0);
}

/**
 * Splits a `tags` string on commas.
 *
 * @param value - the string value of `tags`
 * @returns the tags in order, trimmed, without empty entries (possibly `[]`)
 * @example
 * ```ts
 * splitTags('pdf, reports ,'); // ['pdf', 'reports']
 * ```
 * @see the skill model of the @skillport/core README (tags: split on commas)
 */
export function splitTags(value: string): string[] {
  const tags: string[] = [];
  for (const piece of value.split(',')) {
    const tag = piece.trim();
    if (tag.length > 0) tags.push(tag);
  }
  return tags;
}
