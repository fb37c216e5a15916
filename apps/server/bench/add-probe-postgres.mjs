// Add probe on PostgreSQL (against a built server): where the CPU of an add goes, on both sides of the
// connection. Starts a throwaway cluster with `pg_stat_statements` (nested statements tracked too, so a
// trigger's statements show on their own), starts the server's `main.js` on it, sends adds over HTTP
// with a few connections and prints one JSON line — adds per second, p50/p99 ms, the server process's
// CPU µs per add (user + system) and the whole cluster's CPU µs per add (every PostgreSQL process:
// backends, WAL writer, checkpointer) — then the statements with the most execution time (calls, ms
// per call; a trigger's statements are also inside their caller's time, and time spent waiting on a
// row lock counts as execution time). Short runs on a busy machine: compare builds by alternating runs.
// The search-term counts left pending by the adds are folded before the CPU is read (builds with
// PostgreSQL migration 22), so their upkeep is counted.
//
//   node apps/server/bench/add-probe-postgres.mjs [adds=400] [connections=10] [add|folder]
//
// `add` posts an inline SKILL.md (as the server bench's add row), `folder` a zip temp upload then an add
// of it (its folder add row). Env: BENCH_ADD_DIST (the built server folder, default ../dist),
// BENCH_ADD_DATA (the data folder of a stopped cluster to start on a copy of, e.g. a seed kept by the
// server bench's BENCH_SEED_CACHE, `postgres-<count>-…/data`, schema `bench`; default an empty cluster),
// BENCH_ADD_SQL (statements run in the store's schema after the warm-up, before the timed adds: to try
// a change of a trigger or setting without a new build), SKILLPORT_CORPUS_LARGE (the SKILL.md corpus).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import pg from 'pg';
import { loadTemplates } from './find-queries.mjs';

// Output piped into a reader that stops early (`| head`) must not kill the probe before it stops its
// server and cluster.
process.stdout.on('error', () => {});
const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, process.env.BENCH_ADD_DIST ?? '../dist');
const [addsArg = '400', connectionsArg = '10', mode = 'add'] = process.argv.slice(2);
const ADDS = Number(addsArg);
const CONNECTIONS = Number(connectionsArg);
if (!(ADDS > 0) || !(CONNECTIONS > 0) || (mode !== 'add' && mode !== 'folder')) {
  console.error('usage: add-probe-postgres.mjs [adds=400] [connections=10] [add|folder]');
  process.exit(2);
}
const WARM_UP = 30;
const SCHEMA = 'bench';
const corpusDir = process.env.SKILLPORT_CORPUS_LARGE ?? path.resolve(here, '../../../../shared/corpus-large');
const { templates } = loadTemplates(corpusDir);
const clusterHelper = new URL('../../../scripts/test-support/postgres-cluster.mjs', import.meta.url);
const { findPostgresBin, startPostgresCluster } = await import(clusterHelper.href);
if (findPostgresBin() === null) {
  console.error('add-probe-postgres: PostgreSQL binaries not found');
  process.exit(2);
}

