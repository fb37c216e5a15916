/**
 * Tool names for skills: `toToolSlug(name)`, at most 64 characters (the limit of OpenAI function
 * names), `skill` when the name has no ASCII letter or digit, `skill_` in front of a slug that
 * starts with a digit (Gemini and Vertex AI function names must start with a letter or `_`, and
 * Bedrock's tool choice with a letter), and `_2`, `_3`, … for collisions — deterministic for a
 * given input order, and never colliding with another skill's plain slug.
 */
import { toToolSlug } from '../../names.js';
import { pairSafeEnd } from './cut-text.js';

/** Longest tool name accepted by the function-calling APIs. */
export const TOOL_NAME_MAX_LENGTH = 64;

/** Put in front of a slug that starts with a digit, so that every tool name starts with a letter. */
const DIGIT_PREFIX = 'skill_';

/** A non-fatal remark about a tool name. */
export interface ToolNameWarning {
  kind: 'tool_name_collision' | 'tool_name_fallback' | 'tool_name_prefixed' | 'tool_name_truncated';
  message: string;
  /** The skill concerned. */
  skill: string;
  /** The tool name it got. */
  tool: string;
}

/** Longest skill name quoted whole in a message; a longer one is cut with `…`. */
const SHOWN_NAME_MAX_LENGTH = 80;

/**
 * A skill name as messages quote it: at most 80 characters, so a huge name keeps them short, never cut
 * between the two halves of a surrogate pair (a lone half is no character: the message goes back to
 * the model in a JSON request body).
 */
export function shownName(name: string): string {
  if (name.length <= SHOWN_NAME_MAX_LENGTH) return name;
  return `${name.slice(0, pairSafeEnd(name, SHOWN_NAME_MAX_LENGTH))}…`;
}

function withSuffix(slug: string, n: number): string {
  const suffix = `_${n}`;
  return `${slug.slice(0, TOOL_NAME_MAX_LENGTH - suffix.length)}${suffix}`;
}

/** Assigns one tool name per skill name, in order. */
export function assignToolNames(skillNames: readonly string[]): {
  names: string[];
  warnings: ToolNameWarning[];
} {
  const warnings: ToolNameWarning[] = [];
  const bases = skillNames.map((skill) => {
    let slug = toToolSlug(skill);
    if (slug === '') {
      slug = 'skill';
      warnings.push({
        kind: 'tool_name_fallback',
        message: `skill "${shownName(skill)}" has no ASCII letter or digit to build a tool name from; named "${slug}"`,
        skill,
        tool: slug,
      });
    }
    const prefixed = slug.charCodeAt(0) >= 0x30 && slug.charCodeAt(0) <= 0x39;
    if (prefixed) slug = `${DIGIT_PREFIX}${slug}`;
    if (slug.length > TOOL_NAME_MAX_LENGTH) {
      slug = slug.slice(0, TOOL_NAME_MAX_LENGTH).replace(/_+$/, '');
      warnings.push({
        kind: 'tool_name_truncated',
        message: `tool name of skill "${shownName(skill)}" cut to ${TOOL_NAME_MAX_LENGTH} characters: "${slug}"`,
        skill,
        tool: slug,
      });
    }
    if (prefixed) {
      warnings.push({
        kind: 'tool_name_prefixed',
        message: `tool name of skill "${shownName(skill)}" starts with "${DIGIT_PREFIX}": "${slug}" (Gemini and Vertex AI refuse a function name that starts with a digit)`,
        skill,
        tool: slug,
      });
    }
    return slug;
  });

  const taken = new Set<string>();
  const firstOwner = new Map<string, number>();
  bases.forEach((base, index) => {
    if (!firstOwner.has(base)) {
      firstOwner.set(base, index);
      taken.add(base);
    }
  });
  const names = bases.map((base, index) => {
    if (firstOwner.get(base) === index) return base;
    let n = 2;
    while (taken.has(withSuffix(base, n))) n++;
    const name = withSuffix(base, n);
    taken.add(name);
    const skill = skillNames[index] ?? '';
    const ownerIndex = firstOwner.get(base) ?? 0;
    warnings.push({
      kind: 'tool_name_collision',
      message: `skill "${shownName(skill)}" would be tool "${base}", already used by skill "${shownName(skillNames[ownerIndex] ?? '')}"; named "${name}"`,
      skill,
      tool: name,
    });
    return name;
  });
  return { names, warnings };
}
