/**
 * The name a request's skill name stands for, under the server's name policy
 * (`SKILLPORT_NAME_POLICY`, `ServerOptions.namePolicy`).
 */
import { isSkillportError, normalizeSkillName, SKILL_NAME_PATTERN, toSkillSlug } from '@skillport/core';
import type { NamePolicy } from '../config.js';

/**
 * Applies the name rule to a name from content or a path. `strict`: the rule as is (refusal names
 * the kebab-case fix). `slug`: a name that breaks the rule stands for its kebab-case spelling
 * (`ElevenLabs Automation` → `elevenlabs-automation`), so a skill stored under the slug is found by
 * either spelling; a name with no usable slug is still refused.
 *
 * @param raw - the name as received
 * @param policy - the server's name policy
 * @returns the stored name, and whether it differs from the trimmed input (the slug was used)
 * @throws SkillportError `INVALID_ARGUMENT` from `normalizeSkillName` when no name can be stored
 * @example
 * ```ts
 * resolveSkillName('ElevenLabs Automation', 'slug'); // { name: 'elevenlabs-automation', slugged: true }
 * ```
 */
export function resolveSkillName(raw: string, policy: NamePolicy): { name: string; slugged: boolean } {
  try {
    return { name: normalizeSkillName(raw), slugged: false };
  } catch (error) {
    if (policy !== 'slug' || !isSkillportError(error) || typeof raw !== 'string') throw error;
    const slug = toSkillSlug(raw);
    if (!SKILL_NAME_PATTERN.test(slug)) throw error;
    return { name: slug, slugged: true };
  }
}
