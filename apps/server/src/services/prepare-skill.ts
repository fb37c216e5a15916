/**
 * Reading SKILL.md text for a write: core's validator (profile `openviking`, not strict) and parser
 * in one call, so it can run in a worker thread for large input (see `workers/worker-pool.ts`).
 */
import { type SkillIssue, validateAndParseSkillMd } from '@skillport/core';
import { extractOverview } from '../levels/extract-overview.js';
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

/** Input of {@link prepareSkillWrite}. */
export interface PrepareSkillWriteInput extends PrepareSkillInput {
  /** Also render the deterministic overview (a server that processes at write time). */
  overview: boolean;
}

/** {@link PreparedSkill} plus the overview, when it could be rendered in the same pass. */
export interface PreparedSkillWrite extends PreparedSkill {
  /**
   * The deterministic overview (`extractOverview`) from the frontmatter's own `name` and
   * `description` and the body — what `overviewFields` gives whenever both are strings — when asked
   * for and the text has no validation error; else null (the caller renders it once the stored name
   * is known, or not at all).
   */
  overview: string | null;
}

/**
 * {@link prepareSkill} and, in the same call, the overview a write processed at write time stores:
 * one worker hop for a large SKILL.md instead of one to parse it and another to send its body back
 * for the overview.
 *
 * @param input - the text, optional folder name, and whether to render the overview
 * @returns the prepared skill and the overview (null when not rendered: see {@link PreparedSkillWrite})
 */
export function prepareSkillWrite(input: PrepareSkillWriteInput): PreparedSkillWrite {
  const prepared = prepareSkill(input);
  const { name, description } = prepared.frontmatter;
  const overview =
    input.overview &&
    prepared.errors.length === 0 &&
    typeof name === 'string' &&
    typeof description === 'string'
      ? extractOverview({ name, description, body: prepared.body })
      : null;
  return { ...prepared, overview };
}

/** {@link prepareSkillWrite} as a worker pool task. */
export const PREPARE_SKILL_WRITE = defineWorkerTask(import.meta.url, 'prepareSkillWrite', prepareSkillWrite);
