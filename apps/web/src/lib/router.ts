/**
 * Hash routes, so the page works from any path the server is mounted at and needs no server-side
 * fallback: `#/` catalogue (query: q, root, tag, sort, page), `#/skill/<name>` (query: root, tab,
 * file), `#/add` (query: update, root).
 */
import { useEffect, useState } from 'preact/hooks';

/** A parsed location. */
export interface Route {
  page: 'catalogue' | 'skill' | 'add' | 'not-found';
  /** Skill name of `#/skill/<name>`. */
  name: string;
  params: URLSearchParams;
}

/** Parses a `location.hash`. */
export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#/, '') || '/';
  const q = raw.indexOf('?');
  const path = q >= 0 ? raw.slice(0, q) : raw;
  const params = new URLSearchParams(q >= 0 ? raw.slice(q + 1) : '');
  if (path === '/' || path === '') return { page: 'catalogue', name: '', params };
  if (path === '/add') return { page: 'add', name: '', params };
  const skill = /^\/skill\/([^/]+)$/.exec(path);
  if (skill?.[1]) {
    let name = skill[1];
    try {
      name = decodeURIComponent(name);
    } catch {
      // keep the raw segment
    }
    return { page: 'skill', name, params };
  }
  return { page: 'not-found', name: '', params };
}

/** Builds a hash link; empty parameters are left out. */
export function href(path: string, params: Record<string, string | number | null | undefined> = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== '') search.set(key, String(value));
  }
  const query = search.toString();
  return `#${path}${query ? `?${query}` : ''}`;
}

/** Link to a skill page. */
export function skillHref(
  name: string,
  root?: string | null,
  extra: Record<string, string | null> = {},
): string {
  return href(`/skill/${encodeURIComponent(name)}`, { root: root ?? null, ...extra });
}

/** Goes to a hash link; `replace` keeps history clean for filter changes while typing. */
export function navigate(target: string, options: { replace?: boolean } = {}): void {
  if (options.replace) {
    window.history.replaceState(null, '', target);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } else {
    window.location.hash = target.replace(/^#/, '');
  }
}

/** The current route, updated on every hash change. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(window.location.hash));
  useEffect(() => {
    const update = () => setRoute(parseHash(window.location.hash));
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}

/**
 * Where the reader was on each history entry: Back and Forward (and a reload) return there.
 *
 * The browser's own restoration cannot do it on these pages: when it runs, the page shown is still
 * "Loading…", shorter than the spot it should return to. So the scroll position is kept in the
 * entry's `history.state`, and a page puts it back with {@link restoreScroll} once its content is
 * there (the catalogue when its rows arrive, a skill when it is shown).
 */
let pendingScroll: number | null = null;

function savedScroll(): number | null {
  const state: unknown = window.history.state;
  const y = state && typeof state === 'object' ? (state as { scrollY?: unknown }).scrollY : undefined;
  return typeof y === 'number' && Number.isFinite(y) && y > 0 ? y : null;
}

/** Keeps the scroll position of the current entry up to date; call once, in the app's shell. */
export function useScrollMemory(): void {
  useEffect(() => {
    if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';
    pendingScroll = savedScroll();
    let timer: number | undefined;
    const save = () => {
      window.clearTimeout(timer);
      timer = undefined;
      const state: unknown = window.history.state;
      const base = state && typeof state === 'object' ? (state as Record<string, unknown>) : {};
      if (base.scrollY === window.scrollY) return;
      try {
        window.history.replaceState({ ...base, scrollY: window.scrollY }, '');
      } catch {
        // The browser throttles history calls; the next scroll saves it.
      }
    };
    const onScroll = () => {
      if (timer === undefined) timer = window.setTimeout(save, 150);
    };
    // A click on a link saves at once, before the link changes the entry.
    const onClick = () => save();
    // A new entry (a link, `navigate`) has no saved position; an entry gone back to has one.
    const onMove = () => {
      window.clearTimeout(timer);
      timer = undefined;
      pendingScroll = savedScroll();
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    document.addEventListener('click', onClick, true);
    window.addEventListener('popstate', onMove);
    window.addEventListener('hashchange', onMove);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener('scroll', onScroll);
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('popstate', onMove);
      window.removeEventListener('hashchange', onMove);
    };
  }, []);
}

/**
 * Scrolls back to where the reader was on this entry, when they came back to it (Back, Forward, a
 * reload); does nothing on a new entry. Call when the page's content is shown.
 */
export function restoreScroll(): void {
  if (pendingScroll === null) return;
  const y = pendingScroll;
  pendingScroll = null;
  window.scrollTo({ top: y });
}
