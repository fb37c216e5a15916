/** Turning client errors into sentences for people. */
import { isApiError, isNetworkError, isTimeoutError } from '@skillport/sdk-browser';

/** True when the error means "no key, or the key was refused". */
export function isAuthError(error: unknown): boolean {
  return isApiError(error) && error.status === 401;
}

/** A short explanation of a failed call. */
export function describeError(error: unknown): string {
  if (isApiError(error)) {
    if (error.status === 401) return 'This server needs an API key, or the key was refused.';
    if (error.status === 403 && /root/i.test(error.message)) {
      return 'Root keys manage accounts and keys only; use a user or admin key to read and write skills.';
    }
    if (error.status === 429) return 'Too many requests; wait a moment and try again.';
    return error.message;
  }
  if (isTimeoutError(error)) return 'The server took too long to answer; try again.';
  if (isNetworkError(error)) return 'Cannot reach the Skillport server. Is it running?';
  if (error instanceof DOMException && error.name === 'AbortError') return 'Cancelled.';
  return error instanceof Error ? error.message : String(error);
}

/** True for an abort caused by a newer request replacing this one. */
export function isAbort(error: unknown): boolean {
  return (
    (error instanceof DOMException && error.name === 'AbortError') ||
    (error instanceof Error && error.name === 'AbortError')
  );
}
