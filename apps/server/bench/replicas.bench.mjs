// Replica benchmark (run by `pnpm bench`, against the built dist/): one throwaway PostgreSQL cluster,
// BENCH_SKILLS skills seeded through the store, then the same scenarios against one server process
// and against two processes (`dist/main.js`) sharing the database: add (inline SKILL.md, its
// processing job run by the replicas meanwhile) and find, each replica loaded with BENCH_CONNECTIONS
// connections. Prints a table (req/s summed over replicas, p50/p99, errors), each replica's RSS, and
// checks the goals: 2 replicas >= 1.6x the add throughput of 1; RSS <= 300 MB per replica.
//
// On a machine with few cores the replicas, PostgreSQL and the load generator share them: the
// scaling measured is then bounded by the cores, not by the server (the table prints the core count).
//
// Each row also gives the CPU the PostgreSQL processes spent per request, how busy the machine's
// cores were (all processes, this one included: at ~100% the cores, not the server, bound the rate),
// and the database backends running a statement and, of those, waiting on a lock (sampled every
// 50 ms from pg_stat_activity, mean): writes queued on one row show as lock waits.
//
// Env: BENCH_SKILLS (5000; the seed's processing jobs are drained before measuring), BENCH_SECONDS per scenario (5), BENCH_CONNECTIONS per replica (10),
// BENCH_SERVER_DIST (the built server folder to measure, default ../dist: another build's `dist` for paired runs),
// BENCH_PG_SYNC=1 keeps PostgreSQL's fsync/synchronous_commit on (default off: a throwaway cluster),
// SKILLPORT_EMBEDDINGS (`off` unless set: with the bundled local model each added skill's job also
// embeds it, ~80 ms of CPU, which would measure the model rather than the replicas).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseSkillMd } from '@skillport/core';
import autocannon from 'autocannon';
import pg from 'pg';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, process.env.BENCH_SERVER_DIST ?? '../dist');
const SKILLS = Number(process.env.BENCH_SKILLS ?? 5000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WORDS = (
  'pdf git docker kubernetes search web browser csv excel email calendar slack linear jira github ' +
  'python rust typescript sql postgres sqlite redis image video audio translate summarize review ' +
  'deploy test lint format refactor debug profile security audit invoice report chart diagram'
).split(' ');
const enc = new TextEncoder();
const word = (i, k) => WORDS[(i * 7 + k * 13) % WORDS.length];

function skillMd(name, i) {
  return (
    `---\nname: ${name}\ndescription: Work with ${word(i, 3)} and ${word(i, 4)} files for ${word(i, 5)} tasks\n` +
    `tags: [${word(i, 1)}, ${word(i, 2)}]\n---\n\n# ${name}\n\nUse this skill to ${word(i, 6)} ${word(i, 7)} data.\n\n` +
    `## Parameters\n\n- **input** (string, required): the ${word(i, 8)} to process\n\n## Usage\n\n` +
    `Call it when the user asks about ${word(i, 9)} or ${word(i, 10)}.\n`
  );
}

/** Ends the bench with one line saying why it did not run. */
function skip(reason) {
  console.log(`replica bench skipped: ${reason}`);
  process.exit(0);
}

const clusterHelper = new URL('../../../scripts/test-support/postgres-cluster.mjs', import.meta.url);
const { findPostgresBin, startPostgresCluster } = existsSync(fileURLToPath(clusterHelper))
  ? await import(clusterHelper.href)
  : skip('this checkout has no PostgreSQL test-cluster helper');
if (findPostgresBin() === null) skip('PostgreSQL binaries (initdb, pg_ctl) not found');
const { createPostgresStore } = await import(pathToFileURL(path.join(dist, 'index.js')).href);
if (typeof createPostgresStore !== 'function') skip('this server build has no PostgreSQL store');

async function seed(url) {
  const store = createPostgresStore({ url, poolSize: 4 });
  await store.migrate();
  await store.ensureAccount('default');
  await store.ensureUser('default', 'default');
  const started = performance.now();
  const batch = [];
  for (let i = 0; i < SKILLS; i++) {
    const name = `skill-${String(i).padStart(6, '0')}`;
    const text = skillMd(name, i);
    const { skill } = parseSkillMd(text);
    batch.push(
      store.putSkill({
        accountId: 'default',
        rootUri: i % 10 === 0 ? 'viking://agent/skills' : 'viking://user/default/skills',
        name,
        description: skill.description ?? '',
        tags: skill.tags,
        allowedTools: skill.allowedTools,
        frontmatter: skill.frontmatter,
        body: skill.body,
        sourceMetadata: null,
        files: [
          { path: 'SKILL.md', kind: 'definition', content: enc.encode(text) },
          {
            path: '.abstract.md',
            kind: 'summary',
            content: enc.encode(`**${name}** — ${skill.description}\n`),
          },
        ],
        task: { type: 'add_skill', userId: 'default' },
      }),
    );
    if (batch.length >= 4) await Promise.all(batch.splice(0));
  }
  await Promise.all(batch);
  await store.close();
  return performance.now() - started;
}

function startReplica(url, id) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(dist, 'main.js')], {
      env: {
        ...process.env,
        SKILLPORT_DATABASE_URL: url,
        SKILLPORT_PORT: '0',
        SKILLPORT_HOST: '127.0.0.1',
        SKILLPORT_REPLICA_ID: id,
        SKILLPORT_EMBEDDINGS: process.env.SKILLPORT_EMBEDDINGS ?? 'off',
      },
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
      reject(new Error(`${id} exited early with ${code}: ${buffer.slice(0, 500)}`)),
    );
  });
}

