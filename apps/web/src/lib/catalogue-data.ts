/**
 * Where the catalogue's rows come from, sized for registries of any size:
 *
 * - **search** (a query is typed): `find` returns the best matches (at most {@link SEARCH_LIMIT});
 *   tag filter, sort and pages apply to them in the browser.
 * - **complete** (no query, the root holds at most {@link COMPLETE_LIMIT} skills): the whole list is
 *   fetched once; tag filter, every sort and pages are local and instant.
 * - **paged** (no query, more skills than that): only the rows of the page are fetched, in the
 *   server's order (by name, user root first). With a server that pages by cursor (`next_cursor` in
 *   the list result) any page is one request; otherwise the page is cut from a `node_limit` window,
 *   which stays cheap up to {@link WINDOW_LIMIT} rows, and search or filters narrow beyond that.
 *   A tag filter on a large root asks `find` for the tag and keeps exact tag matches.
 *
 * Nothing here holds more than {@link COMPLETE_LIMIT} (or {@link WINDOW_LIMIT}) rows, so a registry
 * of 100,000 skills costs the browser the same as one of 1,000.
 */
import type { AsyncHTTPClient } from '@skillport/sdk-browser';
import { rootTarget } from './format.js';

/** One row of the catalogue (a list item, with `score` when it came from search). */
export interface CatalogueItem {
  name: string;
  uri: string;
  root_uri: string;
  description: string;
  tags: string[];
  updated_at: string;
  score?: number;
}

export type RootFilter = 'all' | 'user' | 'agent';
export type SortOrder = 'relevance' | 'name' | 'name-desc' | 'updated';

/** What the reader asked for (the catalogue's URL). */
export interface CatalogueQuery {
  q: string;
  root: RootFilter;
  tag: string;
  sort: SortOrder;
  /** 1-based. */
  page: number;
}

/** One page of rows and what the page needs to say about them. */
export interface CataloguePage {
  mode: 'search' | 'complete' | 'paged' | 'tag-search';
  items: CatalogueItem[];
  /** Rows matching the query, when known. */
  total: number | null;
  /** Skills in the chosen root(s), whatever the filters. */
  rootTotal: number | null;
  hasNext: boolean;
  /** Sort orders that work in this mode. */
  sorts: SortOrder[];
  /** The sort actually applied. */
  sort: SortOrder;
  /** Tags of the rows known (all of them in complete mode), most used first. */
  tags: Array<{ tag: string; count: number }>;
  /** Something the reader should know (a cut, a limit). */
  note: string | null;
}

export const PAGE_SIZE = 30;
export const COMPLETE_LIMIT = 1000;
export const WINDOW_LIMIT = 3000;
export const SEARCH_LIMIT = 200;
/** Pages skipped per request when jumping to a far page of a root paged by cursor (990 rows). */
const JUMP_PAGES = 33;

/** Sorts rows (a copy). `relevance` keeps the order given (best first). */
export function sortItems(items: readonly CatalogueItem[], sort: SortOrder): CatalogueItem[] {
  const copy = [...items];
  if (sort === 'name')
    copy.sort((a, b) => a.name.localeCompare(b.name) || a.root_uri.localeCompare(b.root_uri));
  if (sort === 'name-desc')
    copy.sort((a, b) => b.name.localeCompare(a.name) || a.root_uri.localeCompare(b.root_uri));
  if (sort === 'updated')
    copy.sort((a, b) => (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0));
  return copy;
}

/** Rows carrying `tag` exactly (case-insensitive); all rows for an empty tag. */
export function filterByTag(items: readonly CatalogueItem[], tag: string): CatalogueItem[] {
  if (!tag) return [...items];
  const wanted = tag.toLowerCase();
  return items.filter((item) => item.tags.some((t) => t.toLowerCase() === wanted));
}

/** Tag counts over rows, most used first, then by name. */
export function countTags(items: readonly CatalogueItem[]): Array<{ tag: string; count: number }> {
  const counts = new Map<string, number>();
  for (const item of items) for (const tag of item.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts.entries()]
    .map(([tag, count]) => ({ tag, count }))
    .sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
}

