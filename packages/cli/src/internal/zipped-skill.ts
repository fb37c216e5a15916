/**
 * A skill zip read the way the server's add reads it: SKILL.md at the archive root or in its single
 * top-level folder, `\` read as `/` (zips made on Windows), folder entries, `__MACOSX/` metadata and
 * `.DS_Store` / `Thumbs.db` left out. `skills validate` checks the SKILL.md so located, and
 * `add-skill` reads the skill's name from it.
 */
import { unzipSync } from 'fflate';

/** Names the server drops from an uploaded zip wherever they are. */
const IGNORED_BASENAMES = new Set(['.DS_Store', 'Thumbs.db']);
/** Files the server generates itself and drops from an upload. */
const DERIVED = new Set(['.abstract.md', '.overview.md']);

/** Whether `bytes` start as a zip archive does (the server recognises a zip by content, not name). */
export function looksLikeZip(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 &&
    bytes[0] === 0x50 &&
    bytes[1] === 0x4b &&
    ((bytes[2] === 0x03 && bytes[3] === 0x04) || (bytes[2] === 0x05 && bytes[3] === 0x06))
  );
}

function basename(entry: string): string {
  return entry.slice(entry.lastIndexOf('/') + 1);
}

/** The skill found in a zip. */
export interface ZippedSkill {
  kind: 'skill';
  /** The SKILL.md bytes. */
  skillMd: Uint8Array;
  /** The top-level folder holding SKILL.md (the server checks `name` against it), or null at the root. */
  folderName: string | null;
  /** Where SKILL.md is, `/`-separated (`my-skill/SKILL.md`). */
  skillMdPath: string;
  /**
   * The files the server keeps from the zip: SKILL.md and the auxiliary files (a generated
   * `.abstract.md` / `.overview.md` in the zip is dropped; the server writes its own `.abstract.md`).
   */
  files: number;
}

/** A zip the server's add refuses for its layout (400 `missing_skill_md`), with the server's message. */
export interface ZipLayoutProblem {
  kind: 'missing_skill_md';
  message: string;
  /** Files named SKILL.md that are not where the server looks (at most 5). */
  found: string[];
  /** Files named `skill.md` in another letter case (at most 5). */
  misnamed: string[];
}

/**
 * Locates the skill in a zip as the server's add does.
 *
 * @param zip - the archive bytes
 * @returns the skill, or the layout problem the server would refuse it for
 * @throws Error when the bytes are not a readable zip archive
 */
export function readZippedSkill(zip: Uint8Array): ZippedSkill | ZipLayoutProblem {
  const written = new Map<string, string>(); // path as the server reads it → name as written
  unzipSync(zip, {
    filter: (entry) => {
      const normal = entry.name.replaceAll('\\', '/');
      if (
        !normal.startsWith('__MACOSX/') &&
        !normal.endsWith('/') &&
        !IGNORED_BASENAMES.has(basename(normal))
      )
        written.set(normal, entry.name);
      return false;
    },
  });
  const paths = [...written.keys()];
  let prefix: string | null = null;
  if (written.has('SKILL.md')) prefix = '';
  else {
    const tops = new Set(paths.map((p) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : '')));
    const [only] = tops;
    if (tops.size === 1 && only && written.has(`${only}/SKILL.md`)) prefix = `${only}/`;
  }
  if (prefix === null) {
    const found = paths.filter((p) => basename(p) === 'SKILL.md').slice(0, 5);
    const misnamed = paths
      .filter((p) => basename(p) !== 'SKILL.md' && basename(p).toLowerCase() === 'skill.md')
      .slice(0, 5);
    const none =
      misnamed.length > 0
        ? ` (no SKILL.md at all; found ${misnamed.join(', ')}: the file must be named SKILL.md, in capitals)`
        : ' (no SKILL.md at all)';
    return {
      kind: 'missing_skill_md',
      message:
        'Zip upload holds no SKILL.md at its root or in its single top-level folder' +
        (found.length > 0 ? ` (found: ${found.join(', ')})` : none),
      found,
      misnamed,
    };
  }
  const skillMdPath = `${prefix}SKILL.md`;
  const name = written.get(skillMdPath) ?? skillMdPath;
  const skillMd = unzipSync(zip, { filter: (entry) => entry.name === name })[name] ?? new Uint8Array();
  return {
    kind: 'skill',
    skillMd,
    folderName: prefix === '' ? null : prefix.slice(0, -1),
    skillMdPath,
    files: paths.filter((p) => p.startsWith(prefix) && !DERIVED.has(p.slice(prefix.length))).length,
  };
}