function rssMb(pid) {
  const status = existsSync(`/proc/${pid}/status`) ? readFileSync(`/proc/${pid}/status`, 'utf8') : '';
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

let counter = 0;
const scenarios = {
  add: (url) => ({
    url,
    requests: [
      {
        method: 'POST',
        path: '/api/v1/skills',
        headers: { 'content-type': 'application/json' },
        setupRequest: (r) => {
          const n = counter++;
          return { ...r, body: JSON.stringify({ data: skillMd(`bench-add-${process.pid}-${n}`, n) }) };
        },
      },
    ],
  }),
  find: (url) => ({
    url,
    requests: [
      {
        method: 'POST',
        path: '/api/v1/skills/find',
        headers: { 'content-type': 'application/json' },
        setupRequest: (r) => {
          const n = counter++;
          return {
            ...r,
            body: JSON.stringify({
              query: `${WORDS[n % WORDS.length]} ${WORDS[(n * 5) % WORDS.length]}`,
              limit: 10,
            }),
          };
        },
      },
    ],
  }),
};

/** CPU time (user + system) of a process so far, ms. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks at USER_HZ = 100
}

/** CPU time (user + system) of the cluster's processes so far, ms (the postmaster and its children). */
function postgresCpuMs(dataDir) {
  const postmaster = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      if (Number(entry) !== postmaster && Number(fields[1]) !== postmaster) continue;
      total += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

/**
 * Samples the cluster's backends every 50 ms until `stop`: how many run a statement (not this
 * sampler) and how many of those wait on a lock, as means over the samples (one decimal).
 */
function sampleBackends() {
  const client = new pg.Client({ connectionString: clusterUrl });
  let active = 0;
  let waiting = 0;
  let samples = 0;
  let running = true;
  const done = (async () => {
    await client.connect();
    while (running) {
      const { rows } = await client.query(
        `SELECT count(*)::int AS active, count(*) FILTER (WHERE wait_event_type = 'Lock')::int AS waiting
         FROM pg_stat_activity WHERE backend_type = 'client backend' AND state = 'active' AND pid <> pg_backend_pid()`,
      );
      active += rows[0].active;
      waiting += rows[0].waiting;
      samples++;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await client.end();
  })();
  const mean = (n) => Math.round((10 * n) / Math.max(1, samples)) / 10;
  return {
    async stop() {
      running = false;
      await done;
      return { active: mean(active), waiting: mean(waiting) };
    },
  };
}

/** Busy and total jiffies of all cores so far (`/proc/stat`). */
function machineTicks() {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
  const total = cpu.reduce((sum, n) => sum + n, 0);
  return { busy: total - idle, total };
}

/**
 * Runs one scenario against every replica at once; sums req/s, takes the worst p50/p99, and the
 * replicas' CPU time per request (flat when adding a replica costs nothing but cores).
 */
async function load(replicas, scenario) {
  const sampler = sampleBackends();
  const cpuBefore = replicas.map((r) => cpuMs(r.child.pid));
  const postgresBefore = postgresCpuMs(clusterData);
  const ticksBefore = machineTicks();
  const results = await Promise.all(
    replicas.map(
      (replica) =>
        new Promise((resolve, reject) => {
          autocannon(
            { connections: CONNECTIONS, duration: SECONDS, ...scenarios[scenario](replica.url) },
            (error, out) => (error ? reject(error) : resolve(out)),
          );
        }),
    ),
  );
  const cpu = replicas.reduce((sum, r, i) => sum + cpuMs(r.child.pid) - cpuBefore[i], 0);
  const postgresCpu = postgresCpuMs(clusterData) - postgresBefore;
  const backends = await sampler.stop();
  const ticks = machineTicks();
  const total = results.reduce((sum, r) => sum + r.requests.total, 0);
  return {
    'req/s': Math.round(results.reduce((sum, r) => sum + r.requests.average, 0)),
    'p50 ms': Math.max(...results.map((r) => r.latency.p50)),
    'p99 ms': Math.max(...results.map((r) => r.latency.p99)),
    'server cpu µs/req': Math.round((cpu * 1000) / Math.max(1, total)),
    'postgres cpu µs/req': Math.round((postgresCpu * 1000) / Math.max(1, total)),
    'active backends': backends.active,
    'waiting on locks': backends.waiting,
    'cores busy %': Math.round(
      (100 * (ticks.busy - ticksBefore.busy)) / Math.max(1, ticks.total - ticksBefore.total),
    ),
    errors: results.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
  };
}

async function drain(replica) {
  const res = await fetch(`${replica.url}/api/v1/system/wait`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ timeout: 900 }),
  });
  if (!res.ok) throw new Error(`wait failed: ${res.status} ${await res.text()}`);
}

