/**
 * The name a request's skill name stands for, under the server's name policy
 * (`SKILLPORT_NAME_POLICY`, `ServerOptions.namePolicy`).
 */
import { normalizeSkillName, storedSkillName } from '@skillport/core';
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
  const name = typeof raw === 'string' ? storedSkillName(raw, policy) : null;
  // No stored name: the rule's own refusal (it names the kebab-case fix when there is one).
  if (name === null) return { name: normalizeSkillName(raw), slugged: false };
  // Slugged when the name rule itself refuses the name: a kebab-case spelling was stored instead.
  return { name, slugged: policy === 'slug' && storedSkillName(raw, 'strict') === null };
}