const cluster = await startPostgresCluster({
  dataFrom: process.env.BENCH_ADD_DATA,
  settings: {
    shared_buffers: '256MB',
    shared_preload_libraries: 'pg_stat_statements',
    'pg_stat_statements.track': 'all',
  },
});
const dataDir = mkdtempSync(path.join(tmpdir(), 'skillport-add-probe-'));
let server = null;
const db = new pg.Client({ connectionString: cluster.url });
try {
  await db.connect();
  await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');

  /** CPU ms (user + system) of one process, from /proc; 0 once it is gone. */
  const cpuMs = (pid) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    } catch {
      return 0;
    }
  };
  const postmaster = Number(
    readFileSync(path.join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0],
  );
  /** CPU ms of the cluster: the postmaster and every process it started (as of now). */
  const clusterCpuMs = () => {
    let total = cpuMs(postmaster);
    for (const tid of readdirSync(`/proc/${postmaster}/task`)) {
      const kids = readFileSync(`/proc/${postmaster}/task/${tid}/children`, 'utf8').trim();
      if (kids !== '') for (const pid of kids.split(/\s+/)) total += cpuMs(Number(pid));
    }
    return total;
  };

  server = spawn(process.execPath, [path.join(dist, 'main.js')], {
    env: {
      ...process.env,
      SKILLPORT_DATA_DIR: dataDir,
      SKILLPORT_DATABASE_URL: cluster.url,
      SKILLPORT_DATABASE_SCHEMA: SCHEMA,
      SKILLPORT_PORT: '0',
      SKILLPORT_HOST: '127.0.0.1',
      SKILLPORT_EMBEDDINGS: process.env.SKILLPORT_EMBEDDINGS ?? 'off',
      // As the server bench: no limit on the number of skills of the account.
      SKILLPORT_ACCOUNT_MAX_SKILLS: process.env.SKILLPORT_ACCOUNT_MAX_SKILLS ?? '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    server.once('exit', (code) => reject(new Error(`server exited (${code}) before listening`)));
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const found = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (found) resolve(found[1]);
    });
  });

  const enc = new TextEncoder();
  const BOUNDARY = '----skillport-add-probe';
  const skillText = (i, name) =>
    templates[i % templates.length].text.replace(/^name:[^\n]*$/m, `name: ${name}`);
  const expectOk = async (res) => {
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${res.status} ${body.slice(0, 300)}`);
    return body;
  };
  /** One add (or upload + add), its milliseconds. */
  const addOne = async (i) => {
    const started = performance.now();
    if (mode === 'add') {
      await expectOk(
        await fetch(`${url}/api/v1/skills`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ data: skillText(i, `probe-add-${i}`) }),
        }),
      );
    } else {
      const name = `probe-folder-${i}`;
      const zip = zipSync({
        [`${name}/SKILL.md`]: enc.encode(skillText(i, name)),
        [`${name}/scripts/run.sh`]: enc.encode('#!/bin/sh\necho "run"\n'),
        [`${name}/reference.md`]: enc.encode(`# Reference of ${name}\n\nDetails.\n`),
      });
      const head = enc.encode(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}.zip"\r\n` +
          'Content-Type: application/zip\r\n\r\n',
      );
      const upload = await expectOk(
        await fetch(`${url}/api/v1/resources/temp_upload`, {
          method: 'POST',
          headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
          body: Buffer.concat([head, zip, enc.encode(`\r\n--${BOUNDARY}--\r\n`)]),
        }),
      );
      await expectOk(
        await fetch(`${url}/api/v1/skills`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ temp_file_id: JSON.parse(upload).result.temp_file_id }),
        }),
      );
    }
    return performance.now() - started;
  };

  for (let i = 0; i < WARM_UP; i++) await addOne(1_000_000 + i);
  if (process.env.BENCH_ADD_SQL) {
    await db.query(`SET search_path = "${SCHEMA}", public; ${process.env.BENCH_ADD_SQL}`);
  }
  await db.query('SELECT pg_stat_statements_reset()');
  const serverBefore = cpuMs(server.pid);
  const clusterBefore = clusterCpuMs();
  const started = performance.now();
  const times = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      for (let i = next++; i < ADDS; i = next++) times.push(await addOne(i));
    }),
  );
  const wall = performance.now() - started;
  // The search-term counts of the adds still pending (a build with migration 22 folds them in the
  // background, every few dozen adds, and while idle) are folded before the CPU is read, so the
  // figures include that work: waits (up to 15 s) until none is left. A build without it skips this.
  const { rows: deltas } = await db.query(
    `SELECT to_regclass('"${SCHEMA}".skill_term_count_deltas') IS NOT NULL AS present`,
  );
  for (let waited = 0; deltas[0]?.present && waited < 15_000; waited += 100) {
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM "${SCHEMA}".skill_term_count_deltas`);
    if (rows[0].n === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const serverCpu = cpuMs(server.pid) - serverBefore;
  const clusterCpu = clusterCpuMs() - clusterBefore;
  times.sort((a, b) => a - b);
  const at = (q) => Number(times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1));
  console.log(
    JSON.stringify({
      mode,
      adds: ADDS,
      connections: CONNECTIONS,
      addsPerSecond: Number(((ADDS * 1000) / wall).toFixed(1)),
      p50Ms: at(0.5),
      p99Ms: at(0.99),
      serverCpuUsPerAdd: Math.round((serverCpu * 1000) / ADDS),
      postgresCpuUsPerAdd: Math.round((clusterCpu * 1000) / ADDS),
      load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    }),
  );
  console.log('calls | ms per call | total ms | statement');
  const { rows } = await db.query(
    `SELECT calls, round((total_exec_time / calls)::numeric, 3) AS per_call, round(total_exec_time::numeric, 1) AS total,
       left(regexp_replace(query, '\\s+', ' ', 'g'), 120) AS statement
     FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%'
     ORDER BY total_exec_time DESC LIMIT 15`,
  );
  for (const row of rows) console.log(`${row.calls} | ${row.per_call} | ${row.total} | ${row.statement}`);
} finally {
  await db.end().catch(() => {});
  if (server !== null && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
  cluster.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
