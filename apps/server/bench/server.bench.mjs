// Server benchmark (`pnpm bench server`, against the built dist/): for each engine (SQLite, and
// PostgreSQL on a throwaway cluster when its binaries are installed) seeds a registry through the
// store — real SKILL.md files of the large corpus (`../shared/corpus-large`, renamed per copy; a
// synthetic skill when the corpus is absent) — starts `dist/main.js` in its own process on loopback,
// lets the processing jobs finish, and drives it with autocannon: get at each level, get answered 304
// (If-None-Match), a list page of 50 anywhere in the listing (keyset cursors), find with one and with
// BENCH_CONNECTIONS connections (16 fixed queries repeated — answered from the server's kept results
// once asked — then with queries drawn from the seed's descriptions, each pass over them with one
// more hit asked, so that no find repeats an earlier one and each is ranked), add of an inline
// SKILL.md and folder add (zip temp upload + add).
// The same run measures a bare node:http server answering a fixed JSON body (the ceiling) and a bare
// Hono app (the framework floor). Then it repeats list, find, get and RSS at BENCH_SKILLS_LARGE.
//
// Prints one table per engine: req/s, its ratio to the ceiling and, for read rows, to a same-shape
// ceiling (the bare server driven by the row's own requests, answering as many bytes: see
// shapeCeiling), p50/p95/p99 latency (every response
// timed, 304s included), the CPU time the serving process spent per request (user + system from
// /proc: steadier than req/s on a shared machine; for add and folder add it includes running the
// processing jobs they queued to the end) and unexpected statuses; each goal of the serving
// targets shows as PASS or MISS next to its figure. Absolute figures depend on the machine's load
// (printed): compare ratios to the ceiling of the same run.
//
// Env: BENCH_ENGINES (`sqlite,postgres`; PostgreSQL is skipped with a line when not installed),
// BENCH_SKILLS (10000), BENCH_SKILLS_LARGE (100000 on SQLite; 0 = skip), BENCH_PG_SKILLS_LARGE
// (0 = skip, the default; e.g. 100000: real skills, the SQLite seed of that count imported as below —
// 13 minutes (more on busy cores) the first time, a copy of the kept cluster afterwards),
// BENCH_SECONDS per scenario (5), BENCH_CONNECTIONS (10), BENCH_WRITE_WARMUP_SECONDS (2: unmeasured
// adds before the add and folder-add rows, then their jobs drained), SKILLPORT_CORPUS_LARGE (corpus folder),
// BENCH_FIND_WRITES (2: writes per second of `findw`, find with BENCH_CONNECTIONS connections while
// a background client alternately adds a skill and updates a seeded one, and of `getw`, get at
// level 0 under the same writes; their CPU column includes the writes), BENCH_SERVE (`cli`, the default: the server starts as the README runs it,
// `skillport serve` of the built CLI — on SQLite with glibc a thin parent relaunching the server as a
// child with MALLOC_ARENA_MAX=2, glibc's fixed mmap/trim thresholds, --max-semi-space-size=2 and --heap-growing-percent=50 (on PostgreSQL --heap-growing-percent=50 alone); CPU is the serving process's, the RSS
// row is the server's peak plus the memory private to the parent (its Node binary pages are the
// server's too, counted once);
// `main`: `dist/main.js` in one process, the default when BENCH_SERVER_DIST is set),
// BENCH_SERVER_DIST (the built server folder to measure with BENCH_SERVE=main, default ../dist), BENCH_CPU_PROF (a folder:
// the server runs with --cpu-prof and writes its profiles under `<engine>-<small|large>/` there, one
// file per thread — `….<pid>.0.….cpuprofile` is the HTTP thread; summarise one with
// `node apps/server/bench/cpu-profile-summary.mjs <file>`), SKILLPORT_EMBEDDINGS (`off` unless set:
// this bench measures serving with lexical find; with the bundled local model every seeded skill is
// embedded by the processing jobs first, ~80 ms of CPU each — `pnpm bench search` measures the model),
// MALLOC_ARENA_MAX (passed to the server like the rest of the environment; printed in the header —
// with glibc 2 lowers the server's RSS: see the server README), BENCH_SCENARIOS (comma-separated subset of health,get,levels,hot,304,getw,list,find,findw,add,folder; default
// all — e.g. `health,get,304` for the read path alone, `list` at 100 000 skills for list and RSS),
// BENCH_SEED_CACHE (a folder, default `<tmpdir>/skillport-bench-seed`; `off` = seed every run): on
// SQLite the seeded and drained data folder is kept there, keyed by the templates and the skill
// count, and copied for later runs — seeding and draining 100 000 skills takes many minutes, a copy
// seconds. On PostgreSQL the cache keeps the data folder of a cluster (`postgres-<count>-…/data`)
// made from the SQLite seed of the same count with `importRecords` (as `skillport db import`), then
// vacuumed, analysed and shut down cleanly; each run starts a throwaway cluster on a copy (the server
// applies newer migrations to the copy at start, as an upgrade would). With BENCH_SEED_CACHE=off,
// PostgreSQL is seeded through the store (8 writes in flight) and drained by the server, as SQLite.
// On SQLite each server is measured once its database has had no commit for 8 s (the search
// index is merged while idle, 5 s after the jobs) and the per-term match lists cover the index, at
// most BENCH_SETTLE_SECONDS (600) or, while the lists are built, BENCH_LISTS_SECONDS (3600); a
// cached seed whose lists were left part-built is finished once, in the cache.
// Before the find rows of each count, a SQLite line says the state of the search index's per-term
// match lists (complete, first build running and how far, or rows written after their coverage):
// find scores a cold word from them only once they cover the index (the settle above waits for that,
// so anything but "complete" there means a build cut off by BENCH_LISTS_SECONDS: the find rows then
// measure the bm25() fallback).
// The RSS row at the large count is read after the timed scenarios and a fixed load (3,000 gets,
// 300 finds, 6 writes each followed by 40 finds: see MEMORY_LOAD), so a busy machine, which gets
// through fewer timed requests, still measures memory after at least that much work.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { zipSync } from 'fflate';
import { distinctQueries, loadTemplates, QUERIES } from './find-queries.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, process.env.BENCH_SERVER_DIST ?? '../dist');
const { createSqliteStore, createPostgresStore } = await import(
  pathToFileURL(path.join(dist, 'index.js')).href
);
// The SQLite store's group commit (an internal module: absent from older builds, then one write at a time).
const { putSkillGroupOf } = await import(
  pathToFileURL(path.join(dist, 'store/sqlite/create-sqlite-store.js')).href
).catch(() => ({ putSkillGroupOf: undefined }));
const SEED_BATCH = 200;
const clusterHelper = new URL('../../../scripts/test-support/postgres-cluster.mjs', import.meta.url);
const { findPostgresBin, startPostgresCluster } = await import(clusterHelper.href);