/** The rows of one page of a local list. */
export function pageOf<T>(items: readonly T[], page: number, size = PAGE_SIZE): T[] {
  const start = (Math.max(1, page) - 1) * size;
  return items.slice(start, start + size);
}

/** `{signal}` when there is one (exact optional properties). */
function sig(signal: AbortSignal | undefined): { signal?: AbortSignal } {
  return signal ? { signal } : {};
}

type ListResult = Awaited<ReturnType<AsyncHTTPClient['listSkills']>> & { next_cursor?: string | null };

/** Fetches pages for the catalogue; keeps what it fetched until {@link CatalogueData.invalidate}. */
export class CatalogueData {
  readonly #client: AsyncHTTPClient;
  /** Whole lists of roots small enough to hold, by root filter. */
  readonly #complete = new Map<RootFilter, { items: CatalogueItem[]; total: number }>();
  /** Totals of roots too large to hold. */
  readonly #totals = new Map<RootFilter, number>();
  /** Cursors of paged roots: the cursor that starts page n (index n - 1). */
  readonly #cursors = new Map<RootFilter, Array<string | null>>();

  constructor(client: AsyncHTTPClient) {
    this.#client = client;
  }

  /** Forgets every cached list (after an add, update or delete). */
  invalidate(): void {
    this.#complete.clear();
    this.#totals.clear();
    this.#cursors.clear();
  }

  /** The page the query asks for. */
  async load(query: CatalogueQuery, signal?: AbortSignal): Promise<CataloguePage> {
    if (query.q.trim() !== '') return this.#search(query, query.q.trim(), 'search', signal);
    const complete = await this.#completeList(query.root, signal);
    if (complete) return this.#fromComplete(query, complete);
    if (query.tag) return this.#search(query, query.tag, 'tag-search', signal);
    return this.#paged(query, signal);
  }

