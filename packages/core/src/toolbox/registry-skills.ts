/**
 * Toolbox input from registry results: turns items shaped like the API's get/find results
 * (`{name, description, content?, uri?}`) into {@link ToolboxSkill}s. Typed structurally, so core
 * needs no SDK.
 */
import { SkillportError } from '../errors.js';
import { parseSkillMd } from '../parse/parse-skill-md.js';
import type { ToolboxSkill } from './create-skill-toolbox.js';

/** The fields read from a registry item (`GET /api/v1/skills/{name}` or a find/list item). */
export interface RegistrySkillLike {
  name: string;
  description?: string | null;
  /** SKILL.md text (get with `include_content=true` or `level=2`). */
  content?: string | null;
  /** The skill's `viking://` URI, used as the catalogue location. */
  uri?: string | null;
}

/**
 * Builds toolbox skills from registry items. `content` (full SKILL.md text) is parsed and its body
 * becomes the system prompt; text without a frontmatter fence is used as the body as is. An item
 * without `content` (a find or list result) gets `# <name>\n\n<description>` as body — fetch the
 * skill with `level: 2` for its full instructions. The item's `description` wins over the
 * frontmatter's; the item's `uri` becomes the catalogue location.
 *
 * @param items - objects with `name` and optionally `description`, `content`, `uri`
 * @returns one {@link ToolboxSkill} per item, in order
 * @throws SkillportError `INVALID_ARGUMENT` when an item has no `name` string (`details.index`)
 * @example
 * ```ts
 * const got = await client.getSkill('pdf', { level: 2 });
 * const toolbox = createSkillToolbox(toolboxSkillsFromRegistry([got]), { model });
 * ```
 * @see the OpenAPI document: `GET /api/v1/skills/{name}`, `POST /api/v1/skills/find`
 */
export function toolboxSkillsFromRegistry(items: readonly RegistrySkillLike[]): ToolboxSkill[] {
  return items.map((item, index) => {
    if (typeof item?.name !== 'string' || item.name.trim() === '') {
      throw new SkillportError(
        'INVALID_ARGUMENT',
        `registry item ${index} has no name; expected {name, description?, content?}`,
        {
          details: { field: 'name', index },
        },
      );
    }
    let description = typeof item.description === 'string' ? item.description : null;
    let body: string;
    if (typeof item.content === 'string' && item.content !== '') {
      const parsed = parseSkillMd(item.content);
      body = parsed.hasFrontmatter ? parsed.skill.body : item.content;
      if (description === null || description === '') description = parsed.skill.description;
    } else {
      body = `# ${item.name}\n\n${description ?? ''}`;
    }
    const skill: ToolboxSkill = { name: item.name, description: description ?? '', body };
    if (typeof item.uri === 'string' && item.uri !== '') skill.path = item.uri;
    return skill;
  });
}
