/**
 * The stamp of a skill: a fingerprint of everything a settled get result is built from, so that a
 * result kept by a reader can be recognised as still current after other skills changed.
 */
import { createHash } from 'node:crypto';
import type { SkillRecord } from './types.js';

/** The fields of a skill record a settled get result depends on, besides its files. */
export type StampedFields = Pick<
  SkillRecord,
  | 'id'
  | 'rootUri'
  | 'name'
  | 'revision'
  | 'createdAt'
  | 'updatedAt'
  | 'description'
  | 'tags'
  | 'allowedTools'
  | 'frontmatter'
  | 'sourceMetadata'
>;

/**
 * A settled skill's stamp: the SHA-1 (base64url, 27 characters) of its row's identity (`id`, root,
 * name), times, revision, metadata and source metadata, and of the hash of its stored overview
 * (`.overview.md`). The files of a get result are covered by the revision (their paths and
 * contents), the abstract and SKILL.md too; the overview, written by the processing job outside the
 * revision, by `overviewSha256`. So two reads with the same stamp give the same get result, for any
 * options: a replace, a delete and re-add, or an overview written again each change it.
 *
 * @param skill - the skill's record (as both engines map their rows)
 * @param overviewSha256 - hex sha-256 of the skill's `.overview.md`, or null when it has none
 * @returns 27 base64url characters
 */
export function skillStamp(skill: StampedFields, overviewSha256: string | null): string {
  return createHash('sha1')
    .update(
      JSON.stringify([
        skill.id,
        skill.rootUri,
        skill.name,
        skill.revision,
        skill.createdAt,
        skill.updatedAt,
        overviewSha256,
        skill.description,
        skill.tags,
        skill.allowedTools,
        skill.frontmatter,
        skill.sourceMetadata,
      ]),
    )
    .digest('base64url');
}
