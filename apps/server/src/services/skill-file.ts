/**
 * Reading one stored file of a skill (`GET /api/v1/skills/{name}/files/{path}`): SKILL.md, the
 * generated `.abstract.md` / `.overview.md`, or an auxiliary file, as raw bytes.
 */
import { normalizeSkillName, SkillportError, skillFilePathProblem } from '@skillport/core';
import { skillUri } from '../store/skill-uri.js';
import type { Identity, StoredFile } from '../store/types.js';
import type { ServiceDeps } from './deps.js';
import { rootsFor } from './skill-reader.js';

/** A file as the route sends it. */
export interface SkillFileRead {
  /** URI of the file: `<skill uri>/<path>`. */
  uri: string;
  /** The skill's current revision. */
  revision: string;
  file: StoredFile & { content: Uint8Array };
}

/**
 * Checks a requested file path: relative, `/`-separated, no empty, `.` or `..` segment, no
 * backslash or control character (the rule of `skillFilePathProblem` in @skillport/core).
 *
 * @returns the path unchanged
 * @throws SkillportError `INVALID_ARGUMENT` with `details {field: 'path', reason}`
 */
export function checkFilePath(path: string): string {
  const problem = skillFilePathProblem(path);
  if (problem !== null) {
    throw new SkillportError('INVALID_ARGUMENT', problem.message, {
      details: { field: 'path', reason: problem.reason },
    });
  }
  return path;
}

/**
 * Reads one file of a skill, found as get finds the skill (`targetUri`, else the user root then the
 * agent root).
 *
 * @param rawName - the `{name}` path segment
 * @param path - the file path inside the skill folder, e.g. `SKILL.md` or `scripts/run.py`
 * @returns the file with its content, its URI and the skill's revision
 * @throws SkillportError `NOT_FOUND` (`details {type: 'skill' | 'file', resource}`), `INVALID_ARGUMENT`
 *   for a bad name or path, `INVALID_URI` / `PERMISSION_DENIED` for a bad `targetUri`
 */
export async function readSkillFile(
  deps: ServiceDeps,
  identity: Identity,
  rawName: string,
  path: string,
  targetUri: string | null,
): Promise<SkillFileRead> {
  const name = normalizeSkillName(rawName);
  checkFilePath(path);
  const roots = rootsFor(identity, targetUri);
  const view = await deps.store.readSkillView(identity.accountId, roots, name, {
    contents: [path],
    listFiles: false,
    body: 'never',
  });
  if (view === null) {
    throw new SkillportError(
      'NOT_FOUND',
      `Skill ${JSON.stringify(name)} not found in ${roots.join(' or ')}`,
      {
        details: { type: 'skill', resource: skillUri(roots[0] as string, name) },
      },
    );
  }
  const uriOfSkill = skillUri(view.skill.rootUri, view.skill.name);
  const file = view.contents.get(path);
  if (!file?.content) {
    throw new SkillportError(
      'NOT_FOUND',
      `Skill ${JSON.stringify(name)} has no file ${JSON.stringify(path.slice(0, 200))} (the skill's files are listed by GET /api/v1/skills/${name})`,
      { details: { type: 'file', resource: `${uriOfSkill}/${path}` } },
    );
  }
  return {
    uri: `${uriOfSkill}/${path}`,
    revision: view.skill.revision,
    file: file as StoredFile & { content: Uint8Array },
  };
}
