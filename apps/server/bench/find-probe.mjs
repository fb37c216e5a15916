// In-process find probe (against the built dist/): runs the server bench's find queries through
// `searchSkills` on one read-only connection of an existing database, as a search reader thread
// does (its caches, kept answers, one read transaction per query), without HTTP, threads or
// autocannon. For comparing rankings and CPU per find between builds on a bench seed, in short runs
// that a busy machine measures better than the server bench (CPU time, not latency).
//
//   node apps/server/bench/find-probe.mjs <skillport.db> [repeated|distinct] [finds]
//
// The database is opened read only, never migrated: point it at a copy of a seed (BENCH_SEED_CACHE
// of server.bench.mjs) whose schema the build reads. Prints one JSON line: CPU ms per find, latency
// percentiles (ms), matches kept by the connection's phrase cache. Env: BENCH_FIND_DIST (the built
// server folder, default ../dist), BENCH_FIND_EXHAUSTIVE=1 (rank every match, no kept relevance or
// answers: the reference ranking), BENCH_FIND_TRACE=1 (each find's latency in order: the cold asks
// and phrase reads stand out), BENCH_FIND_STATEMENTS=1 (calls and ms per SQL statement),
// BENCH_FIND_DUMP=<file> (each query and its hits' names, roots, scores and matched fields, a line each: diff two builds'
// files to compare rankings), SKILLPORT_CORPUS_LARGE (the corpus the seed was made from),
// BENCH_FIND_WRITE_EVERY=<n> (find under writes: the database's folder is opened as a store too
// and every n-th find is preceded by one write, alternately adding a skill of the large corpus and
// replacing the last one added, as the server bench's `findw` writer does; the database is then
// changed: point it at a copy. The JSON line adds the writes, the ms spent inside the finds (the
// CPU figure also holds the store's threads) and, when the build reports it, the phrase cache's
// work: written rows tokenized, rows scored through FTS5, kept phrases brought up to date or dropped).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { distinctQueries, loadTemplates, QUERIES } from './find-queries.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, process.env.BENCH_FIND_DIST ?? '../dist');
const { searchSkills, TermCache, StateResults } = await import(
  pathToFileURL(path.join(dist, 'search/sqlite-search.js')).href
);
const { openConnection } = await import(pathToFileURL(path.join(dist, 'store/sqlite/connection.js')).href);

const [file, mode = 'distinct', finds = '400'] = process.argv.slice(2);
if (file === undefined || (mode !== 'repeated' && mode !== 'distinct')) {
  console.error('usage: find-probe.mjs <skillport.db> [repeated|distinct] [finds]');
  process.exit(2);
}
const count = Number(finds);
const corpusDir = process.env.SKILLPORT_CORPUS_LARGE ?? path.resolve(here, '../../../../shared/corpus-large');
const queries = mode === 'repeated' ? QUERIES : distinctQueries(loadTemplates(corpusDir).templates);
// The bench seeds the default account's user root and the agent root, and finds in both.
const ROOTS = ['viking://user/default/skills', 'viking://agent/skills'];
const exhaustive = process.env.BENCH_FIND_EXHAUSTIVE === '1';

const writeEvery = Number(process.env.BENCH_FIND_WRITE_EVERY ?? 0);
/** One write of the `findw` kind (see BENCH_FIND_WRITE_EVERY), through a store on the folder. */
let write = null;
if (writeEvery > 0) {
  const { createSqliteStore } = await import(pathToFileURL(path.join(dist, 'index.js')).href);
  const store = await createSqliteStore({ dataDir: path.dirname(file) });
  const { templates } = loadTemplates(corpusDir);
  const enc = new TextEncoder();
  const stamp = Date.now().toString(36);
  let writes = 0;
  write = async () => {
    const i = writes++;
    const { text, skill } = templates[(i * 7919) % templates.length];
    const name = `probe-${stamp}-${i - (i % 2)}`;
    const renamed = `${text.replace(/^name:[^\n]*$/m, `name: ${name}`)}\nWrite ${i} of the probe.\n`;
    await store.putSkill({
      accountId: 'default',
      rootUri: ROOTS[0],
      name,
      description: skill.description ?? '',
      tags: skill.tags,
      allowedTools: skill.allowedTools,
      frontmatter: { ...skill.frontmatter, name },
      body: `${skill.body}\nWrite ${i} of the probe.\n`,
      sourceMetadata: null,
      files: [{ path: 'SKILL.md', kind: 'definition', content: enc.encode(renamed) }],
      task: { type: 'add_skill', userId: 'default' },
    });
  };
  write.count = () => writes;
  write.close = () => store.close();
}

