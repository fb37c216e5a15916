/**
 * A {@link ChatModel} over the OpenAI chat-completions wire format (`POST {baseURL}/chat/completions`)
 * — OpenAI, Azure-style gateways, Ollama, vLLM, LM Studio, llama.cpp server — using global `fetch`,
 * with per-attempt timeouts and retries on rate limits and server errors.
 */
import type { ChatCompleteOptions, ChatCompletion, ChatMessage, ChatModel } from './chat-model.js';
import { ChatModelError, codeForUpstreamStatus } from './chat-model-error.js';
import { readCompletion, readErrorMessage } from './internal/read-completion.js';
import { backoffMs, isRetryableStatus, retryAfterMs, sleep } from './internal/retry.js';

/** Options of {@link createOpenAICompatibleModel}. */
export interface OpenAICompatibleModelOptions {
  /**
   * API base including the version path, e.g. `https://api.openai.com/v1`, `http://localhost:11434/v1`;
   * a query string is kept (`…/openai/deployments/<name>?api-version=2024-10-21` calls
   * `…/openai/deployments/<name>/chat/completions?api-version=2024-10-21`).
   */
  baseURL: string;
  /** Sent as `Authorization: Bearer <apiKey>`; omitted when absent (local servers). */
  apiKey?: string;
  /** Model id sent as `model`, e.g. `gpt-4o-mini`, `llama3.2`. */
  model: string;
  /** Per-attempt timeout in milliseconds, a positive number; `Infinity` for none. Default 60 000. */
  timeoutMs?: number;
  /** Retries after the first attempt on 408/409/429/5xx, network errors and timeouts. Default 2. */
  maxRetries?: number;
  /** Base of the exponential backoff in milliseconds (doubled each retry, capped at 8 s). Default 500. */
  retryBaseDelayMs?: number;
  /** `fetch` implementation. Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Extra request headers (e.g. `OpenAI-Organization`). */
  headers?: Record<string, string>;
  /** Sampling temperature, sent as `temperature` when given. */
  temperature?: number;
  /** Completion length cap, sent as `max_tokens` when given. */
  maxTokens?: number;
}

/** Longest delay `setTimeout` honours; a longer one fires after 1 ms. */
const MAX_TIMER_MS = 2_147_483_647;

