/**
 * Reads one SKILL.md found by discovery and turns it into a {@link DiscoveredSkill}, or into a
 * `parse_error` / `read_error` / `path_escape` diagnostic. Never throws.
 */
import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { SkillIssue } from '../../types.js';
import { validateSkill } from '../../validate/validate-skill.js';
import type { DiscoveredSkill, DiscoveryDiagnostic, DiscoverySource } from '../discovery/types.js';
import type { Limiter } from './limiter.js';
import { parseSkillBytes } from './parse-skill-bytes.js';
import { describeFsError, isInside } from './paths.js';

/** A file to read, in discovery order. */
export interface SkillCandidate {
  /** Absolute path (real path for package sources). */
  path: string;
  source: DiscoverySource;
  /** Map key of a `"skills"` map declaration. */
  declaredName?: string;
  /** Folder the file's real path must stay in (the package folder), when any. */
  boundary?: string;
}

/** A candidate read: either a skill or a diagnostic explaining why not. */
export type CandidateOutcome = { skill: DiscoveredSkill } | { diagnostic: DiscoveryDiagnostic };

function requiredString(
  value: string | null,
  field: 'name' | 'description',
  issues: SkillIssue[],
  file: string,
): string | null {
  if (value !== null && value.trim() !== '') return value;
  if (
    !issues.some((issue) => issue.severity === 'error' && (issue.field === field || issue.field === null))
  ) {
    issues.push({
      rule: `${field}_required`,
      severity: 'error',
      message: `${file}: frontmatter has no ${field}; add e.g. ${field}: ${field === 'name' ? 'my-skill' : 'What the skill does and when to use it'}`,
      field,
    });
  }
  return null;
}

/** Reads and parses `candidate`. */
export async function readSkillCandidate(
  candidate: SkillCandidate,
  limiter: Limiter,
): Promise<CandidateOutcome> {
  const { source } = candidate;
  let bytes: Uint8Array;
  try {
    const real = await limiter.run(() => realpath(candidate.path));
    if (candidate.boundary !== undefined && !isInside(candidate.boundary, real)) {
      return {
        diagnostic: {
          kind: 'path_escape',
          severity: 'error',
          message: `${source.package ?? 'package'}: ${candidate.path} resolves outside the package folder through a symlink (${real}); not followed`,
          path: candidate.path,
          source,
        },
      };
    }
    bytes = await limiter.run(() => readFile(real));
  } catch (error) {
    return {
      diagnostic: {
        kind: 'read_error',
        severity: 'error',
        message: `cannot read ${candidate.path}: ${describeFsError(error)}`,
        path: candidate.path,
        source,
      },
    };
  }

  const { text, skill, issues } = parseSkillBytes(bytes, candidate.path);
  const rawName = skill.name ?? null;
  const name = requiredString(rawName ?? candidate.declaredName ?? null, 'name', issues, candidate.path);
  const description = requiredString(skill.description, 'description', issues, candidate.path);
  const errors = issues.filter((issue) => issue.severity === 'error');
  if (errors.length > 0 || name === null || description === null) {
    const first = errors[0];
    const where =
      first?.line === undefined
        ? ''
        : ` (line ${first.line}${first.column === undefined ? '' : `, column ${first.column}`})`;
    const diagnostic: DiscoveryDiagnostic = {
      kind: 'parse_error',
      severity: 'error',
      message: `${candidate.path}: ${first?.message ?? 'unusable SKILL.md'}${where}`,
      path: candidate.path,
      source,
      issues: errors,
    };
    if (name !== null) diagnostic.name = name;
    return { diagnostic };
  }

  const warnings = verdictOf(text, candidate.path, issues, rawName === null);
  if (candidate.declaredName !== undefined && rawName !== null && rawName !== candidate.declaredName) {
    warnings.push({
      rule: 'declared_name_mismatch',
      severity: 'warning',
      message: `package.json declares this skill as "${candidate.declaredName}" but its frontmatter name is "${rawName}"; the frontmatter name is used`,
      field: 'name',
      fix: candidate.declaredName,
    });
  }
  return {
    skill: {
      name,
      description,
      body: skill.body,
      path: candidate.path,
      frontmatter: skill.frontmatter,
      tags: skill.tags,
      allowedTools: skill.allowedTools,
      source,
      issues: warnings,
    },
  };
}

/**
 * The issues of a usable SKILL.md: `validateSkill`'s verdict on it (default profile, the folder name as
 * `dirName` when the file is named SKILL.md — what `skillport skills validate` and the server's validate
 * report for the same file), after the reader's own `encoding` warning. A skill named by its
 * declaration (`nameless`) has no `name_required` error: discovery gave it that name.
 */
function verdictOf(
  text: string,
  file: string,
  parsed: readonly SkillIssue[],
  namedByDeclaration: boolean,
): SkillIssue[] {
  const dirName = path.basename(file) === 'SKILL.md' ? path.basename(path.dirname(file)) : undefined;
  const verdict = validateSkill(text, dirName !== undefined ? { dirName } : {});
  return [
    ...parsed.filter((issue) => issue.rule === 'encoding'),
    ...verdict.errors.filter((issue) => !(namedByDeclaration && issue.rule === 'name_required')),
    ...verdict.warnings,
  ];
}
