/**
 * The catalogue's local list logic: sorting, exact tag filtering, tag counts and pages; and the
 * folder ignore list, which must stay the one `@skillport/core/node` uses for uploads from disk.
 */
import { DEFAULT_SKILL_DIR_LIMITS } from '@skillport/core/node';
import { describe, expect, it } from 'vitest';
import {
  type CatalogueItem,
  countTags,
  filterByTag,
  PAGE_SIZE,
  pageOf,
  sortItems,
} from '../src/lib/catalogue-data.js';
import { parseHash } from '../src/lib/router.js';
import { IGNORED_NAMES, isIgnoredPath } from '../src/lib/skill-input.js';

const item = (
  name: string,
  updated: string,
  tags: string[] = [],
  root = 'viking://user/u/skills',
): CatalogueItem => ({
  name,
  uri: `${root}/${name}`,
  root_uri: root,
  description: '',
  tags,
  updated_at: updated,
});

const items = [
  item('beta', '2026-01-02T00:00:00.000Z', ['Git', 'release']),
  item('alpha', '2026-01-03T00:00:00.000Z', ['git']),
  item('gamma', '2026-01-01T00:00:00.000Z', []),
  item('alpha', '2026-01-04T00:00:00.000Z', ['ops'], 'viking://agent/skills'),
];

describe('catalogue list logic', () => {
  it.each([
    ['name', ['alpha', 'alpha', 'beta', 'gamma']],
    ['name-desc', ['gamma', 'beta', 'alpha', 'alpha']],
    ['updated', ['alpha', 'alpha', 'beta', 'gamma']],
    ['relevance', ['beta', 'alpha', 'gamma', 'alpha']],
  ] as const)('sorts by %s', (sort, names) => {
    expect(sortItems(items, sort).map((i) => i.name)).toEqual(names);
  });

  it('sorts same names by root and recent first by time', () => {
    expect(
      sortItems(items, 'name')
        .slice(0, 2)
        .map((i) => i.root_uri),
    ).toEqual(['viking://agent/skills', 'viking://user/u/skills']);
    expect(sortItems(items, 'updated')[0]?.root_uri).toBe('viking://agent/skills');
  });

  it('filters by a tag exactly, ignoring case', () => {
    expect(filterByTag(items, 'git').map((i) => i.name)).toEqual(['beta', 'alpha']);
    expect(filterByTag(items, 'gi')).toEqual([]);
    expect(filterByTag(items, '')).toHaveLength(4);
  });

  it('counts tags, most used first', () => {
    expect(countTags(items)).toEqual([
      { tag: 'git', count: 1 },
      { tag: 'Git', count: 1 },
      { tag: 'ops', count: 1 },
      { tag: 'release', count: 1 },
    ]);
    expect(countTags([items[0]!, items[0]!])[0]).toEqual({ tag: 'Git', count: 2 });
  });

  it('cuts pages of PAGE_SIZE, 1-based, clamping page 0', () => {
    const many = Array.from({ length: PAGE_SIZE * 2 + 5 }, (_, i) => i);
    expect(pageOf(many, 1)).toHaveLength(PAGE_SIZE);
    expect(pageOf(many, 3)).toEqual([
      PAGE_SIZE * 2,
      PAGE_SIZE * 2 + 1,
      PAGE_SIZE * 2 + 2,
      PAGE_SIZE * 2 + 3,
      PAGE_SIZE * 2 + 4,
    ]);
    expect(pageOf(many, 0)).toEqual(pageOf(many, 1));
    expect(pageOf(many, 9)).toEqual([]);
  });
});

describe('hash routes', () => {
  it.each([
    ['', 'catalogue', ''],
    ['#/', 'catalogue', ''],
    ['#/?q=pdf&page=2', 'catalogue', ''],
    ['#/skill/my-skill?root=agent', 'skill', 'my-skill'],
    ['#/skill/odd%20name', 'skill', 'odd name'],
    ['#/add?update=x', 'add', ''],
    ['#/usage', 'not-found', ''],
  ])('%s → %s', (hash, page, name) => {
    const route = parseHash(hash);
    expect(route.page).toBe(page);
    expect(route.name).toBe(name);
  });
});

describe('folder uploads from the browser', () => {
  it('leave out what uploads from disk leave out', () => {
    expect(IGNORED_NAMES).toEqual(DEFAULT_SKILL_DIR_LIMITS.ignore);
  });

  it.each([
    ['.env', true],
    ['.env.local', true],
    ['config/.npmrc', true],
    ['.git/config', true],
    ['node_modules/x/index.js', true],
    ['docs/env.md', false],
    ['scripts/run.py', false],
  ])('%s ignored: %s', (p, ignored) => {
    expect(isIgnoredPath(p)).toBe(ignored);
  });
});
