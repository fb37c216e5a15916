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
  /** Told about failures that were replaced by the fallback. */
  onFallback?: (error: unknown, skillName: string) => void;
  /** Writes the deterministic draft (and fallback); default {@link defaultSummarizer} in this thread. */
  draft?: OverviewSummarizer;
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
 * `maxBytes`. Failures fall back to the deterministic extractor unless `fallback: false`.
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
  return async (input) => {
    const draft = await drafter(input);
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
        input.signal ? { signal: input.signal } : {},
      );
      const text = completion.content
        .trim()
        .replace(/^```(?:markdown|md)?\n([\s\S]*?)\n```$/, '$1')
        .trim();
      if (text === '') throw new Error('the model returned an empty overview');
      return fitBytes(`${text}\n`, maxBytes);
    } catch (error) {
      // Aborted (the job was released or lost): no fallback, the result would be discarded anyway.
      if (!fallback || input.signal?.aborted) throw error;
      options.onFallback?.(error, input.skill.name);
      return draft;
    }
  };
}
