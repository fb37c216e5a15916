/**
 * Resolving a string given to `addSkill`/`updateSkill`: an existing file or folder on this machine is
 * read (file) or zipped (folder) so it can be uploaded; anything else is skill content.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/** A local file or folder read for upload: the bytes and the file name to send. */
export interface LocalUpload {
  bytes: Uint8Array;
  filename: string;
  /** Absolute path that was read. */
  source: string;
  kind: 'file' | 'folder';
}

/** True when a string has the shape of a host path rather than of SKILL.md content (API-CONTRACT §Add rule 1). */
export function looksLikePath(value: string): boolean {
  if (value.includes('\n') || value.length > 4096 || value.trim() === '') return false;
  return (
    /[\\/]/.test(value) || /^(\.{1,2}[\\/]|~[\\/]|[A-Za-z]:\\)/.test(value) || /\.(md|zip)$/i.test(value)
  );
}

function expandHome(value: string): string {
  const home = process.env.HOME ?? process.env.USERPROFILE;
  return home && /^~[\\/]/.test(value) ? path.join(home, value.slice(2)) : value;
}

/**
 * Reads a local path for upload, or returns `undefined` when `value` is content.
 * @throws Error when `value` looks like a path but nothing exists there (so a typo is not sent as content).
 */
export async function readLocalSource(value: string): Promise<LocalUpload | undefined> {
  if (value.includes('\n') || value.trim() === '' || value.length > 4096) return undefined;
  const candidate = path.resolve(expandHome(value.trim()));
  const info = await stat(candidate).catch(() => undefined);
  if (!info) {
    if (looksLikePath(value)) {
      throw new Error(`no such file or folder: ${value.slice(0, 300)} (resolved to ${candidate})`);
    }
    return undefined;
  }
  if (info.isDirectory()) {
    // Loaded on demand: the folder walker pulls in the skill parser, which plain calls do not need.
    const { zipSkillDir } = await import('@skillport/core/node');
    const bytes = await zipSkillDir(candidate);
    return {
      bytes,
      filename: `${path.basename(candidate) || 'skill'}.zip`,
      source: candidate,
      kind: 'folder',
    };
  }
  if (!info.isFile()) throw new Error(`not a regular file or folder: ${candidate}`);
  const bytes = new Uint8Array(await readFile(candidate));
  return { bytes, filename: path.basename(candidate), source: candidate, kind: 'file' };
}