const SKILLS = Number(process.env.BENCH_SKILLS ?? 10_000);
const SKILLS_LARGE = Number(process.env.BENCH_SKILLS_LARGE ?? 100_000);
const PG_SKILLS_LARGE = Number(process.env.BENCH_PG_SKILLS_LARGE ?? 0);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
/**
 * Seconds of unmeasured adds before the add and folder-add rows (BENCH_WRITE_WARMUP_SECONDS, 2): no
 * row before them runs the write path, so without it their 5 s would partly measure V8 compiling it.
 */
const WRITE_WARMUP_SECONDS = Number(process.env.BENCH_WRITE_WARMUP_SECONDS ?? 2);
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',').map((e) => e.trim());
const CPU_PROF = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : null;
// How the measured server starts: `cli` = `skillport serve` from the built CLI (as the README runs it:
// on SQLite with glibc the CLI relaunches the server as a child with its memory settings), `main` =
// `dist/main.js` in one process (the only way to measure another build with BENCH_SERVER_DIST).
const SERVE = process.env.BENCH_SERVE ?? (process.env.BENCH_SERVER_DIST ? 'main' : 'cli');
if (SERVE !== 'cli' && SERVE !== 'main') throw new Error(`BENCH_SERVE: cli or main, got ${SERVE}`);
if (SERVE === 'cli' && process.env.BENCH_SERVER_DIST) {
  throw new Error(
    'BENCH_SERVE=cli measures the server the CLI loads; BENCH_SERVER_DIST needs BENCH_SERVE=main',
  );
}
const cliBin = path.resolve(here, '../../../packages/cli/dist/bin.js');
if (SERVE === 'cli' && !existsSync(cliBin)) {
  throw new Error(`BENCH_SERVE=cli needs the built CLI (${cliBin}): pnpm --filter @skillport/cli build`);
}
const SCENARIOS = new Set(
  (process.env.BENCH_SCENARIOS ?? 'health,get,levels,hot,304,getw,list,find,findw,add,folder')
    .split(',')
    .map((s) => s.trim()),
);
const SEED_CACHE =
  process.env.BENCH_SEED_CACHE === 'off'
    ? null
    : path.resolve(process.env.BENCH_SEED_CACHE ?? path.join(tmpdir(), 'skillport-bench-seed'));
const corpusDir = process.env.SKILLPORT_CORPUS_LARGE ?? path.resolve(here, '../../../../shared/corpus-large');
const USER_ROOT = 'viking://user/default/skills';
const AGENT_ROOT = 'viking://agent/skills';
const enc = new TextEncoder();

// ---------------------------------------------------------------------------------------------------
// Seed skills and find queries (see find-queries.mjs)

const { templates, source: templateSource } = loadTemplates(corpusDir);
const DISTINCT_QUERIES = distinctQueries(templates);

/** The name of the i-th seeded skill. */
function seededName(i) {
  const { skill } = templates[i % templates.length];
  return `s${String(i).padStart(6, '0')}-${String(skill.name ?? 'skill')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '')}`;
}

/** The i-th seeded skill: a copy of a template under its own name. */
function seededSkill(i) {
  const { text, skill } = templates[i % templates.length];
  const name = seededName(i);
  const renamed = text.replace(/^name:[^\n]*$/m, `name: ${name}`);
  return {
    name,
    text: renamed,
    write: {
      accountId: 'default',
      rootUri: i % 10 === 0 ? AGENT_ROOT : USER_ROOT,
      name,
      description: skill.description ?? '',
      tags: skill.tags,
      allowedTools: skill.allowedTools,
      frontmatter: { ...skill.frontmatter, name },
      body: skill.body,
      sourceMetadata: null,
      files: [
        { path: 'SKILL.md', kind: 'definition', content: enc.encode(renamed) },
        {
          path: '.abstract.md',
          kind: 'summary',
          content: enc.encode(`**${name}** — ${skill.description}\n`),
        },
      ],
      task: { type: 'add_skill', userId: 'default' },
    },
  };
}

/** Writes `count` skills through the store (SQLite: in transactions of SEED_BATCH; else a few writes in flight); returns their names. */
async function seed(store, count) {
  await store.ensureAccount('default');
  await store.ensureUser('default', 'default');
  const names = new Array(count);
  // SQLite: SEED_BATCH writes per transaction (the store's group commit), not one commit per skill.
  const group = putSkillGroupOf?.(store);
  if (group !== undefined) {
    for (let start = 0; start < count; start += SEED_BATCH) {
      const writes = [];
      for (let i = start; i < Math.min(count, start + SEED_BATCH); i++) {
        const { name, write } = seededSkill(i);
        names[i] = name;
        writes.push(write);
      }
      for (const outcome of group(writes)) if (!outcome.ok) throw outcome.error;
    }
    return names;
  }
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const { name, write } = seededSkill(i);
      names[i] = name;
      await store.putSkill(write);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return names;
}

// ---------------------------------------------------------------------------------------------------
// Processes and measurement

function startChild(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let buffer = '';
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      const match = /"url":"(http:[^"]+)"/.exec(buffer);
      if (match) {
        child.stdout.removeAllListeners('data');
        child.stdout.resume();
        resolve({ child, url: match[1] });
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`child exited early with ${code}: ${buffer.slice(0, 500)}`)),
    );
  });
}

async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** CPU time (user + system) of a process so far, ms. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks at USER_HZ = 100
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** Memory of `pid` not shared with any other process (private clean + dirty pages), MB. */
function privateMb(pid) {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(rollup)?.[1] ?? 0);
  return (kb('Private_Clean') + kb('Private_Dirty')) / 1024;
}

function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Waits (up to 600 s) until the server's processing jobs have run; false when it did not answer 200. */
async function waitForJobs(url) {
  const waited = await fetch(`${url}/api/v1/system/wait`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ timeout: 600 }),
  });
  await waited.arrayBuffer();
  return waited.ok;
}

/**
 * Drives one scenario with autocannon against the process `pid`: every response's latency is kept
 * (304s too), statuses other than `expect` are counted as errors. `drain` (writes): the CPU time
 * counted also covers the processing jobs the requests left queued, run to the end (`POST
 * /api/v1/system/wait`), so a server that defers work to its jobs is not measured as cheaper than one
 * that does it in the request. `warmupSeconds`: the same requests run that long first, unmeasured.
 */
