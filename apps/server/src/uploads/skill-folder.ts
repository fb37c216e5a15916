/**
 * Turning a temp upload into the files of one skill: a zip of a skill folder (SKILL.md at the
 * archive root, or inside its single top-level folder) or a single file read as SKILL.md.
 */
import { SkillportError } from '@skillport/core';
import { LIMIT_ENV, type ServerLimits } from '../config.js';
import { checkSkillMdSize } from '../services/skill-text.js';
import { defineWorkerTask, withTransfer } from '../workers/worker-task.js';
import { looksLikeZip, readZip, type ZipFile } from './zip-reader.js';

/** The files of an uploaded skill folder. */
export interface UploadedSkill {
  /** The SKILL.md bytes, exactly as uploaded. */
  skillMd: Uint8Array;
  /** Every other file, at its path relative to the skill folder (derived `.abstract.md`/`.overview.md` dropped). */
  auxiliary: ZipFile[];
  /** The top-level folder name inside the zip, if the skill sat in one (e.g. `my-skill`). */
  folderName: string | null;
}

const DERIVED = new Set(['.abstract.md', '.overview.md']);
const IGNORED_BASENAMES = new Set(['.DS_Store', 'Thumbs.db']);

function basename(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? path : path.slice(i + 1);
}

/**
 * Where the skill sits among the paths of a zip: its SKILL.md at the root (prefix `''`), or in the
 * single top-level folder (prefix `<folder>/`); null when neither.
 */
function locateSkill(paths: readonly string[]): { prefix: string; folderName: string | null } | null {
  if (paths.includes('SKILL.md')) return { prefix: '', folderName: null };
  const tops = new Set(paths.map((p) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : '')));
  const [only] = tops;
  if (tops.size === 1 && only && paths.includes(`${only}/SKILL.md`)) {
    return { prefix: `${only}/`, folderName: only };
  }
  return null;
}

/**
 * Locates the skill inside an upload.
 *
 * @param bytes - the upload (zip recognised by content, not by name)
 * @param limits - zip and per-skill limits
 * @returns SKILL.md and the auxiliary files
 * @throws SkillportError `INVALID_ARGUMENT` when the zip has no SKILL.md at its root or in a single
 *   top-level folder; `PAYLOAD_TOO_LARGE` when it has more files than `maxFilesPerSkill`; the
 *   errors of {@link readZip}
 */
export function extractUploadedSkill(bytes: Uint8Array, limits: ServerLimits): UploadedSkill {
  if (!looksLikeZip(bytes)) return { skillMd: bytes, auxiliary: [], folderName: null };
  const zipLimits = {
    maxEntries: limits.maxZipEntries,
    maxUncompressedBytes: limits.maxUncompressedBytes,
    maxCompressionRatio: limits.maxCompressionRatio,
    maxPathDepth: limits.maxPathDepth,
  };
  // A SKILL.md declared over its limit is refused for that, from the archive's directory, before the
  // compression ratio of a long repetitive SKILL.md is judged or anything is inflated.
  const files = readZip(bytes, zipLimits, (entries) => {
    const kept = entries.filter((e) => !IGNORED_BASENAMES.has(basename(e.path)));
    const at = locateSkill(kept.map((e) => e.path));
    const skillMd = at && kept.find((e) => e.path === `${at.prefix}SKILL.md`);
    if (skillMd) checkSkillMdSize(skillMd.size, limits.maxSkillMdBytes);
  }).filter((f) => !IGNORED_BASENAMES.has(basename(f.path)));

  const located = locateSkill(files.map((f) => f.path));
  const prefix = located?.prefix ?? '';
  const folderName = located?.folderName ?? null;
  if (!located) {
    const found = files
      .map((f) => f.path)
      .filter((p) => basename(p) === 'SKILL.md')
      .slice(0, 5);
    // `skill.md`, `Skill.md`: agents look for SKILL.md exactly, so name the file to rename.
    const misnamed = files
      .map((f) => f.path)
      .filter((p) => basename(p) !== 'SKILL.md' && basename(p).toLowerCase() === 'skill.md')
      .slice(0, 5);
    const none =
      misnamed.length > 0
        ? ` (no SKILL.md at all; found ${misnamed.join(', ')}: the file must be named SKILL.md, in capitals)`
        : ' (no SKILL.md at all)';
    throw new SkillportError(
      'INVALID_ARGUMENT',
      'Zip upload holds no SKILL.md at its root or in its single top-level folder' +
        (found.length > 0 ? ` (found: ${found.join(', ')})` : none),
      {
        details: {
          field: 'file',
          reason: 'missing_skill_md',
          found,
          ...(misnamed.length > 0 ? { misnamed } : {}),
        },
      },
    );
  }
  const inSkill = files
    .filter((f) => f.path.startsWith(prefix))
    .map((f) => ({ ...f, path: f.path.slice(prefix.length) }));
  if (inSkill.length > limits.maxFilesPerSkill) {
    throw new SkillportError(
      'PAYLOAD_TOO_LARGE',
      `Skill has ${inSkill.length} files; the limit is ${limits.maxFilesPerSkill} (${LIMIT_ENV.maxFilesPerSkill})`,
      { details: { field: 'file', files: inSkill.length, limit: limits.maxFilesPerSkill } },
    );
  }
  const skillMd = inSkill.find((f) => f.path === 'SKILL.md');
  if (!skillMd) throw new Error('unreachable: SKILL.md located above');
  return {
    skillMd: skillMd.content,
    auxiliary: inSkill.filter((f) => f.path !== 'SKILL.md' && !DERIVED.has(f.path)),
    folderName,
  };
}

/** Input of {@link extractUploadedSkillTask}. */
export interface ExtractUploadInput {
  bytes: Uint8Array;
  limits: ServerLimits;
}

/**
 * {@link extractUploadedSkill} for a worker thread: the files' buffers are moved back to the
 * caller, not copied.
 */
export function extractUploadedSkillTask(input: ExtractUploadInput): UploadedSkill {
  const skill = extractUploadedSkill(input.bytes, input.limits);
  return withTransfer(skill, [skill.skillMd, ...skill.auxiliary.map((f) => f.content)].map(ownBuffer));
}

function ownBuffer(view: Uint8Array): ArrayBuffer {
  return view.buffer as ArrayBuffer;
}

/** Zip inflation as a worker pool task (see `workers/worker-pool.ts`). */
export const EXTRACT_UPLOADED_SKILL = defineWorkerTask(
  import.meta.url,
  'extractUploadedSkillTask',
  extractUploadedSkillTask,
);
