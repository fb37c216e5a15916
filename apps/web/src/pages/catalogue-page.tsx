/** The catalogue: search as you type, filter by root and tag, sort, pages. State lives in the URL. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useApp } from '../app-context.js';
import { Icon } from '../components/icon.js';
import {
  type CatalogueItem,
  type CatalogueQuery,
  PAGE_SIZE,
  type CataloguePage as Page,
  type RootFilter,
  type SortOrder,
} from '../lib/catalogue-data.js';
import { isAbort } from '../lib/errors.js';
import { formatCount, formatDate, formatRelative, rootKind } from '../lib/format.js';
import { href, navigate, restoreScroll, skillHref } from '../lib/router.js';

const SORT_LABEL: Record<SortOrder, string> = {
  relevance: 'Best match',
  name: 'Name A–Z',
  'name-desc': 'Name Z–A',
  updated: 'Recently updated',
};
const ROOTS: Array<{ value: RootFilter; label: string; title: string }> = [
  { value: 'all', label: 'All', title: 'Your skills and the shared agent skills' },
  { value: 'user', label: 'Mine', title: 'Your own skills (viking://user/…/skills)' },
  { value: 'agent', label: 'Shared', title: 'Skills shared by the account (viking://agent/skills)' },
];

function queryFrom(params: URLSearchParams): CatalogueQuery {
  const root = params.get('root');
  const sort = params.get('sort');
  const q = params.get('q') ?? '';
  return {
    q,
    root: root === 'user' || root === 'agent' ? root : 'all',
    tag: params.get('tag') ?? '',
    sort:
      sort === 'name' || sort === 'name-desc' || sort === 'updated' || sort === 'relevance'
        ? sort
        : q
          ? 'relevance'
          : 'name',
    page: Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1),
  };
}

function linkFor(query: CatalogueQuery, change: Partial<CatalogueQuery>): string {
  const next = { ...query, page: 1, ...change };
  const defaultSort = next.q ? 'relevance' : 'name';
  return href('/', {
    q: next.q,
    root: next.root === 'all' ? null : next.root,
    tag: next.tag,
    sort: next.sort === defaultSort ? null : next.sort,
    page: next.page > 1 ? next.page : null,
  });
}

export function CataloguePage({ params }: { params: URLSearchParams }) {
  const { data, reportError } = useApp();
  const query = queryFrom(params);
  const key = linkFor(query, { page: query.page });
  const [page, setPage] = useState<Page | null>(null);
  // The page number and query the shown rows belong to (the URL may be ahead while loading).
  const [shown, setShown] = useState<{ page: number; q: string }>({ page: query.page, q: query.q });
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState<string | null>(null);
  const [text, setText] = useState(query.q);
  const searchRef = useRef<HTMLInputElement>(null);
  const typing = useRef<number | undefined>(undefined);

  useEffect(() => {
    if (document.activeElement !== searchRef.current) setText(query.q);
  }, [query.q]);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    data
      .load(query, controller.signal)
      .then((result) => {
        setPage(result);
        setShown({ page: query.page, q: query.q });
        setFailed(null);
        setLoading(false);
      })
      .catch((error: unknown) => {
        if (isAbort(error) || controller.signal.aborted) return;
        setFailed(reportError(error));
        setLoading(false);
      });
    return () => controller.abort();
  }, [key, data]);

  // A new page starts at the top of the list.
  const shownPage = useRef(query.page);
  useEffect(() => {
    if (shownPage.current === query.page) return;
    shownPage.current = query.page;
    window.scrollTo({ top: 0 });
  }, [query.page]);

  // Back to this list (from a skill, say): once its rows are shown, return to where the reader was.
  useEffect(() => {
    if (page && !loading) restoreScroll();
  }, [page, loading]);

  // "/" focuses the search box from anywhere on the page.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
      if (target.closest('input, textarea, select, [contenteditable]')) return;
      event.preventDefault();
      searchRef.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const explicitSort = params.get('sort');
  const onType = (value: string) => {
    setText(value);
    window.clearTimeout(typing.current);
    typing.current = window.setTimeout(() => {
      const q = value.trim();
      const keep = explicitSort !== null && !(explicitSort === 'relevance' && !q) ? query.sort : null;
      navigate(linkFor(query, { q, sort: keep ?? (q ? 'relevance' : 'name') }), { replace: true });
    }, 180);
  };

  const first = (shown.page - 1) * PAGE_SIZE + 1;
  const count = page?.items.length ?? 0;
  const total = page?.total ?? null;
  const lastPage = total !== null ? Math.max(1, Math.ceil(total / PAGE_SIZE)) : null;

  return (
    <div class="catalogue">
      <section class="hero">
        <h1>Skills</h1>
        <p class="muted">
          {page?.rootTotal != null
            ? `${formatCount(page.rootTotal)} ${page.rootTotal === 1 ? 'skill' : 'skills'} in ${query.root === 'all' ? 'your registry' : query.root === 'user' ? 'your own root' : 'the shared agent root'}`
            : 'Agent skills in this registry'}
        </p>
        <form class="searchbar" onSubmit={(e) => e.preventDefault()}>
          <Icon name="search" />
          <input
            ref={searchRef}
            type="search"
            value={text}
            placeholder="Search by what a skill does…"
            aria-label="Search skills"
            onInput={(e) => onType((e.target as HTMLInputElement).value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape' && text) {
                e.preventDefault();
                onType('');
              }
            }}
          />
          <kbd class="hide-narrow" title="Press / to search">
            /
          </kbd>
        </form>
      </section>

      <div class="toolbar">
        <fieldset class="segmented" aria-label="Root">
          {ROOTS.map((r) => (
            <a
              key={r.value}
              href={linkFor(query, { root: r.value })}
              aria-current={query.root === r.value ? 'true' : undefined}
              title={r.title}
            >
              {r.label}
            </a>
          ))}
        </fieldset>
        <label class="select">
          <span class="visually-hidden">Tag</span>
          <select
            value={query.tag}
            aria-label="Filter by tag"
            onChange={(e) => navigate(linkFor(query, { tag: (e.target as HTMLSelectElement).value }))}
          >
            <option value="">All tags</option>
            {query.tag && !page?.tags.some((t) => t.tag === query.tag) && (
              <option value={query.tag}>{query.tag}</option>
            )}
            {(page?.tags ?? []).slice(0, 200).map((t) => (
              <option key={t.tag} value={t.tag}>
                {t.tag} ({t.count})
              </option>
            ))}
          </select>
        </label>
        <label class="select">
          <span class="visually-hidden">Sort</span>
          <select
            value={page?.sort ?? query.sort}
            aria-label="Sort"
            disabled={(page?.sorts.length ?? 0) < 2}
            title={
              page?.mode === 'paged'
                ? 'Large registries list by name; search or filter to sort otherwise'
                : undefined
            }
            onChange={(e) =>
              navigate(linkFor(query, { sort: (e.target as HTMLSelectElement).value as SortOrder }))
            }
          >
            {(page?.sorts ?? [query.sort]).map((s) => (
              <option key={s} value={s}>
                {SORT_LABEL[s]}
              </option>
            ))}
          </select>
        </label>
      </div>

      {query.tag && (
        <p class="active-filters">
          Tag <bdi class="tag active">{query.tag}</bdi>
          <a class="link-button" href={linkFor(query, { tag: '' })}>
            Clear
          </a>
        </p>
      )}

      <p class="result-line" aria-live="polite" data-testid="result-line">
        {loading && !page ? (
          'Loading…'
        ) : failed && !page ? (
          failed
        ) : failed ? (
          // The rows below are the last ones loaded, not an answer to what the box now says.
          <>
            {failed} Still showing the earlier results
            {shown.q ? <> for “{isolated(shown.q)}”</> : ''}.
          </>
        ) : count === 0 ? (
          ''
        ) : (
          <>
            {`${formatCount(first)}–${formatCount(first + count - 1)}${total !== null ? ` of ${formatCount(total)}` : ''} `}
            {shown.q ? <>matches for “{isolated(shown.q)}”</> : total === 1 ? 'skill' : 'skills'}
          </>
        )}
      </p>

      <div class={`results ${loading ? 'is-loading' : ''}`} aria-busy={loading ? 'true' : 'false'}>
        {page && page.items.length === 0 && !loading && (
          <EmptyResults query={query} note={page.note} total={page.total} />
        )}
        <ul class="skill-list" data-testid="skill-list">
          {page?.items.map((item) => (
            <SkillRow key={item.uri} item={item} activeTag={query.tag} query={query} />
          ))}
        </ul>
        {page?.note && page.items.length > 0 && <p class="callout info">{page.note}</p>}
      </div>

      {page && (query.page > 1 || page.hasNext) && (
        <nav class="pager" aria-label="Pages">
          <a
            class="button"
            {...(query.page > 1 ? { href: linkFor(query, { page: query.page - 1 }) } : {})}
            aria-disabled={query.page <= 1 ? 'true' : undefined}
            rel="prev"
          >
            <Icon name="chevronLeft" /> Previous
          </a>
          <span class="muted">
            Page {formatCount(query.page)}
            {lastPage !== null ? ` of ${formatCount(lastPage)}` : ''}
          </span>
          <a
            class="button"
            {...(page.hasNext ? { href: linkFor(query, { page: query.page + 1 }) } : {})}
            aria-disabled={!page.hasNext ? 'true' : undefined}
            rel="next"
          >
            Next <Icon name="chevronRight" />
          </a>
        </nav>
      )}
    </div>
  );
}

/**
 * What the user typed, set apart from the sentence that repeats it (`<bdi>`): right-to-left text or
 * direction marks in a query cannot reorder the words and figures around it.
 */
