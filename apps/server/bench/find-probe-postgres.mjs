// In-process find probe on PostgreSQL (against the built dist/): runs the server bench's find queries
// through `searchSkillsPostgres` on one connection of an existing database, with one process's
// caches (document frequencies per search generation, and kept rankings unless told otherwise), without
// HTTP or autocannon. For comparing rankings and CPU per find between builds on a bench cluster
// (a copy: BENCH_SEED_CACHE of server.bench.mjs keeps `postgres-<count>-…/data`), in short runs that a
// busy machine measures better than the server bench.
//
//   node apps/server/bench/find-probe-postgres.mjs <postgres url> <schema> [repeated|distinct] [finds] [first]
//
// The schema must already be at the build's version (start a server on it once, or use a cluster the
// bench has started). `first`: index of the first distinct query (0). Prints one JSON line: wall ms,
// the probe's CPU ms and — when the database runs on this machine (its backend readable in /proc) —
// the PostgreSQL backend's CPU ms, each per find; then ms and calls per SQL statement. Env:
// BENCH_FIND_DIST (the built server folder, default ../dist), BENCH_FIND_KEPT=0 (no kept rankings:
// rank every find, as the first ask of each query does), BENCH_FIND_DUMP=<file> (each query and its
// hits' names and scores, a line each: diff two builds' files to compare rankings),
// SKILLPORT_CORPUS_LARGE (the corpus the seed was made from).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { distinctQueries, loadTemplates, QUERIES } from './find-queries.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, process.env.BENCH_FIND_DIST ?? '../dist');
const load = (file) => import(pathToFileURL(path.join(dist, file)).href);
const { searchSkillsPostgres } = await load('search/postgres-search.js');
const { PostgresTermStats } = await load('search/postgres-term-stats.js');
const { createPool } = await load('store/postgres/connection.js');
// Kept rankings: absent from builds before them.
const answersModule = path.join(dist, 'search/postgres-find-answers.js');
const { PostgresFindAnswers } = existsSync(answersModule)
  ? await load('search/postgres-find-answers.js')
  : {};

const [url, schema, mode = 'distinct', finds = '300', first = '0'] = process.argv.slice(2);
if (url === undefined || schema === undefined || (mode !== 'repeated' && mode !== 'distinct')) {
  console.error('usage: find-probe-postgres.mjs <postgres url> <schema> [repeated|distinct] [finds] [first]');
  process.exit(2);
}
const count = Number(finds);
const corpusDir = process.env.SKILLPORT_CORPUS_LARGE ?? path.resolve(here, '../../../../shared/corpus-large');
const queries =
  mode === 'repeated' ? QUERIES : distinctQueries(loadTemplates(corpusDir).templates).slice(Number(first));
// The bench seeds the default account's user root and the agent root, and finds in both.
const ROOTS = ['viking://user/default/skills', 'viking://agent/skills'];

const pool = createPool({ url }, [schema, 'public'], 1);
/** Calls and ms per statement (its prepared name, or the first 60 characters of its SQL). */
const statements = new Map();
const timed = {
  async query(config, values) {
    const key =
      typeof config === 'string'
        ? config.slice(0, 60)
        : (config.name ?? config.text.replace(/\s+/g, ' ').slice(0, 60));
    const start = performance.now();
    const result = await pool.query(config, values);
    const entry = statements.get(key) ?? { calls: 0, ms: 0 };
    entry.calls++;
    entry.ms += performance.now() - start;
    statements.set(key, entry);
    return result;
  },
};
const {
  rows: [{ pid }],
} = await pool.query('SELECT pg_backend_pid() AS pid');
/** The backend's CPU ms (user + system) from /proc, or null when it is not on this machine. */
function backendCpuMs() {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

const termStats = new PostgresTermStats();
const answers =
  process.env.BENCH_FIND_KEPT === '0' || PostgresFindAnswers === undefined
    ? undefined
    : new PostgresFindAnswers();
const dump = [];
const backendBefore = backendCpuMs();
const cpuBefore = process.cpuUsage();
const started = performance.now();
for (let i = 0; i < count; i++) {
  const query = queries[i % queries.length];
  const hits = await searchSkillsPostgres(timed, 'default', ROOTS, query, 10, undefined, termStats, answers);
  if (process.env.BENCH_FIND_DUMP)
    dump.push(`${query}\t${hits.map((h) => `${h.skill.name}:${h.score}`).join(' ')}`);
}
const wall = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
const backendAfter = backendCpuMs();
const per = (ms) => Number((ms / count).toFixed(3));
console.log(
  JSON.stringify({
    mode,
    finds: count,
    kept: answers !== undefined,
    wallMsPerFind: per(wall),
    probeCpuMsPerFind: per((cpu.user + cpu.system) / 1000),
    postgresCpuMsPerFind:
      backendBefore === null || backendAfter === null ? null : per(backendAfter - backendBefore),
  }),
);
for (const [key, { calls, ms }] of [...statements].sort((a, b) => b[1].ms - a[1].ms)) {
  console.log(`${per(ms).toFixed(3)} ms/find  ${calls} calls  ${key}`);
}
if (process.env.BENCH_FIND_DUMP) writeFileSync(process.env.BENCH_FIND_DUMP, `${dump.join('\n')}\n`);
await pool.end();
