/**
 * The deterministic L1 overview as a worker pool task: from stored SKILL.md text (the processing
 * job) or from an already parsed body (a read before the job ran).
 */
import { parseSkillMd } from '@skillport/core';
import { defineWorkerTask } from '../workers/worker-task.js';
import { renderOverview } from './render-overview.js';

/** Input of {@link extractOverview}: SKILL.md text, or a parsed body. */
export interface ExtractOverviewInput {
  /** Fallback name and description, used when the text lacks them. */
  name: string;
  description: string;
  /** The SKILL.md text to parse; when absent, `body` is used as is. */
  definition?: string;
  body?: string;
}

/**
 * Renders the deterministic overview (see `renderOverview`).
 *
 * @returns Markdown, at most 4 KiB
 */
export function extractOverview(input: ExtractOverviewInput): string {
  if (input.definition !== undefined) {
    const parsed = parseSkillMd(input.definition).skill;
    return renderOverview({
      name: parsed.name ?? input.name,
      description: parsed.description ?? input.description,
      body: parsed.body,
    });
  }
  return renderOverview({ name: input.name, description: input.description, body: input.body ?? '' });
}

/** {@link extractOverview} as a worker pool task. */
export const EXTRACT_OVERVIEW = defineWorkerTask(import.meta.url, 'extractOverview', extractOverview);
