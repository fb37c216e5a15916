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
