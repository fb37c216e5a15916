/**
 * The chat model a skill toolbox talks to: one method, `complete(messages)`, so any provider can be
 * plugged in. {@link createOpenAICompatibleModel} implements it over the OpenAI wire format.
 *
 * @see the @skillport/core README (Toolbox)
 */

/** One chat message, as in the OpenAI chat-completions format. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Per-call options of {@link ChatModel.complete}. */
export interface ChatCompleteOptions {
  /** Aborts the request; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** What a chat model answers: the assistant message text. */
export interface ChatCompletion {
  content: string;
}

/**
 * A chat model: takes a conversation, returns the assistant's reply.
 *
 * Implementations should reject with a {@link SkillportError} (see `ChatModelError`) carrying a
 * contract code, and with the signal's reason when aborted.
 *
 * @example
 * ```ts
 * const echo: ChatModel = {
 *   async complete(messages) {
 *     return { content: messages.at(-1)?.content ?? '' };
 *   },
 * };
 * ```
 */
export interface ChatModel {
  complete(messages: readonly ChatMessage[], options?: ChatCompleteOptions): Promise<ChatCompletion>;
}