function isolated(text: string) {
  return <bdi data-testid="echoed-query">{text}</bdi>;
}

function EmptyResults({
  query,
  note,
  total,
}: {
  query: CatalogueQuery;
  note: string | null;
  total: number | null;
}) {
  if (note) return <p class="callout info">{note}</p>;
  // A page past the end (a bookmark from when there were more skills, a number typed into the
  // address): the rows are there, on earlier pages.
  if (query.page > 1 && total !== 0) {
    const last = total !== null ? Math.max(1, Math.ceil(total / PAGE_SIZE)) : 1;
    return (
      <div class="empty-state small">
        <h2>No page {formatCount(query.page)}</h2>
        <p class="muted">
          {total !== null
            ? `${query.q || query.tag ? 'These results fill' : 'The list fills'} ${formatCount(last)} ${last === 1 ? 'page' : 'pages'}.`
            : 'The list ends before this page.'}
        </p>
        <a class="button" href={linkFor(query, { page: last })}>
          Go to page {formatCount(last)}
        </a>
      </div>
    );
  }
  if (query.q || query.tag) {
    return (
      <div class="empty-state small">
        <h2>No skills match</h2>
        <p class="muted">Try other words, another root, or clear the tag.</p>
      </div>
    );
  }
  return (
    <div class="empty-state small">
      <Icon name="logo" />
      <h2>No skills here yet</h2>
      <p class="muted">
        Add a skill folder, a zip or a SKILL.md, or use the CLI: <code>skillport add-skill ./my-skill</code>
      </p>
      <a class="button primary" href={href('/add')}>
        <Icon name="plus" /> Add a skill
      </a>
    </div>
  );
}

