/**
 * The deterministic L1 overview as a worker pool task, and the one way the server runs it: from the
 * fields a write parsed out of SKILL.md (the frontmatter's `name` and `description`, the body).
 */
import { runsInline } from '../workers/inline-policy.js';
import type { WorkerPool } from '../workers/worker-pool.js';
import { defineWorkerTask } from '../workers/worker-task.js';
import { renderOverview } from './render-overview.js';

/** What the overview is rendered from. */
export interface OverviewInput {
  name: string;
  description: string;
  /** The SKILL.md body (Markdown after the frontmatter). */
  body: string;
}

/**
 * Renders the deterministic overview (see `renderOverview`).
 *
 * @returns Markdown, at most 4 KiB
 */
export function extractOverview(input: OverviewInput): string {
  return renderOverview(input);
}

/** {@link extractOverview} as a worker pool task. */
export const EXTRACT_OVERVIEW = defineWorkerTask(import.meta.url, 'extractOverview', extractOverview);

/**
 * The overview's fields of a skill: the frontmatter's `name` and `description` when they are
 * strings (as the SKILL.md says them), else the stored `name` and `description` (e.g. a name the
 * slug policy rewrote, a description from another source), and the body.
 */
export function overviewFields(skill: {
  frontmatter: Record<string, unknown>;
  name: string;
  description: string;
  body: string;
}): OverviewInput {
  const { name, description } = skill.frontmatter;
  return {
    name: typeof name === 'string' ? name : skill.name,
    description: typeof description === 'string' ? description : skill.description,
    body: skill.body,
  };
}

/**
 * {@link EXTRACT_OVERVIEW} on the worker pool: small bodies in the calling thread (`runsInline`),
 * larger ones in a worker thread with the pool's time budget.
 *
 * @throws the pool's processing-limit error past the budget or with the queue full
 */
export function renderOverviewOnPool(workers: WorkerPool, input: OverviewInput): Promise<string> {
  return workers.run(EXTRACT_OVERVIEW, input, { inline: runsInline(input.body.length) });
}
