/**
 * The `viking://` URIs of a stored skill, as every result names them (list, find, the change feed,
 * get, add, delete, history, errors' `resource`): one place, so they cannot disagree.
 */
import { DEFINITION_PATH } from './types.js';

/**
 * URI of the skill `name` in the skill root `rootUri`: `<rootUri>/<name>`
 * (`viking://user/alice/skills/my-skill`). Names keep the name rule (`[A-Za-z0-9_-]`): nothing to escape.
 */
export function skillUri(rootUri: string, name: string): string {
  return `${rootUri}/${name}`;
}

/** The URI fields of a skill item and of get: `uri`, `root_uri` (the skill root) and `skill_md_uri` (`<uri>/SKILL.md`). */
export function skillItemUris(
  rootUri: string,
  name: string,
): { uri: string; root_uri: string; skill_md_uri: string } {
  const uri = skillUri(rootUri, name);
  return { uri, root_uri: rootUri, skill_md_uri: `${uri}/${DEFINITION_PATH}` };
}
