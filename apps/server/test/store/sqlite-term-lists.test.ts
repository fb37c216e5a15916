/**
 * Per-term match lists of the SQLite search index (`search/term-lists.ts`, schema version 13): a
 * phrase scored from them gives exactly the skills and the `bm25()` bits FTS5 gives it, for plain
 * words and prefixes of the corpus — once built, while the build runs (with writes between its
 * steps), after a restart mid-build, and after adds, updates and deletes below and above the
 * watermark; and `find` ranked with them equals the exhaustive ranking.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseSkillMd } from '@skillport/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCorpus } from '../../../../scripts/test-corpus.js';
import { isCjkToken } from '../../src/search/cjk-segment.js';
import { tokenizeQuery } from '../../src/search/fts-query.js';
import { searchSkills, TermCache } from '../../src/search/sqlite-search.js';
import { readTermListState, stemsOf } from '../../src/search/term-lists.js';
import { type Connection, openConnection } from '../../src/store/sqlite/connection.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import type { Store } from '../../src/store/types.js';
import { corpusSkillTexts } from './corpus.js';
import { AGENT_ROOT, makeWrite, USER_ROOT } from './helpers.js';

const WORDS = (
  'pdf invoice spreadsheet excel chart docker compose kubernetes deploy react component hooks ' +
  'typescript types python pandas data analysis security audit review commit git branch merge ' +
  'slack message email calendar image generation scraping browser testing migration database ' +
  'write tests code documentation api running runner deployment'
).split(' ');

/** Every match of one phrase with FTS5's own `bm25()`, by rowid: the reference. */
const FTS_SCORES = `SELECT rowid, -bm25(skills_fts, 10, 5, 3, 1.5, 0.25) FROM skills_fts WHERE skills_fts MATCH ?
  ORDER BY rowid`;

let dir: string;
let store: Store;
let conn: Connection;
/** Plain words and prefixes (`"word"*`) of the stored texts. */
let phrases: string[] = [];
/** How many of {@link phrases} can be scored from lists. */
let listable = 0;

const pick = (i: number, k: number) => WORDS[(i * 7 + k * 11) % WORDS.length] as string;
/** The name of the i-th synthetic skill (root: the agent root when i % 4 is 0, else the user root). */
const nameOf = (i: number) => `skill-${i}-${pick(i, 0)}`;

function openStore(): Store {
  return createSqliteStore({ dataDir: dir });
}

/** Build steps (merging the index first), `steps` of them once the list build has begun. */
async function buildSteps(target: Store, steps: number): Promise<number> {
  for (let merges = 0; merges < 10_000 && readTermListState(conn)?.after == null; merges++) {
    if (!(await target.compactSearchIndex(1))) break;
  }
  let done = 0;
  while (done < steps && (await target.compactSearchIndex(1))) done++;
  return done;
}

async function buildAll(target: Store): Promise<void> {
  while (await target.compactSearchIndex(64)) {}
}

/**
 * Compares every phrase scored from the lists with FTS5's scoring; returns how many were scored from
 * the lists (the others: not built yet or not listable, null).
 */
function compareListed(label: string): number {
  const terms = new TermCache();
  let listed = 0;
  conn.db
    .transaction(() => {
      terms.scores.sync(conn);
      for (const phrase of phrases) {
        const got = terms.scores.listed(conn, phrase);
        if (got === null) continue;
        listed++;
        const want = conn.db.prepare(FTS_SCORES).raw(true).all(phrase) as Array<[number, number]>;
        expect([...got.seqs], `${label}: ${phrase} skills`).toEqual(want.map((row) => row[0]));
        expect([...got.scores], `${label}: ${phrase} scores`).toEqual(want.map((row) => row[1]));
      }
    })
    .deferred();
  return listed;
}

