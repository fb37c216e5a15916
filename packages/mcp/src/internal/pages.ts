/**
 * One page of the registry's listing, by cursor (see `cursor.ts`).
 */
import type { SkillListItem } from '@skillport/core';
import type { SkillRegistry } from '../registry.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { McpInputError } from './errors.js';

/** A page of skills. */
export interface SkillPage {
  skills: SkillListItem[];
  /** Skills in the listed root(s) in all. */
  total: number;
  /** Cursor of the next page; null on the last one. */
  nextCursor: string | null;
}

/**
 * Reads one page. A registry that pages by cursor (its result has `has_more`) is asked for the page
 * itself; one that does not is asked for the skills up to the page's end, and the page cut from them.
 *
 * @param options.limit - page size
 * @param options.cursor - the previous page's `nextCursor`; absent for the first page
 * @param options.targetUri - one root (must match the cursor's when both are given)
 * @throws McpInputError for a cursor this server did not hand out, or one of another root
 */
export async function readPage(
  registry: SkillRegistry,
  options: { limit: number; cursor?: string | undefined; targetUri?: string | undefined },
): Promise<SkillPage> {
  const state = options.cursor ? decodeCursor(options.cursor) : { offset: 0 };
  const targetUri = state.targetUri ?? options.targetUri;
  if (options.cursor && options.targetUri && state.targetUri !== options.targetUri) {
    throw new McpInputError(
      `This cursor pages through ${state.targetUri ?? 'both skill roots'}, not ${options.targetUri}: ` +
        'start again without a cursor to list another root',
    );
  }
  const root = targetUri ? { targetUri } : {};
  if (state.next !== undefined) {
    const listed = await registry.list({ limit: options.limit, cursor: state.next, ...root });
    return { skills: listed.skills, total: listed.total, nextCursor: nextOf(listed.next_cursor, root) };
  }
  const offset = state.offset ?? 0;
  const listed = await registry.list({ limit: offset + options.limit, ...root });
  if (listed.has_more !== undefined && offset === 0) {
    // The registry pages by cursor: this first page is the page asked for.
    return { skills: listed.skills, total: listed.total, nextCursor: nextOf(listed.next_cursor, root) };
  }
  const skills = listed.skills.slice(offset, offset + options.limit);
  const next = offset + skills.length;
  const nextCursor =
    skills.length === options.limit && next < listed.total ? encodeCursor({ offset: next, ...root }) : null;
  return { skills, total: listed.total, nextCursor };
}

function nextOf(next: string | undefined, root: { targetUri?: string }): string | null {
  return next ? encodeCursor({ next, ...root }) : null;
}
