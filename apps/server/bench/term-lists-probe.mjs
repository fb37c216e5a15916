// In-process probe of the SQLite per-term match lists (`search/term-lists.ts`, against the built
// dist/): on a copy of a database, measures the lists' first build and their upkeep after writes in
// CPU time (steadier than wall time on a shared machine), without HTTP or the 20% duty cap's rests.
//
//   node apps/server/bench/term-lists-probe.mjs build <data dir>
//   node apps/server/bench/term-lists-probe.mjs upkeep <data dir> [writes] [per pass]
//
// `build` empties the lists of `<data dir>/skillport.db` (migrated first, as the server would) and
// builds them in steps of the server's budget (4,096 estimated µs, 4 ms): CPU s, CPU µs per skill
// indexed, steps, the steps' CPU (ms: p50, p99 and the longest), parts written, and the V8 heap's peak between steps
// (MB; with --expose-gc, measured after a full collection every 64 steps, outside the CPU figures). `upkeep` (lists built first, if not) adds `writes` skills of the large corpus
// (default 200; new names, as the server bench's adds), `per pass` of them (default 10) between
// upkeep passes run to the end, and prints CPU µs, parts rewritten and delta segment rows written
// per written skill, and the longest step's CPU (ms). The WAL is checkpointed between steps, outside
// the CPU figures, as the threaded server's checkpointer thread does (its connection's own
// `wal_autocheckpoint` is that server's backstop, so a step's commit does not checkpoint). One JSON line
// each. Env: BENCH_TERM_LISTS_DIST (the built server folder, default ../dist), SKILLPORT_CORPUS_LARGE.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadTemplates } from './find-queries.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, process.env.BENCH_TERM_LISTS_DIST ?? '../dist');
const lists = await import(pathToFileURL(path.join(dist, 'search/term-lists.js')).href);
const { openConnection } = await import(pathToFileURL(path.join(dist, 'store/sqlite/connection.js')).href);
const { createSqliteStore } = await import(pathToFileURL(path.join(dist, 'index.js')).href);
const { WAL_BACKSTOP_PAGES } = await import(
  pathToFileURL(path.join(dist, 'store/sqlite/wal-checkpointer.js')).href
);

const [mode, dataDir, writesArg = '200', perPassArg = '10'] = process.argv.slice(2);
if ((mode !== 'build' && mode !== 'upkeep') || dataDir === undefined) {
  console.error('usage: term-lists-probe.mjs build|upkeep <data dir> [writes] [per pass]');
  process.exit(2);
}
const file = path.join(dataDir, 'skillport.db');
/** The server's step: 64 pages × 64 µs (create-sqlite-store.ts), its time budget 4 ms. */
const BUDGET = 64 * 64;

// Migrate (the store opens and closes), then work on a connection of our own.
await (await createSqliteStore({ dataDir })).close();
const conn = openConnection(file, { walAutocheckpointPages: WAL_BACKSTOP_PAGES });

