/**
 * Strategy 3 of discovery: files and folders named by the caller. A file is read as SKILL.md
 * whatever its name; a folder holding SKILL.md is one skill; any other folder is searched for skill
 * folders (bounded depth, symlinks not followed, `node_modules` not entered).
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { DiscoveryDiagnostic } from '../discovery/types.js';
import { findSkillFiles } from './find-skill-files.js';
import type { Limiter } from './limiter.js';
import { describeFsError, fsErrorCode } from './paths.js';
import type { SkillCandidate } from './read-skill-candidate.js';

/** Result of {@link resolveExtraPaths}. */
export interface ExtraPaths {
  candidates: SkillCandidate[];
  diagnostics: DiscoveryDiagnostic[];
}

/** Resolves `paths` (relative to `cwd`) into SKILL.md candidates, in the given order. Never throws. */
export async function resolveExtraPaths(
  cwd: string,
  paths: readonly string[],
  options: { maxDepth: number; maxEntries: number; limiter: Limiter },
): Promise<ExtraPaths> {
  const candidates: SkillCandidate[] = [];
  const diagnostics: DiscoveryDiagnostic[] = [];
  const source = { strategy: 'path' as const };
  for (const given of paths) {
    const target = path.resolve(cwd, given);
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await options.limiter.run(() => stat(target));
    } catch (error) {
      const missing = fsErrorCode(error) === 'ENOENT';
      diagnostics.push({
        kind: missing ? 'missing_path' : 'read_error',
        severity: 'error',
        message: missing ? `${target} does not exist` : `cannot read ${target}: ${describeFsError(error)}`,
        path: target,
        source,
      });
      continue;
    }
    if (!info.isDirectory()) {
      candidates.push({ path: target, source });
      continue;
    }
    const found = await findSkillFiles(target, {
      maxDepth: options.maxDepth,
      maxEntries: options.maxEntries,
      limiter: options.limiter,
    });
    if (found.truncated) {
      diagnostics.push({
        kind: 'limit_reached',
        severity: 'warning',
        message: `${target}: stopped after ${options.maxEntries} entries; some SKILL.md files may be missing`,
        path: target,
        source,
      });
    }
    if (found.files.length === 0) {
      diagnostics.push({
        kind: 'missing_path',
        severity: 'error',
        message: `${target} holds no SKILL.md (searched ${options.maxDepth} levels deep)`,
        path: target,
        source,
      });
    }
    for (const rel of found.files) candidates.push({ path: path.join(target, ...rel.split('/')), source });
  }
  return { candidates, diagnostics };
}
