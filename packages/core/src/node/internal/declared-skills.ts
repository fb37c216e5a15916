/**
 * Strategy 1 of discovery: the `"skills"` field of a package.json, either a map of skill name to
 * SKILL.md path (`{"pdf": "./skills/pdf/SKILL.md"}`, like entry points) or a list of SKILL.md files
 * and skill folders (`["./skills/a", "./skills/b/SKILL.md"]`). A folder without SKILL.md of its own
 * contributes the skill folders directly inside it. Declared paths must stay inside the package.
 */
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { DiscoveryDiagnostic, DiscoverySource } from '../discovery/types.js';
import type { PackageRecord } from './enumerate-packages.js';
import type { Limiter } from './limiter.js';
import { describeFsError, fsErrorCode, isInside } from './paths.js';

/** A SKILL.md file a package declares, with the map key when declared through a map. */
export interface DeclaredSkillFile {
  path: string;
  declaredName?: string;
}

/** Result of {@link resolveDeclaredSkills}. */
export interface DeclaredSkills {
  files: DeclaredSkillFile[];
  diagnostics: DiscoveryDiagnostic[];
}

/** The `source` of everything a package declares. */
export function declaredSource(pkg: PackageRecord): DiscoverySource {
  const source: DiscoverySource = { strategy: 'declared', package: pkg.name, packageDir: pkg.dir };
  if (pkg.version !== '') source.version = pkg.version;
  return source;
}

/** Whether a package.json has a `"skills"` field at all. */
export function declaresSkills(pkg: PackageRecord): boolean {
  return pkg.manifest.skills !== undefined;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** Resolves and checks every entry of `pkg.manifest.skills`. Never throws. */
export async function resolveDeclaredSkills(pkg: PackageRecord, limiter: Limiter): Promise<DeclaredSkills> {
  const source = declaredSource(pkg);
  const manifestPath = path.join(pkg.dir, 'package.json');
  const diagnostics: DiscoveryDiagnostic[] = [];
  const report = (kind: DiscoveryDiagnostic['kind'], message: string, where: string | null): void => {
    diagnostics.push({ kind, severity: 'error', message: `${pkg.name}: ${message}`, path: where, source });
  };

  const raw = pkg.manifest.skills;
  const entries: Array<{ declared: string; key?: string }> = [];
  if (typeof raw === 'string') {
    entries.push({ declared: raw });
  } else if (Array.isArray(raw)) {
    raw.forEach((value, index) => {
      if (typeof value === 'string') entries.push({ declared: value });
      else {
        report(
          'invalid_declaration',
          `"skills"[${index}] must be a path string like "./skills/pdf", got ${JSON.stringify(value)}`,
          manifestPath,
        );
      }
    });
  } else if (typeof raw === 'object' && raw !== null) {
    for (const [key, value] of Object.entries(raw)) {
      if (typeof value === 'string') entries.push({ declared: value, key });
      else {
        report(
          'invalid_declaration',
          `"skills"."${key}" must be a path string like "./skills/${key}/SKILL.md", got ${JSON.stringify(value)}`,
          manifestPath,
        );
      }
    }
  } else if (raw !== undefined) {
    report(
      'invalid_declaration',
      `"skills" must be a map {"name": "./path/SKILL.md"} or a list ["./skills/a"], got ${JSON.stringify(raw)}`,
      manifestPath,
    );
  }

  const files: DeclaredSkillFile[] = [];
  for (const entry of entries) {
    const target = path.resolve(pkg.dir, entry.declared);
    const label = entry.key === undefined ? `"skills" entry "${entry.declared}"` : `"skills"."${entry.key}"`;
    if (path.isAbsolute(entry.declared) || !isInside(pkg.dir, target)) {
      report('path_escape', `${label} points outside the package folder (${target}); not followed`, target);
      continue;
    }
    let real: string;
    try {
      real = await limiter.run(() => realpath(target));
    } catch (error) {
      const kind = fsErrorCode(error) === 'ENOENT' ? 'missing_path' : 'read_error';
      report(kind, `${label} does not exist (${describeFsError(error)})`, target);
      continue;
    }
    if (!isInside(pkg.dir, real)) {
      report(
        'path_escape',
        `${label} resolves outside the package folder through a symlink (${real}); not followed`,
        target,
      );
      continue;
    }
    const info = await limiter
      .run(() => stat(real))
      .catch((error: unknown) => {
        report('read_error', `${label} cannot be read (${describeFsError(error)})`, target);
        return null;
      });
    if (info === null) continue;
    if (info.isFile()) {
      files.push(entry.key === undefined ? { path: real } : { path: real, declaredName: entry.key });
      continue;
    }
    const own = path.join(real, 'SKILL.md');
    if (await isFile(own)) {
      files.push(entry.key === undefined ? { path: own } : { path: own, declaredName: entry.key });
      continue;
    }
    const children =
      entry.key === undefined
        ? await limiter.run(() => readdir(real, { withFileTypes: true })).catch(() => [])
        : [];
    const nested: string[] = [];
    for (const child of children.filter((c) => c.isDirectory()).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const candidate = path.join(real, child.name, 'SKILL.md');
      if (await isFile(candidate)) nested.push(candidate);
    }
    if (nested.length === 0) {
      report('missing_path', `${label} is a folder without SKILL.md (expected ${own})`, real);
    }
    for (const file of nested) files.push({ path: file });
  }
  return { files, diagnostics };
}