async function run(pid, options, expect = [200], { drain = false, warmupSeconds = 0 } = {}) {
  if (warmupSeconds > 0) {
    // Not measured: the same requests first, so V8 has compiled the path (a server's steady state,
    // not its first seconds), and their jobs run to the end before the timed window starts.
    await new Promise((resolve, reject) => {
      autocannon({ connections: CONNECTIONS, ...options, duration: warmupSeconds }, (error, out) =>
        error ? reject(error) : resolve(out),
      );
    });
    if (drain) await waitForJobs(options.url);
  }
  const before = cpuMs(pid);
  const latencies = [];
  let unexpected = 0;
  let bytes = 0;
  const result = await new Promise((resolve, reject) => {
    const instance = autocannon({ connections: CONNECTIONS, duration: SECONDS, ...options }, (error, out) =>
      error ? reject(error) : resolve(out),
    );
    instance.on('response', (_client, status, resBytes, ms) => {
      latencies.push(ms);
      bytes += resBytes;
      if (!expect.includes(status)) unexpected++;
    });
  });
  if (drain && !(await waitForJobs(options.url))) unexpected++;
  latencies.sort((a, b) => a - b);
  const seconds = result.duration || SECONDS;
  return {
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    cpuUs: ((cpuMs(pid) - before) * 1000) / Math.max(1, latencies.length),
    errors: unexpected + result.errors + result.timeouts,
    /** Mean bytes per response, head and body (for the same-shape ceiling). */
    responseBytes: bytes / Math.max(1, latencies.length),
  };
}

/**
 * The same-shape ceiling of a read row: the bare node:http server (`shape`, see SHAPE_SERVER) told to
 * answer every request with `status` and responses of the row's mean size, driven by the same
 * requests (`options`: the same paths, headers and per-request `setupRequest`) for the same time.
 * The fixed ceiling is a bare server answering one fixed small request, which autocannon sends from
 * a buffer it builds once; a row's requests are built per request and its answers can be many KB,
 * and on a machine whose cores the client shares with the server, the client's cost per request
 * (~20 µs for the fixed request, 35–45 µs for a get with a path and an `If-None-Match`, 70–100 µs
 * to read a 12 KB answer) caps what any server can reach there. The ratio to this ceiling is what
 * the server itself costs.
 */
async function shapeCeiling(shape, options, status, responseBytes) {
  const res = await fetch(`${shape.url}/__shape`, {
    method: 'PUT',
    body: JSON.stringify({ status, bytes: Math.round(responseBytes) }),
  });
  if (!res.ok) throw new Error(`shape server: ${res.status}`);
  return run(shape.child.pid, { ...options, url: shape.url }, [status]);
}

/**
 * A bare node:http server whose answers are set by `PUT /__shape` `{status, bytes}`: every other
 * request gets `status` and, for 200, a JSON body sized so the whole response (head and body) is
 * `bytes` long; a 304 gets the head alone (an `ETag` and the `Cache-Control`/`Vary` a get sends).
 */
const SHAPE_SERVER = `let status = 200, body = Buffer.alloc(0);
const headers = (length) => ({ 'content-type': 'application/json', 'content-length': String(length) });
const s = require('node:http').createServer((q, r) => {
  if (q.method === 'PUT' && q.url === '/__shape') {
    let text = '';
    q.on('data', (c) => (text += c)).on('end', () => {
      const want = JSON.parse(text);
      status = want.status;
      // The head Node writes for this body (status line, the headers above, Date, Connection, Keep-Alive).
      const head = 153 + String(want.bytes).length;
      const size = Math.max(2, want.bytes - head);
      body = Buffer.from('"' + 'x'.repeat(size - 2) + '"');
      r.end('{}');
    });
    return;
  }
  q.resume();
  if (status === 304) {
    r.writeHead(304, { 'X-Request-Id': '0123456789abcdef0123456789abcdef', ETag: '"0123456789abcdef0123456789abcdef01234567"', 'Cache-Control': 'private, no-cache', Vary: 'Authorization, X-API-Key' });
    r.end();
  } else {
    r.writeHead(status, headers(body.length));
    r.end(body);
  }
});
s.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ url: 'http://127.0.0.1:' + s.address().port })));`;

const fmt = (n, digits = 1) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : '-');

// ---------------------------------------------------------------------------------------------------
// Scenarios

function randomOf(list) {
  return list[Math.floor(Math.random() * list.length)];
}

function getScenario(url, names, query) {
  return {
    url,
    requests: [
      {
        method: 'GET',
        setupRequest: (r) => ({ ...r, path: `/api/v1/skills/${randomOf(names)}${query}` }),
      },
    ],
  };
}

async function etagsOf(url, names) {
  const tagged = [];
  for (const name of names) {
    const res = await fetch(`${url}/api/v1/skills/${name}?level=2&include_files=false`);
    await res.arrayBuffer();
    if (res.status === 200 && res.headers.get('etag')) tagged.push([name, res.headers.get('etag')]);
  }
  return tagged;
}

/** `next_cursor`s of pages of 1000 across the whole user-root listing (pages of 50 start there). */
async function listCursors(url) {
  const cursors = [null];
  let cursor = null;
  for (;;) {
    const res = await fetch(
      `${url}/api/v1/skills?node_limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    const body = await res.json();
    cursor = body.result?.next_cursor ?? null;
    if (!cursor) break;
    cursors.push(cursor);
  }
  return cursors;
}

function listScenario(url, cursors) {
  return {
    url,
    requests: [
      {
        method: 'GET',
        setupRequest: (r) => {
          const cursor = randomOf(cursors);
          return {
            ...r,
            path: `/api/v1/skills?node_limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          };
        },
      },
    ],
  };
}

function findScenario(url, connections, queries = QUERIES, { fresh = false } = {}) {
  let n = 0;
  return {
    url,
    connections,
    requests: [
      {
        method: 'POST',
        path: '/api/v1/skills/find',
        headers: { 'content-type': 'application/json' },
        setupRequest: (r) => {
          const i = n++;
          // fresh: each pass over the queries asks for one more hit than the last, so no find repeats
          // an earlier one (which the server answers from its kept results without ranking).
          const limit = fresh ? 10 + Math.floor(i / queries.length) : 10;
          return { ...r, body: JSON.stringify({ query: queries[i % queries.length], limit }) };
        },
      },
    ],
  };
}

/** Writes per second of the background writer of `find under writes` (BENCH_FIND_WRITES, 2). */
const FIND_WRITES = Number(process.env.BENCH_FIND_WRITES ?? 2);

/**
 * Runs `body` while a background client writes at FIND_WRITES per second, paced from the start (one
 * write in flight): alternately adds a new skill and updates a seeded one (its SKILL.md plus a line
 * naming the write, so every write commits a change). Returns body's result with the writes done.
 */
