/**
 * One page of the registry's listing, by offset cursor (see `cursor.ts`).
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
 * Reads one page.
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
  const listed = await registry.list({
    limit: state.offset + options.limit,
    ...(targetUri ? { targetUri } : {}),
  });
  const skills = listed.skills.slice(state.offset, state.offset + options.limit);
  const next = state.offset + skills.length;
  const nextCursor =
    skills.length === options.limit && next < listed.total
      ? encodeCursor({ offset: next, ...(targetUri ? { targetUri } : {}) })
      : null;
  return { skills, total: listed.total, nextCursor };
}