function timeoutController(
  ms: number,
  outer: AbortSignal | undefined,
): { signal: AbortSignal; timedOut: () => boolean; dispose: () => void } {
  const controller = new AbortController();
  let timedOut = false;
  // Infinity sets no timer; longer than a timer can wait (2^31 - 1 ms, about 24.8 days) waits that
  // long: given as is, setTimeout fires both after 1 ms.
  const timer =
    ms === Number.POSITIVE_INFINITY
      ? undefined
      : setTimeout(
          () => {
            timedOut = true;
            controller.abort(new Error(`timed out after ${ms} ms`));
          },
          Math.min(ms, MAX_TIMER_MS),
        );
  const onAbort = (): void => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose: () => {
      if (timer !== undefined) clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * Creates a {@link ChatModel} that calls an OpenAI-compatible chat-completions endpoint.
 *
 * The request is `POST {baseURL}/chat/completions` with JSON `{model, messages}` (plus `temperature`
 * and `max_tokens` when set) and `Authorization: Bearer <apiKey>` when a key is given. The reply's
 * `choices[0].message.content` is returned (an array of text parts is joined). Each attempt has its
 * own timeout; 408, 409, 429 and 5xx answers, network errors and timeouts are retried with
 * exponential backoff, or after the server's `Retry-After` / `retry-after-ms` when it sends one
 * (up to 60 s).
 *
 * @param options - `baseURL` and `model` (required), `apiKey`, `timeoutMs` (default 60 000 ms),
 *   `maxRetries` (default 2), `retryBaseDelayMs` (default 500 ms), `fetch` (default global),
 *   `headers`, `temperature`, `maxTokens`
 * @returns a {@link ChatModel}
 * @throws SkillportError `INVALID_ARGUMENT` at creation when `baseURL` is not an http(s) URL or
 *   carries a user name or password, `model` is empty or `timeoutMs` is not positive. `complete()` rejects with
 *   {@link ChatModelError} (codes: `RESOURCE_EXHAUSTED`, `UNAVAILABLE`, `DEADLINE_EXCEEDED`,
 *   `UNAUTHENTICATED`, `PERMISSION_DENIED`, `NOT_FOUND`, `INVALID_ARGUMENT`, `PROCESSING_ERROR`)
 *   or with the caller's abort reason.
 * @example
 * ```ts
 * const model = createOpenAICompatibleModel({ baseURL: 'http://localhost:11434/v1', model: 'llama3.2' });
 * const { content } = await model.complete([{ role: 'user', content: 'Say hi' }]);
 * ```
 * @see the @skillport/core README (Toolbox)
 */
export function createOpenAICompatibleModel(options: OpenAICompatibleModelOptions): ChatModel {
  let base: URL;
  try {
    base = new URL(options.baseURL);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    throw new ChatModelError(
      'INVALID_ARGUMENT',
      `baseURL must be an http(s) URL such as "http://localhost:11434/v1", got ${JSON.stringify(String(options.baseURL)).slice(0, 100)}`,
    );
  }
  if (base.username !== '' || base.password !== '') {
    // fetch refuses such a URL at every attempt ("could not be reached" after the retries), and each
    // error message and `details.url` quoted the password.
    base.username = '';
    base.password = '';
    throw new ChatModelError(
      'INVALID_ARGUMENT',
      `baseURL must not carry a user name or password (${base.href.replace('//', '//***@').slice(0, 200)}): ` +
        'give the key as apiKey, or an Authorization header of your own in headers',
    );
  }
  if (typeof options.model !== 'string' || options.model.trim() === '') {
    throw new ChatModelError(
      'INVALID_ARGUMENT',
      'model must name the model to call, e.g. "gpt-4o-mini" or "llama3.2"',
    );
  }
  // The path is extended, the query kept: an Azure-style base such as
  // `https://x.openai.azure.com/openai/deployments/d?api-version=2024-10-21` carries its API version
  // there, and appending to the whole href put the path into the query.
  base.pathname = `${base.pathname.replace(/\/+$/, '')}/chat/completions`;
  base.hash = '';
  const url = base.href;
  const timeoutMs = options.timeoutMs ?? 60_000;
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0)) {
    throw new ChatModelError(
      'INVALID_ARGUMENT',
      `timeoutMs must be a positive number of milliseconds (Infinity for no timeout), got ${String(timeoutMs)}`,
    );
  }
  const maxRetries = Math.max(0, options.maxRetries ?? 2);
  const baseDelay = options.retryBaseDelayMs ?? 500;
  const doFetch = options.fetch ?? globalThis.fetch;
  const headers: Record<string, string> = {
    ...options.headers,
    'content-type': 'application/json',
    accept: 'application/json',
  };
  if (options.apiKey !== undefined && options.apiKey !== '')
    headers.authorization = `Bearer ${options.apiKey}`;

  async function complete(
    messages: readonly ChatMessage[],
    callOptions: ChatCompleteOptions = {},
  ): Promise<ChatCompletion> {
    const payload: Record<string, unknown> = { model: options.model, messages };
    if (options.temperature !== undefined) payload.temperature = options.temperature;
    if (options.maxTokens !== undefined) payload.max_tokens = options.maxTokens;
    const body = JSON.stringify(payload);
    const outer = callOptions.signal;

    for (let attempt = 1; ; attempt++) {
      if (outer?.aborted) throw outer.reason;
      const retriesLeft = attempt <= maxRetries;
      const timer = timeoutController(timeoutMs, outer);
      let waitMs: number | undefined;
      try {
        const response = await doFetch(url, { method: 'POST', headers, body, signal: timer.signal });
        const text = await response.text();
        if (response.ok) return readCompletion(text, url, attempt);
        const upstreamMessage = readErrorMessage(text);
        const code = codeForUpstreamStatus(response.status);
        const statusText = response.statusText ? ` ${response.statusText}` : '';
        const failure = new ChatModelError(
          code,
          `Chat model at ${url} answered ${response.status}${statusText}: ${upstreamMessage}${attempt > 1 ? ` (after ${attempt} attempts)` : ''}`,
          { upstreamStatus: response.status, upstreamMessage, url, attempts: attempt },
        );
        if (!isRetryableStatus(response.status) || !retriesLeft) throw failure;
        waitMs = retryAfterMs(response.headers);
      } catch (error) {
        if (error instanceof ChatModelError) throw error;
        if (outer?.aborted) throw outer.reason;
        const failure = timer.timedOut()
          ? new ChatModelError(
              'DEADLINE_EXCEEDED',
              `Chat model at ${url} did not answer within ${timeoutMs} ms${attempt > 1 ? ` (after ${attempt} attempts)` : ''}; raise timeoutMs or check the server`,
              { url, attempts: attempt, cause: error },
            )
          : new ChatModelError(
              'UNAVAILABLE',
              `Chat model at ${url} could not be reached: ${error instanceof Error ? error.message : String(error)}${attempt > 1 ? ` (after ${attempt} attempts)` : ''}`,
              { url, attempts: attempt, cause: error },
            );
        if (!retriesLeft) throw failure;
      } finally {
        timer.dispose();
      }
      await sleep(waitMs ?? backoffMs(attempt - 1, baseDelay), outer);
    }
  }

  return { complete };
}