async function withWrites(url, names, body) {
  let stop = false;
  let writes = 0;
  let failed = 0;
  const started = performance.now();
  const writer = (async () => {
    while (!stop) {
      const i = writes++;
      const target = i % 2 === 0 ? `bench-trickle-${i}` : randomOf(names);
      const { text } = seededSkill(i);
      const data = `${text.replace(/^name:[^\n]*$/m, `name: ${target}`)}\nWrite ${i} of the bench.\n`;
      try {
        const res = await fetch(`${url}/api/v1/skills${i % 2 === 0 ? '' : `/${target}`}`, {
          method: i % 2 === 0 ? 'POST' : 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ data }),
        });
        await res.arrayBuffer();
        if (res.status !== 200) failed++;
      } catch {
        failed++;
      }
      const wait = started + ((i + 1) * 1000) / FIND_WRITES - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  })();
  try {
    const result = await body();
    return { ...result, errors: result.errors + failed, writes };
  } finally {
    stop = true;
    await writer;
  }
}

/** The fixed load before the RSS row at the large count (see {@link memoryLoad}). */
const MEMORY_LOAD = { gets: 3000, finds: 300, writes: 6, findsPerWrite: 40 };

/**
 * A fixed amount of work, whatever the machine's speed: MEMORY_LOAD.gets gets at level 2 of random
 * skills, MEMORY_LOAD.finds finds (the bench queries in turn), then MEMORY_LOAD.writes writes (an
 * add, then an update of a seeded skill, alternately) each followed by MEMORY_LOAD.findsPerWrite
 * finds — every commit brings the search readers' kept relevance up to date. With
 * BENCH_CONNECTIONS connections. Returns the number of unexpected statuses.
 */
async function memoryLoad(url, names) {
  let errors = 0;
  const fixed = async (options, amount) => {
    await new Promise((resolve, reject) => {
      const instance = autocannon({ connections: CONNECTIONS, ...options, amount }, (error) =>
        error ? reject(error) : resolve(),
      );
      instance.on('response', (_client, status) => {
        if (status !== 200) errors++;
      });
    });
  };
  await fixed(getScenario(url, names, '?level=2&include_files=false'), MEMORY_LOAD.gets);
  await fixed(findScenario(url, CONNECTIONS), MEMORY_LOAD.finds);
  for (let i = 0; i < MEMORY_LOAD.writes; i++) {
    const target = i % 2 === 0 ? `bench-memory-${i}` : randomOf(names);
    const { text } = seededSkill(i);
    const data = `${text.replace(/^name:[^\n]*$/m, `name: ${target}`)}\nMemory load write ${i}.\n`;
    const res = await fetch(`${url}/api/v1/skills${i % 2 === 0 ? '' : `/${target}`}`, {
      method: i % 2 === 0 ? 'POST' : 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data }),
    });
    await res.arrayBuffer();
    if (res.status !== 200) errors++;
    await fixed(findScenario(url, CONNECTIONS), MEMORY_LOAD.findsPerWrite);
  }
  return { errors };
}

let added = 0;
function addScenario(url) {
  return {
    url,
    requests: [
      {
        method: 'POST',
        path: '/api/v1/skills',
        headers: { 'content-type': 'application/json' },
        setupRequest: (r) => {
          const { text } = seededSkill(added);
          const name = `bench-add-${added++}`;
          return { ...r, body: JSON.stringify({ data: text.replace(/^name:[^\n]*$/m, `name: ${name}`) }) };
        },
      },
    ],
  };
}

const BOUNDARY = '----skillport-bench-boundary';
function folderAddScenario(url) {
  return {
    url,
    requests: [
      {
        method: 'POST',
        path: '/api/v1/resources/temp_upload',
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        setupRequest: (r) => {
          const { text } = seededSkill(added);
          const name = `bench-folder-${added++}`;
          const zip = zipSync({
            [`${name}/SKILL.md`]: enc.encode(text.replace(/^name:[^\n]*$/m, `name: ${name}`)),
            [`${name}/scripts/run.sh`]: enc.encode('#!/bin/sh\necho "run"\n'),
            [`${name}/reference.md`]: enc.encode(`# Reference of ${name}\n\nDetails.\n`),
          });
          const head = enc.encode(
            `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}.zip"\r\n` +
              'Content-Type: application/zip\r\n\r\n',
          );
          const tail = enc.encode(`\r\n--${BOUNDARY}--\r\n`);
          return { ...r, body: Buffer.concat([head, zip, tail]) };
        },
        onResponse: (status, body, context) => {
          context.tempId = status === 200 ? JSON.parse(body).result.temp_file_id : null;
        },
      },
      {
        method: 'POST',
        path: '/api/v1/skills',
        headers: { 'content-type': 'application/json' },
        setupRequest: (r, context) => ({
          ...r,
          body: JSON.stringify({ temp_file_id: context.tempId ?? 'none' }),
        }),
      },
    ],
  };
}

/**
 * Waits until the processing jobs are done. The server caps one wait at 300 s: on a busy machine
 * 10 000 jobs take longer, so a wait answered 504 while jobs still make progress is repeated.
 */
async function drain(url) {
  const started = performance.now();
  let before = -1;
  for (;;) {
    const res = await fetch(`${url}/api/v1/system/wait`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ timeout: 3600 }),
    });
    const text = await res.text();
    if (res.ok) break;
    const completed =
      res.status === 504 ? JSON.parse(text).error?.details?.queue_status?.completed : undefined;
    if (typeof completed !== 'number' || completed <= before) {
      throw new Error(`wait failed: ${res.status} ${text}`);
    }
    before = completed;
  }
  return (performance.now() - started) / 1000;
}

// ---------------------------------------------------------------------------------------------------
// One engine

/**
 * Starts the server on a data folder (with a CPU profile named `label` under BENCH_CPU_PROF): with
 * BENCH_SERVE=cli as `skillport serve` (whose process tree may be a thin parent and the server child),
 * else `dist/main.js`. `label` null (building the seed cache) always starts `dist/main.js`.
 * Resolves `{ child, url, pid, tree }`: `pid` the process that serves (CPU is measured there),
 * `tree` every process of the server, for RSS.
 */
async function startServer(env, label) {
  const args = [];
  if (CPU_PROF && label !== null) {
    // A folder per server, Node's own file names: one profile per thread (the HTTP thread, the
    // SQLite database thread, pool workers), told apart by the thread id in the name. A relaunched
    // `skillport serve` child inherits the flags, so its profiles land there too.
    args.push('--cpu-prof', '--cpu-prof-dir', path.join(CPU_PROF, label));
  }
  const viaCli = SERVE === 'cli' && label !== null;
  const started = await startChild(
    viaCli ? [...args, cliBin, 'serve'] : [...args, path.join(dist, 'main.js')],
    {
      ...env,
      SKILLPORT_PORT: '0',
      SKILLPORT_HOST: '127.0.0.1',
      SKILLPORT_EMBEDDINGS: process.env.SKILLPORT_EMBEDDINGS ?? 'off',
      // The seeds put up to 100,000 skills in one account, and the write rows add more.
      SKILLPORT_ACCOUNT_MAX_SKILLS: process.env.SKILLPORT_ACCOUNT_MAX_SKILLS ?? '0',
    },
  );
  const kids = viaCli ? childPids(started.child.pid) : [];
  const pid = kids[0] ?? started.child.pid;
  return { ...started, pid, tree: [started.child.pid, ...kids] };
}

