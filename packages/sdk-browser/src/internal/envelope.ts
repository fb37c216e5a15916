import { type ApiError, createApiError } from '../errors.js';

/** Parses a response body that should be JSON; `undefined` when it is empty or not JSON. */
export function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `result` of a success envelope, or the body itself when it is not one (e.g. `GET /health`). */
export function unwrapResult(body: unknown): unknown {
  if (isRecord(body) && body.status === 'ok' && 'result' in body) return body.result;
  return body;
}

/** Builds the typed error for a non-2xx answer from its (possibly non-envelope) body. */
export function errorFromResponse(init: {
  status: number;
  statusText: string;
  bodyText: string;
  method: string;
  url: string;
  requestId: string | undefined;
}): ApiError {
  const body = parseJson(init.bodyText);
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  const code = typeof error?.code === 'string' ? error.code : '';
  const fallbackMessage = `HTTP ${init.status} ${init.statusText}`.trim();
  const message =
    typeof error?.message === 'string' && error.message !== ''
      ? error.message
      : init.bodyText.trim()
        ? `${fallbackMessage}: ${init.bodyText.trim().slice(0, 300)}`
        : fallbackMessage;
  return createApiError({
    status: init.status,
    code: code || (init.status >= 500 ? 'INTERNAL' : 'UNKNOWN'),
    message,
    details: isRecord(error?.details) ? error.details : undefined,
    requestId: init.requestId,
    method: init.method,
    url: init.url,
  });
}
