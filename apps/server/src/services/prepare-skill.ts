/**
 * Reading SKILL.md text for a write: core's validator (profile `openviking`, not strict) and parser
 * in one call, so it can run in a worker thread for large input (see `workers/worker-pool.ts`).
 */
import { type SkillIssue, validateAndParseSkillMd } from '@skillport/core';
import { defineWorkerTask } from '../workers/worker-task.js';

/** Input of {@link prepareSkill}. */
export interface PrepareSkillInput {
  text: string;
  /** The folder the SKILL.md sat in (checked against the name), if any. */
  dirName?: string;
}

/** The validator's verdict plus the parsed fields a write stores. */
export interface PreparedSkill {
  errors: SkillIssue[];
  warnings: SkillIssue[];
  name: string | null;
  description: string | null;
  tags: string[];
  allowedTools: string[];
  frontmatter: Record<string, unknown>;
  body: string;
}

/**
 * Validates and parses SKILL.md text as add and update need it.
 *
 * @param input - the text and optional folder name
 * @returns errors and warnings (profile `openviking`), and the parsed skill's fields
 */
export function prepareSkill(input: PrepareSkillInput): PreparedSkill {
  // One parse serves the verdict and the stored fields.
  const { validation, skill: parsed } = validateAndParseSkillMd(input.text, {
    profile: 'openviking',
    ...(input.dirName !== undefined ? { dirName: input.dirName } : {}),
  });
  return {
    errors: validation.errors,
    warnings: validation.warnings,
    name: validation.name,
    description: validation.description ?? parsed.description,
    tags: parsed.tags,
    allowedTools: parsed.allowedTools,
    frontmatter: parsed.frontmatter,
    body: parsed.body,
  };
}

/** {@link prepareSkill} as a worker pool task. */
export const PREPARE_SKILL = defineWorkerTask(import.meta.url, 'prepareSkill', prepareSkill);
