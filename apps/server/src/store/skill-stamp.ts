/**
 * The stamp of a skill: a fingerprint of everything a settled get result is built from, so that a
 * result kept by a reader can be recognised as still current after other skills changed.
 */
import type { SkillRow } from './sqlite/rows.js';
import { OVERVIEW_PATH } from './types.js';

/** The columns of a `skills` row (as both engines store them) a stamp is made of. */
export type StampedColumns = Pick<
  SkillRow,
  'id' | 'root_uri' | 'name' | 'revision' | 'created_at' | 'updated_at' | 'source_metadata'
>;

/**
 * SQL of the columns {@link skillStamp} needs besides the overview's hash, for a `skills` row aliased `s`
 * (both engines).
 */
export const STAMP_COLUMNS =
  's.id, s.root_uri, s.name, s.revision, s.created_at, s.updated_at, s.source_metadata';

/**
 * SQL of the hash of the stored overview (`.overview.md`) of a `skills` row aliased `s`, as
 * `overview_sha` (null when it has none): one primary-key probe of `skill_files` (both engines).
 */
export const OVERVIEW_SHA_COLUMN = `(SELECT f.sha256 FROM skill_files f WHERE f.skill_seq = s.seq AND f.path = '${OVERVIEW_PATH}') AS overview_sha`;

/**
 * A settled skill's stamp: its row's identity (`id`, root, name), times, revision and source metadata
 * as stored, and the hash of its stored overview (`.overview.md`), as one string (~250 characters;
 * compare for equality only). Two reads with the same stamp give the same settled get result, for any
 * options:
 * - the files, the abstract and SKILL.md are covered by the revision (their paths and contents);
 * - the description, tags, allowed tools, frontmatter and body are read from SKILL.md when it is
 *   written (so covered by the revision too), and every write stores a new `updated_at`;
 * - the source metadata, given by the client, is in the stamp as stored;
 * - the overview, written by the processing job outside the revision (again on a re-run), by its hash;
 * - a delete and re-add makes another row (another `id` and `created_at`).
 *
 * @param row - the skill's row, its columns as the engine returns them
 * @param overviewSha256 - hex sha-256 of the skill's `.overview.md`, or null when it has none
 */
export function skillStamp(row: StampedColumns, overviewSha256: string | null): string {
  return JSON.stringify([
    row.id,
    row.root_uri,
    row.name,
    row.revision,
    String(row.created_at),
    String(row.updated_at),
    overviewSha256,
    row.source_metadata,
  ]);
}
