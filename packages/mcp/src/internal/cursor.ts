/**
 * Opaque pagination cursors of `list_skills`, `resources/list` and `prompts/list`: the position in
 * the registry's listing (user root, then agent root, by name) and the root it lists, base64url
 * JSON so clients treat them as opaque (MCP specification, pagination). The position is the
 * registry's own `next_cursor` when it pages by cursor (`GET /api/v1/skills` does), else an offset.
 */
import { McpInputError } from './errors.js';

/** Where the next page starts. */
export interface CursorState {
  /** The registry's cursor for the next page (from its `next_cursor`). */
  next?: string;
  /** Skills already returned, for a registry that does not page by cursor. */
  offset?: number;
  /** The root listed, when one was asked for. */
  targetUri?: string;
}

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/** Encodes a cursor. */
export function encodeCursor(state: CursorState): string {
  return toBase64Url(
    JSON.stringify({
      ...(state.next !== undefined ? { c: state.next } : { o: state.offset ?? 0 }),
      ...(state.targetUri ? { t: state.targetUri } : {}),
    }),
  );
}

/**
 * Decodes a cursor from an earlier page.
 *
 * @throws McpInputError for anything this server did not hand out
 */
export function decodeCursor(cursor: string): CursorState {
  const invalid = () =>
    new McpInputError(
      `Invalid cursor ${JSON.stringify(cursor.slice(0, 80))}: pass the next_cursor of the previous page unchanged`,
    );
  if (cursor.length > 4000 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let value: unknown;
  try {
    value = JSON.parse(fromBase64Url(cursor));
  } catch {
    throw invalid();
  }
  const c = (value as { c?: unknown })?.c;
  const o = (value as { o?: unknown })?.o;
  const t = (value as { t?: unknown })?.t;
  if (t !== undefined && typeof t !== 'string') throw invalid();
  const root = t === undefined ? {} : { targetUri: t };
  if (typeof c === 'string' && c.length <= 2048) return { next: c, ...root };
  if (typeof o !== 'number' || !Number.isSafeInteger(o) || o < 0) throw invalid();
  return { offset: o, ...root };
}
