/**
 * Strategy 3 of discovery: files and folders named by the caller. A file is read as SKILL.md
 * whatever its name; a folder is searched with {@link scanSkillTree} (the search of
 * `skills validate`): its own SKILL.md, nested skills and dot folders, links inside the folder
 * followed once; broken and escaping links reported.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { DiscoveryDiagnostic } from '../discovery/types.js';
import { scanSkillTree } from '../scan-skill-tree.js';
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
    const found = await options.limiter.run(() =>
      scanSkillTree(target, { maxDepth: options.maxDepth, maxEntries: options.maxEntries }),
    );
    if (found.truncated) {
      diagnostics.push({
        kind: 'limit_reached',
        severity: 'warning',
        message: `${target}: stopped after ${options.maxEntries} entries; some SKILL.md files may be missing`,
        path: target,
        source,
      });
    }
    for (const link of found.skipped) {
      diagnostics.push({
        kind: link.kind === 'broken_link' ? 'missing_path' : 'path_escape',
        severity: 'warning',
        message: `${link.path}: ${link.reason}; not followed`,
        path: link.path,
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
    for (const file of found.files) candidates.push({ path: file, source });
  }
  return { candidates, diagnostics };
}
