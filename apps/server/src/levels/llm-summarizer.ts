import type { ChatModel } from '@skillport/core';
import type { OverviewSummarizer } from '../jobs/job-runner.js';
import { defaultSummarizer } from '../jobs/job-runner.js';
import { fitBytes, OVERVIEW_MAX_BYTES } from './render-overview.js';

/** Options of {@link createLlmSummarizer}. */
export interface LlmSummarizerOptions {
  /** Size bound of the overview in UTF-8 bytes; default {@link OVERVIEW_MAX_BYTES}. */
  maxBytes?: number;
  /** The SKILL.md sent to the model is cut to this many characters; default 24 000. */
  maxInputChars?: number;
  /**
   * On a model failure or an empty answer: true (default) → use the deterministic extractor, so the
   * job completes; false → throw, so the job is retried with backoff and may end `failed`.
   */
  fallback?: boolean;
  /**
   * Longest time one overview may take, retries and backoff included, in ms; default 60 000. Past it
   * the call is aborted and (with `fallback`) the deterministic overview is used, so an endpoint that
   * never answers holds a job for this long at most, not for each attempt's own timeout.
   */
  budgetMs?: number;
  /**
   * After the model failed (an error answer, unreachable, or the budget ran out), the next skills skip
   * it for this long and get the deterministic overview at once, in ms; default 60 000; 0 never skips.
   * The first skill after the pause tries the model again.
   */
  cooldownMs?: number;
  /** Told about failures that were replaced by the fallback (`skipped`: the model was not called, cooling down). */
  onFallback?: (error: unknown, skillName: string, info: { skipped: boolean }) => void;
  /** Clock in epoch ms; default `Date.now`. */
  now?: () => number;
  /** Writes the deterministic draft (and fallback); default {@link defaultSummarizer} in this thread. */
  draft?: OverviewSummarizer;
}

/** The model answered, with nothing. */
class EmptyOverviewError extends Error {
  constructor() {
    super('the model returned an empty overview');
  }
}

const SYSTEM_PROMPT = [
  'You write the L1 overview of an agent skill for a skill registry.',
  "Input: the skill's SKILL.md (YAML frontmatter + Markdown) and a machine-extracted draft.",
  'Output: Markdown only, starting with "# <name> — overview", then short sections',
  '"## Summary" (2-3 sentences), "## When to use" (bullets), "## Parameters" (bullets; only parameters',
  'the document states — never invent any; omit the section when there are none).',
  'Be factual and concise; at most 300 words; no preamble, no code fences around the answer.',
].join(' ');

/**
 * An L1 summariser backed by a chat model (any OpenAI-compatible endpoint through core's
 * `createOpenAICompatibleModel`), for `createJobRunner({summarize})`. The model sees the stored
 * SKILL.md (cut to `maxInputChars`) and the deterministic draft; its answer is trimmed and bounded to
 * `maxBytes`. Each call has one time budget (`budgetMs`, default 60 s) for all its attempts. Failures
 * fall back to the deterministic extractor unless `fallback: false`, and pause the model for
 * `cooldownMs` (default 60 s), so a dead endpoint costs one budget, not one per skill.
 *
 * @param model - the chat model
 * @param options - see {@link LlmSummarizerOptions}
 * @returns an {@link OverviewSummarizer}
 * @throws from the returned function, only with `fallback: false`: the model's error, or an Error for
 *   an empty answer
 * @example
 * ```ts
 * const model = createOpenAICompatibleModel({ baseURL: 'http://localhost:11434/v1', model: 'llama3.2' });
 * const runner = createJobRunner({ store, summarize: createLlmSummarizer(model) });
 * ```
 * @see the skill model of the @skillport/core README (L1: "an optional LLM summariser … may replace it")
 */
export function createLlmSummarizer(
  model: ChatModel,
  options: LlmSummarizerOptions = {},
): OverviewSummarizer {
  const maxBytes = Math.max(64, Math.floor(options.maxBytes ?? OVERVIEW_MAX_BYTES));
  const maxInputChars = Math.max(1000, Math.floor(options.maxInputChars ?? 24_000));
  const fallback = options.fallback ?? true;
  const drafter = options.draft ?? defaultSummarizer;
  const budgetMs = Math.max(1, Math.floor(options.budgetMs ?? 60_000));
  const cooldownMs = Math.max(0, Math.floor(options.cooldownMs ?? 60_000));
  const now = options.now ?? Date.now;
  let failedAt: number | null = null;
  return async (input) => {
    const draft = await drafter(input);
    if (fallback && failedAt !== null && now() - failedAt < cooldownMs) {
      const ago = Math.round((now() - failedAt) / 1000);
      options.onFallback?.(
        new Error(
          `the model failed ${ago} s ago; it is tried again ${Math.round(cooldownMs / 1000)} s after the failure`,
        ),
        input.skill.name,
        { skipped: true },
      );
      return draft;
    }
    // One budget for the whole call (every attempt and backoff), and the job's own abort.
    const budget = AbortSignal.timeout(budgetMs);
    const signal = input.signal ? AbortSignal.any([input.signal, budget]) : budget;
    const definition =
      input.definition.length > maxInputChars
        ? `${input.definition.slice(0, maxInputChars)}\n…`
        : input.definition;
    try {
      const completion = await model.complete(
        [
          { role: 'system', content: SYSTEM_PROMPT },
          {
            role: 'user',
            content: `Skill name: ${input.skill.name}\n\nSKILL.md:\n${definition}\n\nDraft overview:\n${draft}`,
          },
        ],
        { signal },
      );
      const text = completion.content
        .trim()
        .replace(/^```(?:markdown|md)?\n([\s\S]*?)\n```$/, '$1')
        .trim();
      failedAt = null;
      if (text === '') throw new EmptyOverviewError();
      return fitBytes(`${text}\n`, maxBytes);
    } catch (thrown) {
      // Aborted (the job was released or lost): no fallback, the result would be discarded anyway.
      if (input.signal?.aborted) throw thrown;
      const error =
        budget.aborted && !(thrown instanceof EmptyOverviewError)
          ? new Error(`the model gave no overview within the budget of ${budgetMs / 1000} s`, {
              cause: thrown,
            })
          : thrown;
      if (!fallback) throw error;
      // An empty answer came from a reachable model: no pause for the next skills.
      if (!(thrown instanceof EmptyOverviewError)) failedAt = now();
      options.onFallback?.(error, input.skill.name, { skipped: false });
      return draft;
    }
  };
}