function find(terms: TermCache, query: string, exhaustive: boolean) {
  return conn.db
    .transaction(() =>
      searchSkills(conn, 'acme', [USER_ROOT, AGENT_ROOT], query, 10, undefined, terms, { exhaustive }),
    )
    .deferred();
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-term-lists-'));
  store = openStore();
  const texts: string[] = [];
  for (let i = 0; i < 160; i++) {
    const write = makeWrite({
      name: nameOf(i),
      description: `Works with ${pick(i, 1)} and ${pick(i, 2)} for ${pick(i, 3)} tasks`,
      tags: [pick(i, 4)],
      body: `# ${pick(i, 5)}\n\nUse ${pick(i, 6)} with ${pick(i, 7)}. ${pick(i, 8)} ${'the and of '.repeat(i % 3)}\n`,
    });
    await store.putSkill({ ...write, rootUri: i % 4 === 0 ? AGENT_ROOT : USER_ROOT });
  }
  texts.push(WORDS.join(' '));
  if (findCorpus() !== undefined) {
    const encoder = new TextEncoder();
    for (const [i, { text }] of corpusSkillTexts().entries()) {
      const skill = parseSkillMd(text).skill;
      const name = `corpus-${i}`;
      await store.putSkill({
        ...makeWrite({ name, description: skill.description ?? name, body: skill.body }),
        tags: skill.tags,
        rootUri: i % 3 === 0 ? AGENT_ROOT : USER_ROOT,
        files: [{ path: 'SKILL.md', kind: 'definition', content: encoder.encode(text) }],
      });
      texts.push(text);
    }
  } else {
    console.info('sqlite-term-lists: corpus absent, synthetic skills only');
  }
  // Words of every length from the texts (a sample of each), as words and as prefixes.
  const words = [...new Set(texts.flatMap((text) => tokenizeQuery(text)))].filter((w) => w.length >= 3);
  const sample = words.filter((_, i) => i % Math.max(1, Math.floor(words.length / 400)) === 0);
  phrases = sample.flatMap((word) => [`"${word}"`, `"${word}"*`]);
  // Scored from lists once built: one plain (not CJK) word of one index term.
  listable = sample.filter((word) => !isCjkToken(word) && stemsOf(word).length === 1).length * 2;
  conn = openConnection(path.join(dir, 'skillport.db'), { readonly: true });
}, 180_000);

