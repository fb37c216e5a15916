/**
 * `find` on the search reader threads of the threaded SQLite store (`search-readers.ts`): the same
 * hits as a search on the database's own connection (lexical, typo-corrected, stop words only,
 * several roots, semantic), every acknowledged write visible to the next find, and finds answered
 * while the database thread is busy with writes.
 */
import { existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { optionsFromEnv } from '../../src/config.js';
import { normaliseVector } from '../../src/embeddings/embedder.js';
import { startServer } from '../../src/start-server.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { defaultSearchThreads, pickReader } from '../../src/store/sqlite/search-readers.js';
import { createThreadedSqliteStore } from '../../src/store/sqlite/sqlite-thread.js';
import type { Store } from '../../src/store/types.js';
import { AGENT_ROOT, makeWrite, USER_ROOT } from './helpers.js';

const opened: Store[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-readers-'));
  dirs.push(dir);
  return dir;
}

const WORDS = (
  'pdf invoice spreadsheet excel chart docker compose kubernetes deploy react component hooks ' +
  'typescript types python pandas data analysis security audit review commit git branch merge ' +
  'slack message email calendar image generation scraping browser testing migration database'
).split(' ');

/** A deterministic mix of the words: skill `i` of `n` in the user or agent root. */
function skillWrite(i: number) {
  const pick = (k: number) => WORDS[(i * 7 + k * 11) % WORDS.length] as string;
  return makeWrite({
    name: `skill-${i}-${pick(0)}`,
    rootUri: i % 4 === 0 ? AGENT_ROOT : USER_ROOT,
    description: `Works with ${pick(1)} and ${pick(2)} for ${pick(3)} tasks`,
    tags: [pick(4)],
    body: `# ${pick(5)}\n\nUse ${pick(6)} with ${pick(7)}. ${pick(8)} ${pick(9)} ${'the and of '.repeat(i % 3)}\n`,
  });
}

const QUERIES = [
  'pdf',
  'docker compose',
  'python data analysis',
  'kubernets deploy', // misspelt, yet held: the stemmer folds it as it folds "kubernetes"
  'the', // stop words only: name, tags and description
  'react comp', // prefix
  'skill-3-pdf', // an exact name
  '"security" OR audit*', // FTS syntax is only punctuation here
  '',
];

function along(axis: number): Float32Array {
  return normaliseVector(Array.from({ length: 8 }, (_, i) => (i === axis ? 1 : 0.05 * ((i * 7 + axis) % 3))));
}

describe('sqlite store: search reader threads', () => {
  it('gives the hits of a search on the database connection, lexical and semantic', async () => {
    const dataDir = tempDir();
    const threaded = await createThreadedSqliteStore({ dataDir, searchThreads: 2 });
    opened.push(threaded);
    await threaded.ensureAccount('acme');
    const written = [];
    for (let i = 0; i < 120; i++) written.push(await threaded.putSkill(skillWrite(i)));
    for (const [i, w] of written.entries()) {
      if (i % 15 === 0) await threaded.putSkillVector(w.skill.id, w.skill.revision, 'm1', along(i / 15));
    }
    const direct = createSqliteStore({ dataDir });
    opened.push(direct);
    const semantic = { model: 'm1', vector: along(2) };
    for (const roots of [[USER_ROOT], [USER_ROOT, AGENT_ROOT], [AGENT_ROOT, USER_ROOT]]) {
      for (const query of QUERIES) {
        for (const options of [{ limit: 10 }, { limit: 3 }, { limit: 10, semantic }]) {
          const expected = await direct.search('acme', roots, query, options);
          const got = await threaded.search('acme', roots, query, options);
          expect(got, `${query} in ${roots.join(',')}`).toEqual(expected);
          // And whether the hits may be given again while the change token stands (searchAnswer).
          const answer = await threaded.searchAnswer('acme', roots, query, options);
          expect(answer, `${query} in ${roots.join(',')}`).toEqual(
            await direct.searchAnswer('acme', roots, query, options),
          );
          expect(answer.stable, query).toBe(true);
        }
      }
    }
    // A word no skill holds is corrected from vocabulary slices kept for minutes: not stable.
    const misspelt = await threaded.searchAnswer('acme', [USER_ROOT], 'pyhton', { limit: 10 });
    expect(misspelt.stable).toBe(false);
    expect(misspelt.hits.length).toBeGreaterThan(0);
    expect(misspelt).toEqual(await direct.searchAnswer('acme', [USER_ROOT], 'pyhton', { limit: 10 }));
    // Not vacuous: the queries find skills, lexically and by meaning.
    expect(
      (await threaded.search('acme', [USER_ROOT], 'docker compose', { limit: 10 })).length,
    ).toBeGreaterThan(3);
    const byMeaning = await threaded.search('acme', [USER_ROOT], 'zzzz', { limit: 5, semantic });
    expect(byMeaning.length).toBeGreaterThan(0);
    expect(byMeaning.every((hit) => hit.matchReason === 'semantic')).toBe(true);
  });

  it('sees every acknowledged write in the next find, also while writes keep the database thread busy', async () => {
    const dataDir = tempDir();
    const store = await createThreadedSqliteStore({ dataDir, searchThreads: 2 });
    opened.push(store);
    await store.ensureAccount('acme');
    for (let i = 0; i < 30; i++) {
      const word = `marker${String.fromCharCode(97 + (i % 26))}${i}`;
      const background = store.putSkill(skillWrite(1000 + i));
      await store.putSkill(makeWrite({ name: `fresh-${i}`, description: `Has the word ${word}` }));
      const hits = await store.search('acme', [USER_ROOT], word, { limit: 5 });
      expect(hits.map((hit) => hit.skill.name)).toEqual([`fresh-${i}`]);
      await store.deleteSkill('acme', USER_ROOT, `fresh-${i}`);
      expect(await store.search('acme', [USER_ROOT], word, { limit: 5 })).toEqual([]);
      await background;
    }
  });

  it("shows a hit's fields and scope as written last, however often the same find was asked before", async () => {
    const dataDir = tempDir();
    const store = await createThreadedSqliteStore({ dataDir, searchThreads: 1 });
    opened.push(store);
    await store.ensureAccount('acme');
    for (let i = 0; i < 12; i++) await store.putSkill(skillWrite(i));
    await store.putSkill(
      makeWrite({ name: 'moving', description: 'Keeps the zebrafish notes', tags: ['a'] }),
    );
    const ask = async () => (await store.search('acme', [USER_ROOT], 'zebrafish', { limit: 5 }))[0]?.skill;
    for (let round = 0; round < 6; round++) expect((await ask())?.tags).toEqual(['a']);
    await store.putSkill(
      makeWrite({ name: 'moving', description: 'Keeps the zebrafish notes', tags: ['b'] }),
    );
    expect((await ask())?.tags).toEqual(['b']);
    for (let round = 0; round < 6; round++) await ask();
    await store.putSkill({
      ...makeWrite({ name: 'moving', description: 'Keeps the zebrafish notes', tags: ['b'] }),
      rootUri: AGENT_ROOT,
    });
    await store.deleteSkill('acme', USER_ROOT, 'moving');
    expect(await ask()).toBeUndefined();
    expect((await store.search('acme', [AGENT_ROOT], 'zebrafish', { limit: 5 }))[0]?.skill.rootUri).toBe(
      AGENT_ROOT,
    );
  });

  it('runs finds in the database thread with SKILLPORT_SEARCH_THREADS=0, and refuses a bad value', async () => {
    expect(optionsFromEnv({ SKILLPORT_SEARCH_THREADS: '0' }).sqlite?.searchThreads).toBe(0);
    expect(optionsFromEnv({ SKILLPORT_SEARCH_THREADS: '3' }).sqlite?.searchThreads).toBe(3);
    expect(() => optionsFromEnv({ SKILLPORT_SEARCH_THREADS: 'many' })).toThrow(/SKILLPORT_SEARCH_THREADS/);
    const store = await createThreadedSqliteStore({ dataDir: tempDir(), searchThreads: 0 });
    opened.push(store);
    await store.ensureAccount('acme');
    await store.putSkill(makeWrite({ name: 'solo', description: 'A lonely word quixotic' }));
    const hits = await store.search('acme', [USER_ROOT], 'quixotic', { limit: 5 });
    expect(hits.map((hit) => hit.skill.name)).toEqual(['solo']);
    expect(await store.searchAnswer('acme', [USER_ROOT], 'quixotic', { limit: 5 })).toEqual({
      hits,
      stable: true,
    });
  });
});

/** Open file descriptors of this process on the database file itself (one per SQLite connection). */
function connectionsTo(file: string): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === file) count++;
    } catch {
      // closed meanwhile
    }
  }
  return count;
}