/** Child process ids of `pid` (Linux: /proc/<pid>/task/<tid>/children). */
function childPids(pid) {
  const ids = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
    if (text !== '') ids.push(...text.split(/\s+/).map(Number));
  }
  return ids;
}

/**
 * Folder name of `count` seeded skills in the seed cache: the templates and the count. A copy made by
 * an older build is migrated by the server at start, as an upgrade would; a build older than the
 * cache refuses its schema (point BENCH_SEED_CACHE elsewhere to measure it).
 */
function seedKey(count) {
  const hash = createHash('sha256').update(`${count}\n${templateSource}\n`);
  for (const { text } of templates) hash.update(text);
  return `sqlite-${count}-${hash.digest('hex').slice(0, 16)}`;
}

/**
 * Waits until the processing jobs of a SQLite data folder have all run, by counting them in the
 * database every 2 s (not `POST /api/v1/system/wait`, which recounts the whole queue after every job).
 */
async function drainByPolling(dataDir) {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path.join(dataDir, 'skillport.db'), { readonly: true, fileMustExist: true });
  const left = db.prepare("SELECT count(*) AS n FROM tasks WHERE status IN ('pending', 'running')");
  const started = performance.now();
  try {
    for (let last = -1; ; ) {
      const { n } = left.get();
      if (n === 0) return (performance.now() - started) / 1000;
      if (last === -1 || last - n >= 10_000) {
        console.log(`seed cache: ${n} processing jobs to run`);
        last = n;
      }
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  } finally {
    db.close();
  }
}

/**
 * The state of the SQLite search index's per-term match lists (see the server README) in a data
 * folder, as one line: find scores a cold query word from them once they cover the index and falls
 * back to FTS5's bm25() before that (a first build at 100,000 skills runs for many minutes, past
 * BENCH_SETTLE_SECONDS, so the find rows there may run during it). Read-only.
 */
async function termListsProgress(dataDir) {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path.join(dataDir, 'skillport.db'), { readonly: true, fileMustExist: true });
  try {
    const hasLists = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'search_term_build'").get();
    if (hasLists === undefined) return 'per-term lists: none in this schema (find uses bm25())';
    const { covered, target, nextSeq } = db
      .prepare('SELECT covered, target, next_seq AS nextSeq FROM search_term_build WHERE id = 1')
      .get();
    const { maxId } = db.prepare('SELECT coalesce(max(id), 0) AS maxId FROM skills_fts_docsize').get();
    // Schema 17: delta segments above `merged`, and whether the running pass writes one.
    const deltas = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'search_term_deltas'").get();
    const { merged, delta } =
      deltas === undefined
        ? { merged: covered, delta: 0 }
        : db.prepare('SELECT merged, delta FROM search_term_build WHERE id = 1').get();
    const segments =
      deltas === undefined || merged === null
        ? 0
        : db
            .prepare('SELECT count(DISTINCT origin) FROM search_term_deltas WHERE origin > ?')
            .pluck()
            .get(merged);
    const pass =
      (target === null || nextSeq === null
        ? ''
        : delta === 1
          ? ', a delta pass running'
          : `, a pass running at seq ${nextSeq} of ${maxId} (${Math.min(100, (100 * nextSeq) / Math.max(1, maxId)).toFixed(1)}%)`) +
      (segments > 0 ? `, ${segments} delta segment(s) not merged yet` : '');
    if (covered === null)
      return `per-term lists: first build not complete${pass || ', not started'} — find falls back to bm25() for cold words`;
    const behind = db
      .prepare('SELECT count(*) FROM skills_fts_docsize WHERE origin > ?')
      .pluck()
      .get(covered);
    return behind === 0
      ? `per-term lists: complete (cover every search row${pass})`
      : `per-term lists: ${behind} search rows written after their coverage${pass} (find scores those through bm25(); more than 16 → bm25() for the word)`;
  } finally {
    db.close();
  }
}

/**
 * Whether the per-term match lists of a SQLite data folder cover every search row (true for a schema
 * without them). Read-only.
 */
function termListsComplete(db) {
  if (db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'search_term_build'").get() === undefined)
    return true;
  const covered = db.prepare('SELECT covered FROM search_term_build WHERE id = 1').pluck().get();
  if (covered === null || covered === undefined) return false;
  return db.prepare('SELECT count(*) FROM skills_fts_docsize WHERE origin > ?').pluck().get(covered) === 0;
}

/**
 * Waits until a SQLite data folder has had no commit for 8 s and its per-term match lists cover every
 * search row (at most BENCH_SETTLE_SECONDS, default 600, or BENCH_LISTS_SECONDS, default 3600, while
 * the lists are still being built): 5 s after the jobs, the server merges the search index while idle,
 * committing every few pages — measured meanwhile, reads queue behind the merge and every commit
 * retires the read cache. A first build of the lists at 100,000 skills runs for minutes, and under
 * load one of its steps can outlast 8 s without a commit, so quiet alone does not mean built.
 * Returns the seconds waited.
 */
async function settle(dataDir) {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path.join(dataDir, 'skillport.db'), { readonly: true, fileMustExist: true });
  const version = db.prepare('PRAGMA data_version').pluck();
  const started = performance.now();
  const limit = Number(process.env.BENCH_SETTLE_SECONDS ?? 600) * 1000;
  const listsLimit = Number(process.env.BENCH_LISTS_SECONDS ?? 3600) * 1000;
  try {
    let last = version.get();
    let quiet = 0;
    for (;;) {
      const elapsed = performance.now() - started;
      if (quiet >= 8 && termListsComplete(db)) break;
      if (elapsed >= listsLimit || (elapsed >= limit && termListsComplete(db))) break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const now = version.get();
      quiet = now === last ? quiet + 1 : 0;
      last = now;
    }
    return (performance.now() - started) / 1000;
  } finally {
    db.close();
  }
}

/**
 * Whether the per-term match lists of a cached SQLite seed cover every search row (seeds kept by
 * earlier builds of this bench may hold a first build stopped part way).
 */
async function seedListsComplete(dataDir) {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path.join(dataDir, 'skillport.db'), { readonly: true, fileMustExist: true });
  try {
    return termListsComplete(db);
  } finally {
    db.close();
  }
}

/**
 * Fills `dataDir` with `count` seeded SQLite skills whose processing jobs have run: a copy from the
 * seed cache, made first when missing (seed through the store, drain with the server, keep). An
 * interrupted build resumes: a folder seeded but not yet drained is drained, not seeded again.
 * Returns what it did, for the log.
 */