afterAll(async () => {
  conn?.db.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('per-term match lists', () => {
  it('are not used before they are built (the database is usable at once)', () => {
    expect(readTermListState(conn)).toEqual({ covered: null, sweepOrigin: null, after: null });
    expect(listable).toBeGreaterThan(500);
    expect(compareListed('unbuilt')).toBe(0);
    for (const query of ['docker compose', 'python data analys', 'security']) {
      expect(find(new TermCache(), query, false)).toEqual(find(new TermCache(), query, true));
    }
  });

  it('score part of the phrases exactly while the build runs, with writes between its steps', async () => {
    expect(await buildSteps(store, 3)).toBe(3);
    // Up to the terms starting with `d` (the vocabulary runs on to `z` and CJK bigrams).
    while ((readTermListState(conn)?.after ?? '') < 'd') expect(await buildSteps(store, 1)).toBe(1);
    const state = readTermListState(conn);
    expect(state?.after).not.toBeNull();
    expect(state?.covered).toBeNull();
    const early = compareListed('mid-build');
    expect(early).toBeGreaterThan(0);
    expect(early).toBeLessThan(listable);
    // Writes during the build: an add, an update of a built skill, a delete.
    await store.putSkill(
      makeWrite({
        name: 'mid-build-new',
        description: 'Docker compose for python data analysis',
        body: '# Docker\n',
      }),
    );
    await store.putSkill({
      ...makeWrite({ name: nameOf(1), description: 'Security audit of kubernetes', body: '# Audit\n' }),
      rootUri: USER_ROOT,
    });
    expect(await store.deleteSkill('acme', USER_ROOT, nameOf(2))).not.toBeNull();
    expect(compareListed('mid-build after writes')).toBeGreaterThan(0);
    await buildSteps(store, 3);
    expect(compareListed('mid-build, more steps')).toBeGreaterThan(0);
  });

  it('resume after a restart mid-build and then score every listable phrase exactly', async () => {
    const before = readTermListState(conn);
    expect(before?.after).not.toBeNull();
    await store.close();
    store = openStore();
    // The sweep resumes where it stopped (its watermark kept), it does not start again (the index
    // is merged first: the first steps after opening may be merges).
    for (let step = 0; step < 10_000 && readTermListState(conn)?.after === before?.after; step++) {
      expect(await store.compactSearchIndex(1)).toBe(true);
    }
    const resumed = readTermListState(conn);
    expect(resumed?.sweepOrigin).toBe(before?.sweepOrigin);
    expect((resumed?.after ?? '') > (before?.after ?? '')).toBe(true);
    await buildAll(store);
    const state = readTermListState(conn);
    expect(state?.after).toBeNull();
    expect(state?.covered).not.toBeNull();
    expect(compareListed('built')).toBe(listable);
  });

  it('stay exact after adds, updates and deletes below and above the watermark', async () => {
    const changes: Array<() => Promise<unknown>> = [
      () =>
        store.putSkill(
          makeWrite({
            name: 'after-build',
            description: 'Docker compose and python data analysis for code review',
            tags: ['docker', 'python'],
            body: '# Docker\n\nDocker compose, python pandas, git commit, running tests, api documentation.\n',
          }),
        ),
      // Replaced: other words (its row is now above the watermark).
      () =>
        store.putSkill(
          makeWrite({
            name: 'after-build',
            description: 'Kubernetes deploy and security audit',
            body: `# Deploy\n\n${'Deploy kubernetes clusters after a security audit. '.repeat(30)}\n`,
          }),
        ),
      // Deleted below the watermark (built into the lists).
      () => store.deleteSkill('acme', USER_ROOT, nameOf(5)),
      () => store.deleteSkill('acme', AGENT_ROOT, nameOf(8)),
      // Deleted above it.
      () => store.deleteSkill('acme', USER_ROOT, 'after-build'),
      // An update of a skill built into the lists.
      () =>
        store.putSkill({
          ...makeWrite({
            name: nameOf(3),
            description: 'Slack message and excel spreadsheet',
            body: '# S\n',
          }),
          rootUri: USER_ROOT,
        }),
    ];
    for (const [i, change] of changes.entries()) {
      await change();
      expect(compareListed(`after change ${i}`), `change ${i}`).toBe(listable);
      for (const query of [
        'docker compose',
        'kubernetes deploy',
        'python data analys',
        'slack excel',
        'calendar',
      ]) {
        expect(find(new TermCache(), query, false), `${query} after change ${i}`).toEqual(
          find(new TermCache(), query, true),
        );
      }
    }
    // The next idle build moves the watermark past the writes.
    const covered = readTermListState(conn)?.covered as number;
    await buildAll(store);
    expect(readTermListState(conn)?.covered).toBeGreaterThan(covered);
    expect(compareListed('rebuilt')).toBe(listable);
  });

  it('rank find exactly as every match is ranked, cold and warm', () => {
    const terms = new TermCache();
    const queries = [
      ...WORDS.map((w) => `${w} code`),
      'runn',
      'deploym kubernetes',
      'the',
      '数据分析 python',
    ];
    for (let round = 0; round < 5; round++) {
      for (const query of queries) {
        expect(find(terms, query, false), `${query} round ${round}`).toEqual(
          find(new TermCache(), query, true),
        );
      }
    }
  });

  it('fall back to FTS5 when more rows were written after the watermark than are worth scoring', async () => {
    for (let i = 0; i < 20; i++) {
      await store.putSkill(
        makeWrite({ name: `burst-${i}`, description: `Docker burst ${i}`, body: '# B\n' }),
      );
    }
    expect(compareListed('burst')).toBe(0);
    expect(find(new TermCache(), 'docker burst', false)).toEqual(find(new TermCache(), 'docker burst', true));
    await buildAll(store);
    expect(compareListed('burst rebuilt')).toBe(listable);
  });
});