function cpuUs() {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/**
 * Runs passes to the end; returns CPU µs, steps, the longest step's CPU ms, rows tokenized, parts
 * rewritten, delta segment rows written.
 */
function runPasses(builder) {
  const totals = {
    cpuUs: 0,
    steps: 0,
    longestMs: 0,
    rows: 0,
    parts: 0,
    deltas: 0,
    heapPeakMb: 0,
    stepUs: [],
  };
  for (;;) {
    const cpu = cpuUs();
    const more = lists.runTermListStep(conn, builder, BUDGET);
    const used = cpuUs() - cpu;
    totals.cpuUs += used;
    totals.stepUs.push(used);
    totals.longestMs = Math.max(totals.longestMs, used / 1000);
    totals.rows += builder.last.rows;
    totals.parts += builder.last.parts;
    totals.deltas += builder.last.deltas ?? 0;
    if (totals.steps % 64 === 0) {
      // The checkpointer's work (another thread in the server), not counted.
      const cpuCheckpoint = cpuUs();
      conn.db.pragma('wal_checkpoint(PASSIVE)');
      totals.cpuUs -= cpuUs() - cpuCheckpoint;
      // With --expose-gc: the heap that survives a full collection (what the step keeps).
      const cpuBefore = cpuUs();
      globalThis.gc?.();
      totals.heapPeakMb = Math.max(totals.heapPeakMb, process.memoryUsage().heapUsed / 1e6);
      totals.cpuUs -= cpuUs() - cpuBefore;
    }
    if (!more) return totals;
    totals.steps++;
  }
}

/** p50, p99 and max of step CPU µs, in ms. */
function percentiles(us) {
  const sorted = Float64Array.from(us).sort();
  const at = (q) =>
    +((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) / 1000).toFixed(1);
  return { p50: at(0.5), p99: at(0.99), max: at(1) };
}

const skills = conn.db.prepare('SELECT count(*) FROM skills').pluck(true).get();
let builder = new lists.TermListBuilder();
if (mode === 'build' || lists.readTermListState(conn)?.covered == null) {
  conn.db.exec(
    'DELETE FROM search_term_lists; UPDATE search_term_build SET covered = NULL, target = NULL, next_seq = NULL',
  );
  const t = runPasses(builder);
  const out = {
    mode: 'build',
    skills,
    cpuS: +(t.cpuUs / 1e6).toFixed(2),
    cpuUsPerSkill: Math.round(t.cpuUs / skills),
    steps: t.steps,
    stepCpuMs: percentiles(t.stepUs),
    longestStepCpuMs: +t.longestMs.toFixed(1),
    parts: t.parts,
    heapPeakMb: +t.heapPeakMb.toFixed(1),
  };
  console.log(JSON.stringify(out));
  if (mode === 'build') {
    conn.db.close();
    process.exit(0);
  }
}

const writes = Number(writesArg);
const perPass = Number(perPassArg);
const { templates } = loadTemplates(
  process.env.SKILLPORT_CORPUS_LARGE ?? path.resolve(here, '../../../../shared/corpus-large'),
);
const enc = new TextEncoder();
const store = await createSqliteStore({ dataDir });
await store.ensureAccount('default');
await store.ensureUser('default', 'default');
const stamp = Date.now().toString(36);
const totals = { cpuUs: 0, rows: 0, parts: 0, deltas: 0, longestMs: 0 };
builder = new lists.TermListBuilder();
for (let done = 0; done < writes; ) {
  for (let k = 0; k < perPass && done < writes; k++, done++) {
    const { text, skill } = templates[(done * 7919) % templates.length];
    const name = `probe-${stamp}-${done}`;
    const renamed = text.replace(/^name:[^\n]*$/m, `name: ${name}`);
    await store.putSkill({
      accountId: 'default',
      rootUri: 'viking://user/default/skills',
      name,
      description: skill.description ?? '',
      tags: skill.tags,
      allowedTools: skill.allowedTools,
      frontmatter: { ...skill.frontmatter, name },
      body: skill.body,
      sourceMetadata: null,
      files: [{ path: 'SKILL.md', kind: 'definition', content: enc.encode(renamed) }],
      task: { type: 'add_skill', userId: 'default' },
    });
  }
  const t = runPasses(builder);
  totals.cpuUs += t.cpuUs;
  totals.rows += t.rows;
  totals.parts += t.parts;
  totals.deltas += t.deltas;
  totals.longestMs = Math.max(totals.longestMs, t.longestMs);
}
await store.close();
console.log(
  JSON.stringify({
    mode: 'upkeep',
    skills,
    writes,
    perPass,
    rows: totals.rows,
    cpuUsPerWrite: Math.round(totals.cpuUs / writes),
    partsPerWrite: +(totals.parts / writes).toFixed(1),
    deltaRowsPerWrite: +(totals.deltas / writes).toFixed(1),
    longestStepCpuMs: +totals.longestMs.toFixed(1),
  }),
);
conn.db.close();