const conn = openConnection(file, { readonly: true, cacheSizeMb: 4 });
/** Calls and ms per statement (first 70 characters of its SQL), when BENCH_FIND_STATEMENTS=1. */
const statements = new Map();
if (process.env.BENCH_FIND_STATEMENTS === '1') {
  const prepare = conn.stmt.bind(conn);
  const timed = (key, call) => {
    const start = performance.now();
    const result = call();
    const entry = statements.get(key) ?? { calls: 0, ms: 0 };
    entry.calls++;
    entry.ms += performance.now() - start;
    statements.set(key, entry);
    return result;
  };
  conn.stmt = (sql) => {
    const key = sql.replace(/\s+/g, ' ').slice(0, 70);
    const handler = {
      get(target, prop) {
        const value = target[prop];
        if (prop === 'all' || prop === 'get') return (...args) => timed(key, () => value.apply(target, args));
        // Iterated to the end inside the timing (the callers read every row).
        if (prop === 'iterate')
          return (...args) => timed(key, () => [...value.apply(target, args)])[Symbol.iterator]();
        if (prop === 'raw' || prop === 'pluck') {
          return (...args) => {
            value.apply(target, args);
            return new Proxy(target, handler);
          };
        }
        return typeof value === 'function' ? value.bind(target) : value;
      },
    };
    return new Proxy(prepare(sql), handler);
  };
}

const terms = new TermCache();
const results = new StateResults();
const times = [];
const dump = [];
const cpuStart = process.cpuUsage();
for (let i = 0; i < count; i++) {
  if (write !== null && i % writeEvery === 0) await write();
  const query = queries[i % queries.length];
  const start = performance.now();
  const hits = conn.db
    .transaction(() =>
      searchSkills(
        conn,
        'default',
        ROOTS,
        query,
        10,
        undefined,
        terms,
        exhaustive ? { exhaustive } : { results },
      ),
    )
    .deferred();
  times.push(performance.now() - start);
  if (process.env.BENCH_FIND_DUMP)
    dump.push(
      JSON.stringify([query, hits.map((h) => [h.skill.name, h.skill.rootUri, h.score, h.matchedFields])]),
    );
}
const cpu = process.cpuUsage(cpuStart);
const sorted = [...times].sort((a, b) => a - b);
const at = (p) =>
  Number((sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0).toFixed(2));
console.log(
  JSON.stringify({
    mode,
    finds: count,
    queries: queries.length,
    cpuMsPerFind: Number(((cpu.user + cpu.system) / 1000 / count).toFixed(2)),
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: at(1),
    keptMatches: terms.scores.size,
    ...(write === null
      ? {}
      : { writes: write.count(), findMs: Number(times.reduce((a, b) => a + b, 0).toFixed(0)) }),
    ...(terms.scores.work === undefined ? {} : { work: terms.scores.work }),
  }),
);
for (const [sql, { calls, ms }] of [...statements].sort((a, b) => b[1].ms - a[1].ms)) {
  console.log(`${String(calls).padStart(7)} calls ${ms.toFixed(0).padStart(7)} ms  ${sql}`);
}
if (process.env.BENCH_FIND_TRACE === '1') console.log(times.map((t) => t.toFixed(1)).join(' '));
if (process.env.BENCH_FIND_DUMP) writeFileSync(process.env.BENCH_FIND_DUMP, `${dump.join('\n')}\n`);
conn.db.close();
await write?.close();