const settings = process.env.BENCH_PG_SYNC === '1' ? {} : { fsync: 'off', synchronous_commit: 'off' };
const cluster = await startPostgresCluster({ settings });
const clusterData = path.join(cluster.dir, 'data');
const clusterUrl = cluster.url;
const children = [];
try {
  const seedMs = await seed(cluster.url);
  console.log(`seeded ${SKILLS} skills into PostgreSQL in ${(seedMs / 1000).toFixed(1)} s`);
  const first = await startReplica(cluster.url, 'replica-1');
  children.push(first.child);
  const drainStarted = performance.now();
  await drain(first);
  console.log(
    `seed jobs drained by one replica in ${((performance.now() - drainStarted) / 1000).toFixed(1)} s`,
  );

  const rows = [];
  for (const scenario of ['find', 'add']) {
    rows.push({ scenario, replicas: 1, ...(await load([first], scenario)) });
    await drain(first);
  }
  const second = await startReplica(cluster.url, 'replica-2');
  children.push(second.child);
  for (const scenario of ['find', 'add']) {
    rows.push({ scenario, replicas: 2, ...(await load([first, second], scenario)) });
    await drain(first);
  }
  console.table(rows);
  const rss = [first, second].map((r) => rssMb(r.child.pid));
  console.log(
    `RSS per replica: ${rss.map((m, i) => `replica-${i + 1} ${m.rss.toFixed(0)} MB (peak ${m.peak.toFixed(0)} MB)`).join(', ')}; ` +
      `${SKILLS} skills; ${os.cpus().length} cores shared by the replicas, PostgreSQL and the load generator ` +
      `(load average ${os.loadavg()[0].toFixed(1)} at the end)`,
  );
  const rate = (scenario, n) => rows.find((r) => r.scenario === scenario && r.replicas === n)['req/s'];
  const addScale = rate('add', 2) / rate('add', 1);
  const findScale = rate('find', 2) / rate('find', 1);
  console.log(`2 replicas vs 1: add ${addScale.toFixed(2)}x, find ${findScale.toFixed(2)}x`);
  const goals = [
    [`2 replicas >= 1.6x the add throughput of 1 (${addScale.toFixed(2)}x)`, addScale >= 1.6],
    [
      `RSS <= 300 MB per replica (peak ${Math.max(...rss.map((m) => m.peak)).toFixed(0)} MB)`,
      rss.every((m) => m.peak <= 300),
    ],
    ['no errors or non-2xx', rows.every((r) => r.errors === 0)],
  ];
  for (const [label, ok] of goals) console.log(`${ok ? 'PASS' : 'MISS'}  ${label}`);
} finally {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve())),
    ),
  );
  cluster.stop();
}