function SkillRow({
  item,
  activeTag,
  query,
}: {
  item: CatalogueItem;
  activeTag: string;
  query: CatalogueQuery;
}) {
  const kind = rootKind(item.root_uri);
  return (
    <li class="skill-row" data-skill={item.name}>
      <div class="skill-row-main">
        <a class="skill-name" href={skillHref(item.name, kind)}>
          {item.name}
        </a>
        {kind === 'agent' && (
          <span class="root-badge agent" title={`Shared with the account: ${item.root_uri}`}>
            <Icon name="users" />
            shared
          </span>
        )}
        {item.score !== undefined && (
          <span class="score" title="Relevance (0–1)">
            {item.score.toFixed(2)}
          </span>
        )}
      </div>
      <p class="skill-desc">{item.description}</p>
      <div class="skill-meta">
        {item.tags.slice(0, 6).map((tag) => (
          <a
            key={tag}
            class={`tag ${tag.toLowerCase() === activeTag.toLowerCase() ? 'active' : ''}`}
            dir="auto"
            href={linkFor(query, { tag })}
          >
            {tag}
          </a>
        ))}
        {item.tags.length > 6 && <span class="muted small">+{item.tags.length - 6}</span>}
        <time class="muted small" dateTime={item.updated_at} title={formatDate(item.updated_at)}>
          updated {formatRelative(item.updated_at)}
        </time>
      </div>
    </li>
  );
}