async function seedSqliteFromCache(dataDir, count) {
  const cached = path.join(SEED_CACHE, seedKey(count));
  let made = '';
  if (!existsSync(path.join(cached, 'seeded.json'))) {
    const building = `${cached}.building`;
    const marker = path.join(building, 'seeded.json');
    let seeded = 0;
    if (!existsSync(marker)) {
      rmSync(building, { recursive: true, force: true });
      mkdirSync(building, { recursive: true });
      const started = performance.now();
      const store = createSqliteStore({ dataDir: building });
      await seed(store, count);
      await store.close();
      writeFileSync(marker, JSON.stringify({ count, templateSource }));
      seeded = (performance.now() - started) / 1000;
    }
    // Several jobs at once: the HTTP thread renders overviews while the database thread writes.
    const server = await startServer({ SKILLPORT_DATA_DIR: building, SKILLPORT_JOB_CONCURRENCY: '4' }, null);
    children.push(server.child);
    let drained;
    try {
      drained = await drainByPolling(building);
      drained += await settle(building);
    } finally {
      await stopChild(server.child);
    }
    renameSync(building, cached);
    made = `seeded in ${seeded.toFixed(1)} s, drained in ${drained.toFixed(1)} s, kept in the seed cache; `;
  } else if (!(await seedListsComplete(cached))) {
    // A seed kept before its lists were built: finish them once, in the cache, not in every run.
    const server = await startServer({ SKILLPORT_DATA_DIR: cached }, null);
    children.push(server.child);
    let waited;
    try {
      waited = await settle(cached);
    } finally {
      await stopChild(server.child);
    }
    made = `per-term lists finished in the seed cache in ${waited.toFixed(1)} s; `;
  }
  const started = performance.now();
  cpSync(cached, dataDir, { recursive: true });
  rmSync(path.join(dataDir, 'seeded.json'));
  return `${made}copied from ${cached} in ${((performance.now() - started) / 1000).toFixed(1)} s`;
}

/** Settings of the bench's PostgreSQL clusters. */
const PG_SETTINGS = { shared_buffers: '256MB' };

/**
 * Starts a PostgreSQL cluster holding `count` seeded skills (schema `bench`) whose processing jobs
 * have run: a copy of the data folder kept in the seed cache, made first when missing — the SQLite
 * seed of the same count (itself from the cache) moved into a new cluster with `importRecords` (what
 * `skillport db import` does), vacuumed and analysed, shut down cleanly and kept. Returns the running
 * cluster and what it did, for the log.
 */
