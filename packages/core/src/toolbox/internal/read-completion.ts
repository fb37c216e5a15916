/**
 * Reading chat-completions answers: the assistant text of a 2xx reply, and the server's own message
 * of an error reply (OpenAI `{error: {message}}`, Ollama `{error: "..."}`, plain text).
 */

import type { ChatCompletion } from '../chat-model.js';
import { ChatModelError } from '../chat-model-error.js';

const SHOWN_MAX = 300;

function truncate(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SHOWN_MAX ? `${flat.slice(0, SHOWN_MAX)}…` : flat;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The server's error message from an error body, or the body itself (truncated). */
export function readErrorMessage(text: string): string {
  try {
    const parsed: unknown = JSON.parse(text);
    if (isRecord(parsed)) {
      const error = parsed.error;
      if (typeof error === 'string' && error !== '') return truncate(error);
      if (isRecord(error) && typeof error.message === 'string') return truncate(error.message);
      if (typeof parsed.message === 'string') return truncate(parsed.message);
      if (typeof parsed.detail === 'string') return truncate(parsed.detail);
    }
  } catch {
    // not JSON: fall through to the raw text
  }
  return text.trim() === '' ? '(empty body)' : truncate(text);
}

function malformed(url: string, attempts: number, why: string, text: string): ChatModelError {
  return new ChatModelError(
    'PROCESSING_ERROR',
    `Chat model at ${url} sent a reply that is not a chat completion (${why}); expected {"choices": [{"message": {"content": "..."}}]}, got: ${truncate(text) || '(empty body)'}`,
    { url, attempts },
  );
}

/**
 * The assistant text of a chat-completions reply: `choices[0].message.content`, a string or an
 * array of `{type: 'text', text}` parts.
 *
 * @throws ChatModelError `PROCESSING_ERROR` for anything else (not JSON, no choices, a refusal, …)
 */
export function readCompletion(text: string, url: string, attempts: number): ChatCompletion {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw malformed(url, attempts, 'not JSON', text);
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.choices) || parsed.choices.length === 0) {
    throw malformed(url, attempts, 'no choices', text);
  }
  const choice: unknown = parsed.choices[0];
  const message = isRecord(choice) ? choice.message : undefined;
  if (!isRecord(message)) throw malformed(url, attempts, 'choices[0].message missing', text);
  const content = message.content;
  if (typeof content === 'string') return { content };
  if (Array.isArray(content)) {
    const parts = content.filter(isRecord).filter((part) => typeof part.text === 'string');
    if (parts.length > 0) return { content: parts.map((part) => part.text as string).join('') };
  }
  if (typeof message.refusal === 'string') {
    throw new ChatModelError(
      'PROCESSING_ERROR',
      `Chat model at ${url} refused: ${truncate(message.refusal)}`,
      {
        url,
        attempts,
        upstreamMessage: message.refusal,
      },
    );
  }
  throw malformed(url, attempts, 'choices[0].message.content is not text', text);
}
