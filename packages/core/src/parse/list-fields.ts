/**
 * Reads the list fields of the frontmatter — `tags` and the allowed tools (`allowed-tools`,
 * `allowed_tools`, camelCase `allowedTools`) — from a list or a string. A value that cannot be read
 * is an error naming the field, never dropped: losing a tool restriction would widen what a skill
 * may do.
 */

import { describeType, excerpt, type TextPosition } from '../internal/text.js';
import type { SkillIssue } from '../types.js';
import { splitAllowedTools, splitTags } from './split-lists.js';

/** Spellings of the allowed-tools key, in order of preference. */
export const ALLOWED_TOOLS_KEYS = ['allowed-tools', 'allowed_tools', 'allowedTools'] as const;

/** The list fields of a skill and the problems met reading them. */
export interface ListFields {
  tags: string[];
  allowedTools: string[];
  issues: SkillIssue[];
}

type Locate = (key: string) => TextPosition | undefined;

/**
 * Reads `tags` and the allowed tools from the frontmatter mapping.
 *
 * @param data - the frontmatter mapping
 * @param locate - position of a top-level key's value, for the issues
 */
export function readListFields(data: Record<string, unknown>, locate: Locate): ListFields {
  const issues: SkillIssue[] = [];
  const tags = readList(data, 'tags', splitTags, 'tags_invalid', locate, issues) ?? [];

  let allowedTools: string[] = [];
  const found: Array<{ key: string; tools: string[] }> = [];
  for (const key of ALLOWED_TOOLS_KEYS) {
    const tools = readList(data, key, splitAllowedTools, 'allowed_tools_invalid', locate, issues);
    if (tools !== null) found.push({ key, tools });
  }
  if (found.some((f) => f.key === 'allowedTools')) {
    issues.push({
      rule: 'allowed_tools_spelling',
      severity: 'warning',
      message:
        'The key "allowedTools" is read as the allowed tools; the standard spelling is "allowed-tools", ' +
        'which other agents understand.',
      field: 'allowedTools',
      ...locate('allowedTools'),
      fix: 'allowed-tools',
    });
  }
  if (found.length > 0) {
    const first = found[0]?.tools ?? [];
    allowedTools = first;
    for (const other of found.slice(1)) {
      const same = other.tools.join('\n') === first.join('\n');
      if (!same) allowedTools = [...new Set([...allowedTools, ...other.tools])];
      issues.push({
        rule: 'allowed_tools_conflict',
        severity: same ? 'warning' : 'error',
        message: same
          ? `"${found[0]?.key}" and "${other.key}" both list the allowed tools; keep only "allowed-tools".`
          : `"${found[0]?.key}" and "${other.key}" list different allowed tools; keep only "allowed-tools" so it is clear which tools the skill may use.`,
        field: other.key,
        ...locate(other.key),
      });
    }
  }
  return { tags, allowedTools, issues };
}

/**
 * One list field: a list of scalars, a string split by `split`, or absent/null (`null` returned
 * when absent). Anything else is an error issue and contributes nothing.
 */
function readList(
  data: Record<string, unknown>,
  key: string,
  split: (value: string) => string[],
  rule: string,
  locate: Locate,
  issues: SkillIssue[],
): string[] | null {
  if (!Object.hasOwn(data, key)) return null;
  const value = data[key];
  if (value === null || value === undefined) return [];
  if (typeof value === 'string') return split(value);
  const error = (message: string): void => {
    issues.push({ rule, severity: 'error', message, field: key, ...locate(key) });
  };
  if (!Array.isArray(value)) {
    error(
      `"${key}" cannot be read: expected a list of strings or a string, got ${describeType(value)}` +
        `${typeof value === 'object' ? '' : ` (${excerpt(String(value))})`}. Example: ${key}: [first, second]`,
    );
    return [];
  }
  const items: string[] = [];
  value.forEach((item: unknown, index) => {
    if (typeof item === 'string') {
      const trimmed = item.trim();
      if (trimmed.length > 0) items.push(trimmed);
    } else if (typeof item === 'number' || typeof item === 'boolean' || typeof item === 'bigint') {
      items.push(String(item));
    } else {
      error(`"${key}" item ${index + 1} cannot be read: expected a string, got ${describeType(item)}.`);
    }
  });
  return items;
}