async function seedPostgresFromCache(count) {
  const cached = path.join(SEED_CACHE, seedKey(count).replace(/^sqlite-/, 'postgres-'));
  let made = '';
  if (!existsSync(path.join(cached, 'seeded.json'))) {
    const building = `${cached}.building`;
    rmSync(building, { recursive: true, force: true });
    mkdirSync(building, { recursive: true });
    const sqliteDir = mkdtempSync(path.join(tmpdir(), 'skillport-bench-'));
    const started = performance.now();
    try {
      await seedSqliteFromCache(sqliteDir, count);
      const cluster = await startPostgresCluster({ settings: PG_SETTINGS });
      clusters.push(cluster);
      const source = createSqliteStore({ dataDir: sqliteDir });
      const target = createPostgresStore({ url: cluster.url, schema: 'bench', poolSize: 2 });
      try {
        await target.importRecords(source.exportRecords());
      } finally {
        await source.close();
        await target.close();
      }
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: cluster.url });
      await client.connect();
      try {
        await client.query('VACUUM (ANALYZE)');
      } finally {
        await client.end();
      }
      cluster.stop({ keep: path.join(building, 'data') });
    } finally {
      rmSync(sqliteDir, { recursive: true, force: true });
    }
    writeFileSync(path.join(building, 'seeded.json'), JSON.stringify({ count, templateSource }));
    renameSync(building, cached);
    made = `imported from the SQLite seed in ${((performance.now() - started) / 1000).toFixed(1)} s, kept in the seed cache; `;
  }
  const started = performance.now();
  const cluster = await startPostgresCluster({ settings: PG_SETTINGS, dataFrom: path.join(cached, 'data') });
  clusters.push(cluster);
  return {
    cluster,
    made: `${made}copied from ${cached} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  };
}

/**
 * Seeds `count` skills, starts the server on them, runs `scenarios(server)` and returns its rows.
 */
async function withServer(engine, count, label, body) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'skillport-bench-'));
  let env = { SKILLPORT_DATA_DIR: dataDir };
  let seeded;
  let names;
  let cluster = null;
  if (engine.name === 'sqlite' && SEED_CACHE !== null) {
    seeded = await seedSqliteFromCache(dataDir, count);
    names = Array.from({ length: count }, (_, i) => seededName(i));
  } else if (engine.name === 'postgres' && SEED_CACHE !== null) {
    const copy = await seedPostgresFromCache(count);
    cluster = copy.cluster;
    seeded = copy.made;
    names = Array.from({ length: count }, (_, i) => seededName(i));
    env = { ...env, SKILLPORT_DATABASE_URL: cluster.url, SKILLPORT_DATABASE_SCHEMA: 'bench' };
  } else {
    let store;
    if (engine.name === 'postgres') {
      cluster = await startPostgresCluster({ settings: PG_SETTINGS });
      clusters.push(cluster);
      const schema = 'bench';
      store = createPostgresStore({ url: cluster.url, schema, poolSize: 8 });
      env = { ...env, SKILLPORT_DATABASE_URL: cluster.url, SKILLPORT_DATABASE_SCHEMA: schema };
    } else {
      store = createSqliteStore({ dataDir });
    }
    const seedStarted = performance.now();
    names = await seed(store, count);
    await store.close();
    seeded = `seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`;
  }
  try {
    const server = await startServer(env, `${engine.name}-${label}`);
    children.push(server.child);
    try {
      const drainSeconds = await drain(server.url);
      const settled =
        engine.name === 'sqlite' ? ` and settled in ${(await settle(dataDir)).toFixed(1)} s` : '';
      console.log(
        `${engine.name}: ${count} skills ${seeded}, processing jobs drained in ${drainSeconds.toFixed(1)} s${settled}`,
      );
      return await body(
        server,
        names.filter((_, i) => i % 10 !== 0),
        dataDir,
      );
    } finally {
      await stopChild(server.child);
    }
  } finally {
    cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function benchEngine(engine, ceiling, shape) {
  const rows = [];
  /**
   * Runs `measure` and adds its row, unless BENCH_SCENARIOS leaves out its `key`. A result measured by
   * `shaped` (read rows) also gets its ratio to the same-shape ceiling (see {@link shapeCeiling}).
   */
  const add = async (key, skills, scenario, measure, goal) => {
    if (!SCENARIOS.has(key)) return;
    const result = await measure();
    const same =
      result.shapeOf && shape
        ? await shapeCeiling(shape, result.shapeOf.options, result.shapeOf.status, result.responseBytes)
        : null;
    const row = {
      skills,
      scenario,
      'req/s': Math.round(result.rps),
      '× ceiling': fmt(result.rps / ceiling.rps, 2),
      '× same-shape': same ? fmt(result.rps / same.rps, 2) : '',
      'p50 ms': fmt(result.p50),
      'p95 ms': fmt(result.p95),
      'p99 ms': fmt(result.p99),
      'cpu µs/req': Math.round(result.cpuUs),
      errors: result.errors,
      goal: goal ? goal.label : '',
      verdict: goal ? (goal.pass(result) ? 'PASS' : 'MISS') : '',
    };
    rows.push(row);
    return row;
  };
  const c = CONNECTIONS;
  await withServer(engine, SKILLS, 'small', async (server, names, dataDir) => {
    const pid = server.pid;
    /** `run` of a read row, kept with its requests for the same-shape ceiling. */
    const shaped = async (options, expect = [200]) => {
      const result = await run(pid, options, expect);
      result.shapeOf = { options, status: expect[0] };
      return result;
    };
    await add('health', SKILLS, 'health GET /health', () => shaped({ url: `${server.url}/health` }));
    await add('get', SKILLS, 'get (all levels, files)', () => shaped(getScenario(server.url, names, '')), {
      label: 'get ≥ 0.5× ceiling',
      pass: (r) => r.rps >= 0.5 * ceiling.rps,
    });
    for (const level of [0, 1, 2]) {
      await add('levels', SKILLS, `get L${level}`, () =>
        shaped(getScenario(server.url, names, `?level=${level}&include_files=false`)),
      );
    }
    // The get rows above draw from all the skills for a few seconds, so most of their gets are the
    // first ask of that skill in the run (no read cache helps: they measure a cold read). Here 100
    // skills asked once before are asked again and again: what a get the server keeps costs.
    await add('hot', SKILLS, 'get L0 / all levels, 100 skills asked before', async () => {
      const hot = names.slice(0, 100);
      for (const query of ['?level=0&include_files=false', '']) {
        for (const name of hot)
          await (await fetch(`${server.url}/api/v1/skills/${name}${query}`)).arrayBuffer();
      }
      return shaped({
        url: server.url,
        requests: [
          {
            method: 'GET',
            setupRequest: (r) => ({
              ...r,
              path: `/api/v1/skills/${randomOf(hot)}${Math.random() < 0.5 ? '?level=0&include_files=false' : ''}`,
            }),
          },
        ],
      });
    });
    await add(
      '304',
      SKILLS,
      'get L2 If-None-Match → 304',
      async () => {
        const tagged = await etagsOf(server.url, names.slice(0, 1000));
        return shaped(
          {
            url: server.url,
            requests: [
              {
                method: 'GET',
                setupRequest: (r) => {
                  const [name, etag] = randomOf(tagged);
                  return {
                    ...r,
                    path: `/api/v1/skills/${name}?level=2&include_files=false`,
                    headers: { ...r.headers, 'if-none-match': etag },
                  };
                },
              },
            ],
          },
          [304],
        );
      },
      { label: '304 ≥ 0.7× ceiling', pass: (r) => r.rps >= 0.7 * ceiling.rps },
    );
    // Gets while the registry takes a trickle of adds and updates (each commits twice: the write and
    // its processing job): a kept result of a skill no write touched stays served, but only after it
    // is checked against the skill's stamp (one index probe of ~20-40 µs, once per kept result and
    // commit), so this row costs `get L0` plus about one probe per get: with 10,000 skills drawn at
    // random and 4 commits a second, nearly every get comes after a commit its kept result has not
    // been checked against yet.
    await add('getw', SKILLS, `get L0 + ${FIND_WRITES} writes/s`, () =>
      withWrites(server.url, names, () =>
        run(pid, getScenario(server.url, names, '?level=0&include_files=false')),
      ),
    );
    await add('list', SKILLS, 'list page of 50 (cursor)', async () =>
      shaped(listScenario(server.url, await listCursors(server.url))),
    );
    if (engine.name === 'sqlite' && SCENARIOS.has('find'))
      console.log(`sqlite: ${SKILLS} skills, find rows start; ${await termListsProgress(dataDir)}`);
    await add('find', SKILLS, 'find (1 conn)', () => run(pid, findScenario(server.url, 1)));
    await add('find', SKILLS, `find (${c} conn)`, () => run(pid, findScenario(server.url, c)), {
      label: `find p99 ≤ 25 ms, ${c} conn`,
      pass: (r) => r.p99 <= 25,
    });
    await add(
      'find',
      SKILLS,
      `find (${c} conn), ${DISTINCT_QUERIES.length} distinct queries`,
      () => run(pid, findScenario(server.url, c, DISTINCT_QUERIES, { fresh: true })),
      { label: `find p99 ≤ 25 ms, ${c} conn`, pass: (r) => r.p99 <= 25 },
    );
    // A registry that also receives a trickle of adds and updates: every commit retires the search
    // connections' kept per-word relevance (see sqlite-search.ts), so find must not get slower here.
    await add('findw', SKILLS, `find (${c} conn) + ${FIND_WRITES} writes/s`, () =>
      withWrites(server.url, names, () => run(pid, findScenario(server.url, c))),
    );
    await add(
      'add',
      SKILLS,
      'add inline SKILL.md',
      () => run(pid, addScenario(server.url), [200], { drain: true, warmupSeconds: WRITE_WARMUP_SECONDS }),
      {
        label: 'add ≥ 1000 req/s',
        pass: (r) => r.rps >= 1000,
      },
    );
    await add(
      'folder',
      SKILLS,
      'folder add (zip upload + add), adds/s',
      async () => {
        const folder = await run(pid, folderAddScenario(server.url), [200], {
          drain: true,
          warmupSeconds: WRITE_WARMUP_SECONDS,
        });
        // Two requests per folder add (upload, add): the rate and CPU are per folder added.
        folder.rps /= 2;
        folder.cpuUs *= 2;
        return folder;
      },
      { label: 'folder add ≥ 300/s', pass: (r) => r.rps >= 300 },
    );
  });
  const large = engine.name === 'postgres' ? PG_SKILLS_LARGE : SKILLS_LARGE;
  printRows(engine, ceiling, rows);
  const small = rows.length;
  if (large > 0) {
    await withServer(engine, large, 'large', async (server, names, dataDir) => {
      const pid = server.pid;
      await add('levels', large, 'get L2', () =>
        run(pid, getScenario(server.url, names, '?level=2&include_files=false')),
      );
      await add(
        'list',
        large,
        'list page of 50 (cursor)',
        async () => run(pid, listScenario(server.url, await listCursors(server.url))),
        { label: 'list p99 ≤ 20 ms', pass: (r) => r.p99 <= 20 },
      );
      // Goals at 100 000 skills: 60 ms on SQLite (one process), 50 ms on PostgreSQL (per replica).
      const findGoal = engine.name === 'postgres' ? 50 : 60;
      // As at BENCH_SKILLS: the 16 queries on one connection first, so the 10-connection row is
      // measured after the same work at both counts. On SQLite a search thread's first ask of a query
      // ranks every match and a later ask reads the query's words' relevance into the thread (tens to
      // hundreds of ms each at 100,000 skills, against ~1 ms for a warm find); without this row that
      // cold start fell inside the 10-connection row and made its p99. It shows here instead (a
      // query that spills to the other search thread under 10 connections is still cold there).
      if (engine.name === 'sqlite' && SCENARIOS.has('find'))
        console.log(`sqlite: ${large} skills, find rows start; ${await termListsProgress(dataDir)}`);
      await add('find', large, 'find (1 conn)', () => run(pid, findScenario(server.url, 1)));
      await add('find', large, `find (${c} conn)`, () => run(pid, findScenario(server.url, c)), {
        label: `find p99 ≤ ${findGoal} ms, ${c} conn`,
        pass: (r) => r.p99 <= findGoal,
      });
      await add(
        'find',
        large,
        `find (${c} conn), ${DISTINCT_QUERIES.length} distinct queries`,
        () => run(pid, findScenario(server.url, c, DISTINCT_QUERIES, { fresh: true })),
        { label: `find p99 ≤ ${findGoal} ms, ${c} conn`, pass: (r) => r.p99 <= findGoal },
      );
      await add('findw', large, `find (${c} conn) + ${FIND_WRITES} writes/s`, () =>
        withWrites(server.url, names, () => run(pid, findScenario(server.url, c))),
      );
      // Memory after at least a fixed amount of work: the timed scenarios above do less of it on a
      // busy machine, so a fixed load follows them (its statuses count as errors of the RSS row).
      const load = await memoryLoad(server.url, names);
      // The server's own RSS; a thin `skillport serve` parent adds its private memory (what it does
      // not share with the server: the Node binary's pages are counted once, in the server's RSS).
      const mem = rssMb(pid);
      const parent = server.tree.length > 1 ? privateMb(server.tree[0]) : 0;
      const what =
        server.tree.length > 1
          ? `skillport serve: server child RSS + ${parent.toFixed(0)} MB private to its parent; after fixed load ${(mem.rss + parent).toFixed(0)} MB, peak`
          : `${SERVE === 'cli' ? 'skillport serve' : 'dist/main.js'} (one process) RSS after fixed load ${mem.rss.toFixed(0)} MB, peak`;
      const peak = mem.peak + parent;
      rows.push({
        skills: large,
        scenario: what,
        'req/s': '',
        goal: 'RSS ≤ 300 MB',
        verdict: peak <= 300 ? 'PASS' : 'MISS',
        'p50 ms': `${peak.toFixed(0)} MB`,
        errors: load.errors,
      });
    });
  } else {
    rows.push({
      skills: '-',
      scenario: `${engine.name}: large scenarios not run (set ${engine.name === 'postgres' ? 'BENCH_PG_SKILLS_LARGE' : 'BENCH_SKILLS_LARGE'})`,
      goal: 'find/list at 100k, RSS',
      verdict: 'SKIP',
    });
  }
  if (rows.length > small) printRows(engine, ceiling, rows.slice(small));
  return rows;
}

function printRows(engine, ceiling, rows) {
  console.log(
    `\n### ${engine.name} — ceiling (bare node:http) ${Math.round(ceiling.rps)} req/s; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.table(rows);
}