// Every SQLite connection keeps the database file open: the database thread's, the HTTP thread's
// read-only one (change token, API keys), the WAL checkpointer's and one per search thread. Counting them shows whether the
// search threads run (Linux: /proc/self/fd).
describe.skipIf(!existsSync('/proc/self/fd'))('when the search threads start', () => {
  async function serverOn(sqlite: { startSearchThreads?: 'listening' | 'first-find' }) {
    const dataDir = tempDir();
    const server = await startServer({
      port: 0,
      dataDir,
      logger: false,
      embeddings: 'off',
      runJobs: false,
      sqlite: { searchThreads: 2, ...sqlite },
    });
    return { server, file: path.join(dataDir, 'skillport.db') };
  }
  const find = (url: string) =>
    fetch(`${url}/api/v1/skills/find`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'anything' }),
    });

  it('by default, in the background once the server listens: no find needed', async () => {
    const { server, file } = await serverOn({});
    try {
      await expect.poll(() => connectionsTo(file), { timeout: 60_000, interval: 50 }).toBe(5);
      expect((await find(server.url)).status).toBe(200);
      expect(connectionsTo(file)).toBe(5);
    } finally {
      await server.close();
    }
    expect(connectionsTo(file)).toBe(0);
  });

  it("with startSearchThreads 'first-find', with the first find", async () => {
    const { server, file } = await serverOn({ startSearchThreads: 'first-find' });
    try {
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      expect(connectionsTo(file)).toBe(3);
      expect((await find(server.url)).status).toBe(200);
      expect(connectionsTo(file)).toBe(5);
    } finally {
      await server.close();
    }
    expect(connectionsTo(file)).toBe(0);
  });

  it('a server closed while its search threads start leaves none running', async () => {
    const { server, file } = await serverOn({});
    await server.close();
    expect(connectionsTo(file)).toBe(0);
  });
});