  #target(root: RootFilter): { target_uri?: string } {
    return root === 'all' ? {} : { target_uri: rootTarget(root) };
  }

  async #completeList(root: RootFilter, signal?: AbortSignal) {
    const cached = this.#complete.get(root);
    if (cached) return cached;
    if (this.#totals.has(root)) return null;
    // A first small page tells the size of the root without fetching a large one.
    const first = (await this.#client.listSkills(
      { node_limit: PAGE_SIZE, ...this.#target(root) },
      sig(signal),
    )) as ListResult;
    if (first.total > COMPLETE_LIMIT) {
      this.#totals.set(root, first.total);
      this.#cursors.set(root, [null, ...(first.next_cursor ? [first.next_cursor] : [])]);
      return null;
    }
    const all =
      first.total <= first.skills.length
        ? first
        : ((await this.#client.listSkills(
            { node_limit: COMPLETE_LIMIT, ...this.#target(root) },
            sig(signal),
          )) as ListResult);
    const entry = { items: all.skills as CatalogueItem[], total: all.total };
    this.#complete.set(root, entry);
    return entry;
  }

  #fromComplete(query: CatalogueQuery, list: { items: CatalogueItem[]; total: number }): CataloguePage {
    const sort = query.sort === 'relevance' ? 'name' : query.sort;
    const filtered = sortItems(filterByTag(list.items, query.tag), sort);
    return {
      mode: 'complete',
      items: pageOf(filtered, query.page),
      total: filtered.length,
      rootTotal: list.total,
      hasNext: query.page * PAGE_SIZE < filtered.length,
      sorts: ['name', 'name-desc', 'updated'],
      sort,
      tags: countTags(list.items),
      note: null,
    };
  }

  async #search(
    query: CatalogueQuery,
    text: string,
    mode: 'search' | 'tag-search',
    signal?: AbortSignal,
  ): Promise<CataloguePage> {
    const limit = mode === 'tag-search' ? 1000 : SEARCH_LIMIT;
    const found = await this.#client.findSkills(text, { limit, ...this.#target(query.root), ...sig(signal) });
    const hits = found.skills as CatalogueItem[];
    const sort = mode === 'tag-search' && query.sort === 'relevance' ? 'name' : query.sort;
    const filtered = sortItems(filterByTag(hits, query.tag), sort);
    const cut = hits.length >= limit;
    return {
      mode,
      items: pageOf(filtered, query.page),
      total: filtered.length,
      rootTotal: this.#complete.get(query.root)?.total ?? this.#totals.get(query.root) ?? null,
      hasNext: query.page * PAGE_SIZE < filtered.length,
      sorts:
        mode === 'search' ? ['relevance', 'name', 'name-desc', 'updated'] : ['name', 'name-desc', 'updated'],
      sort,
      tags: countTags(hits),
      note: cut
        ? mode === 'search'
          ? `Showing the ${limit} best matches; refine the search to see others.`
          : `Showing the first ${limit} skills found with this tag.`
        : null,
    };
  }

  async #paged(query: CatalogueQuery, signal?: AbortSignal): Promise<CataloguePage> {
    const total = this.#totals.get(query.root) ?? 0;
    const cursors = this.#cursors.get(query.root) ?? [null];
    const base = {
      mode: 'paged' as const,
      total,
      rootTotal: total,
      sorts: ['name'] as SortOrder[],
      sort: 'name' as SortOrder,
    };
    const usesCursor = cursors.length > 1;
    let items: CatalogueItem[];
    let hasNext: boolean;
    let note: string | null = null;
    if (usesCursor) {
      // A page past the known cursors: skip forward from the nearest known one in jumps that end on
      // page boundaries (at most JUMP_PAGES pages each), noting the cursor each jump ends at.
      // `cursors[n - 1]` starts page n (null: the first page); pages not reached yet are holes.
      let known = Math.min(cursors.length, query.page);
      while (known > 1 && cursors[known - 1] === undefined) known--;
      while (known < query.page) {
        const from = cursors[known - 1] ?? null;
        const pages = Math.min(query.page - known, JUMP_PAGES);
        const jump = (await this.#client.listSkills(
          { node_limit: pages * PAGE_SIZE, ...this.#target(query.root), ...(from ? { cursor: from } : {}) },
          sig(signal),
        )) as ListResult;
        if (!jump.next_cursor || jump.skills.length < pages * PAGE_SIZE) break;
        known += pages;
        cursors[known - 1] = jump.next_cursor;
      }
      if (known < query.page) {
        // The root ends before this page.
        return { ...base, items: [], hasNext: false, tags: [], note: null };
      }
      const cursor = cursors[query.page - 1] ?? null;
      const result = (await this.#client.listSkills(
        { node_limit: PAGE_SIZE, ...this.#target(query.root), ...(cursor ? { cursor } : {}) },
        sig(signal),
      )) as ListResult;
      items = result.skills as CatalogueItem[];
      if (result.next_cursor) cursors[query.page] = result.next_cursor;
      hasNext = Boolean(result.next_cursor);
    } else {
      const end = query.page * PAGE_SIZE;
      if (end > WINDOW_LIMIT) {
        return {
          ...base,
          items: [],
          hasNext: false,
          tags: [],
          note: `This server lists at most ${WINDOW_LIMIT.toLocaleString('en')} skills page by page; search, or pick a root or a tag, to reach the others.`,
        };
      }
      const result = await this.#client.listSkills(
        { node_limit: end, ...this.#target(query.root) },
        sig(signal),
      );
      items = pageOf(result.skills as CatalogueItem[], query.page);
      hasNext = end < Math.min(result.total, WINDOW_LIMIT);
      if (!hasNext && result.total > WINDOW_LIMIT) {
        note = `This server lists at most ${WINDOW_LIMIT.toLocaleString('en')} skills page by page; search, or pick a root or a tag, to reach the others.`;
      }
    }
    return { ...base, items, hasNext, tags: countTags(items), note };
  }
}
