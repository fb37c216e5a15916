/**
 * Whether the agents reading a skills folder accept a skill's name. The registry keeps OpenViking's
 * name rule (`[A-Za-z0-9_-]`, 1–64), and a server with name policy `slug` stores a skill under a
 * folder name its SKILL.md does not carry; the agents read the Agent Skills rule (lowercase letters,
 * digits and single hyphens, at most 64, equal to the folder's name), Claude Code its ASCII form.
 * An agent may skip or misname a skill outside its rule, so install says so for each folder.
 */
import { type SkillIssue, type ValidationProfile, validateSkill } from '@skillport/core';
import { AGENTS, displayFolder, type InstallScope, skillsFolder } from './agents.js';

/** The rules of a profile that concern the name and the folder. */
const NAME_RULES = new Set([
  'name_required',
  'name_allowed_characters',
  'name_hyphens',
  'name_max_length',
  'name_matches_directory',
]);

/** The rule set an agent reads names by: Claude Code's own (ASCII), else the Agent Skills specification. */
function profileOf(agentId: string): ValidationProfile {
  return agentId === 'claude-code' ? 'claude' : 'agentskills';
}

function describeIssue(issue: SkillIssue): string {
  const fix = typeof issue.fix === 'string' && issue.fix !== '' ? `, e.g. "${issue.fix}"` : '';
  return `${issue.message.replace(/\.$/, '')} (${issue.rule}${fix})`;
}

/**
 * The warning for a skill installed as `<folder>/<name>/SKILL.md`, or null when every agent reading
 * `folder` accepts the name.
 *
 * @param folder - a skills folder as the lock file writes it (`.claude/skills`, `~/.agents/skills`)
 * @param name - the skill's folder name (its name on the server)
 * @param skillMd - the SKILL.md bytes installed there
 * @returns `<agents>: <issues>; the agent may not load it` (agents that read by the same rule share
 *   one clause, clauses joined with ` | `), or null
 */
export function agentNameWarning(
  folder: string,
  scope: InstallScope,
  name: string,
  skillMd: Uint8Array,
): string | null {
  const readers = AGENTS.filter((agent) => displayFolder(skillsFolder(agent, scope), scope) === folder);
  if (readers.length === 0) return null;
  const text = new TextDecoder().decode(skillMd);
  const clauses: string[] = [];
  for (const profile of ['claude', 'agentskills'] as const) {
    const agents = readers.filter((agent) => profileOf(agent.id) === profile);
    if (agents.length === 0) continue;
    const issues = validateSkill(text, { profile, dirName: name }).errors.filter((i) =>
      NAME_RULES.has(i.rule),
    );
    if (issues.length === 0) continue;
    clauses.push(
      `${agents.map((a) => a.name).join(', ')}: ${issues.map(describeIssue).join('; ')}; ` +
        `the agent${agents.length === 1 ? '' : 's'} may not load it`,
    );
  }
  return clauses.length === 0 ? null : clauses.join(' | ');
}