describe('defaultSearchThreads', () => {
  it('leaves a core to the thread that answers requests: one reader per core but one, 1 to 4', () => {
    expect([1, 2, 3, 4, 5, 8, 64].map((cores) => defaultSearchThreads(cores))).toEqual([1, 1, 2, 3, 4, 4, 4]);
    expect(defaultSearchThreads()).toBe(Math.max(1, Math.min(4, os.availableParallelism() - 1)));
  });
});

describe('pickReader', () => {
  const QUERIES = ['pdf', 'git commit', 'docker compose', 'react component', 'write tests', 'code review'];

  it('sends a query to the same thread while no thread is busier than another by more than one', () => {
    for (const query of QUERIES) {
      const own = pickReader([0, 0], query);
      expect(pickReader([0, 0], `  ${query.toUpperCase()} `), query).toBe(own);
      expect(pickReader(own === 0 ? [1, 0] : [0, 1], query), query).toBe(own);
      expect(pickReader([3, 3], query), query).toBe(own);
    }
    // Different queries are spread over the threads.
    expect(new Set(QUERIES.map((query) => pickReader([0, 0], query))).size).toBe(2);
    expect(new Set(QUERIES.map((query) => pickReader([0, 0, 0, 0], query))).size).toBeGreaterThan(2);
  });

  it('gives a query to the least busy thread when its own has more than one query more in flight', () => {
    for (const query of QUERIES) {
      const own = pickReader([0, 0, 0], query);
      const loads = [2, 2, 2];
      loads[own] = 4;
      const least = (own + 1) % 3;
      loads[least] = 1;
      expect(pickReader(loads, query), query).toBe(least);
    }
    expect(pickReader([5], 'pdf')).toBe(0);
  });
});