// ---------------------------------------------------------------------------------------------------

const children = [];
const clusters = [];
const stopAll = () => {
  for (const child of children) child.kill('SIGKILL');
  for (const cluster of clusters) cluster.stop();
};
process.once('SIGINT', () => {
  stopAll();
  process.exit(130);
});
const startedAs =
  SERVE === 'cli'
    ? '`skillport serve` (packages/cli/dist/bin.js)'
    : `${path.relative(process.cwd(), path.join(dist, 'main.js'))} (one process)`;
try {
  console.log(
    `seed: ${templateSource}; ${SKILLS} and ${SKILLS_LARGE} skills; ${SECONDS} s per scenario, ${CONNECTIONS} connections; ` +
      `load average at start ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}; server started as ${startedAs}; ` +
      `MALLOC_ARENA_MAX ${process.env.MALLOC_ARENA_MAX ?? 'unset'}`,
  );
  const bare = await startChild(
    [
      '-e',
      `const body = JSON.stringify({status:'ok',result:{name:'skill-00001',description:'fixed body'},time:0});
       const s = require('node:http').createServer((q, r) => { r.writeHead(200, {'content-type':'application/json'}); r.end(body); });
       s.listen(0, '127.0.0.1', () => console.log(JSON.stringify({url: 'http://127.0.0.1:' + s.address().port})));`,
    ],
    {},
  );
  children.push(bare.child);
  const hono = await startChild([path.join(here, 'hono-floor.mjs')], {});
  children.push(hono.child);
  const shape = await startChild(['-e', SHAPE_SERVER], {});
  children.push(shape.child);

  for (const name of ENGINES) {
    let engine = { name };
    if (name === 'postgres') {
      if (findPostgresBin() === null) {
        console.log('postgres: not measured (PostgreSQL binaries not found; install postgresql)');
        continue;
      }
      engine = { name };
    } else if (name !== 'sqlite') {
      throw new Error(`BENCH_ENGINES: unknown engine ${name}`);
    }
    const ceiling = await run(bare.child.pid, { url: bare.url });
    const floor = await run(hono.child.pid, { url: hono.url });
    console.log(
      `${name}: ceiling (bare node:http) ${Math.round(ceiling.rps)} req/s, framework floor (bare Hono) ` +
        `${Math.round(floor.rps)} req/s = ${(floor.rps / ceiling.rps).toFixed(2)}× ceiling`,
    );
    const rows = await benchEngine(engine, ceiling, shape);
    const misses = rows.filter((r) => r.verdict === 'MISS').length;
    const errors = rows.reduce((sum, r) => sum + (Number(r.errors) || 0), 0);
    console.log(`${name}: ${misses} goal(s) missed; ${errors} unexpected status(es) or errors`);
  }
} finally {
  for (const child of children) await stopChild(child);
  for (const cluster of clusters) cluster.stop();
}
