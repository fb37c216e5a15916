// Wait probe (against a built server): how long a write that waits for its job (`wait: true`, the CLI's
// `--wait`) takes while one user's bulk add is still being processed. Starts the server's `main.js`
// (SQLite in a temp folder, or PostgreSQL on a throwaway cluster) in dev mode with the bundled local
// embedding model (each job renders the overview and embeds the skill), warms the model up with one
// waited add, then:
//   1. user `bulk` adds `skills` SKILL.md files of the large corpus (8 connections, no wait), as
//      `skillport skills add <folder>` does;
//   2. at once, three more writes: user `bulk` adds one skill with `wait: true` (its own backlog ahead),
//      user `other` adds one with `wait: true`, user `third` adds one without waiting and polls
//      `GET /api/v1/tasks/{id}` until its job is done;
// and prints one JSON line: the seconds each of the three took (from when it was sent), the seconds the
// bulk add took to be accepted, the bulk jobs still pending when the last of the three finished, the
// server's CPU seconds, and the load average. The server is stopped then (the backlog is not drained).
//
//   node apps/server/bench/wait-probe.mjs [skills=2000] [sqlite|postgres]
//
// Env: BENCH_WAIT_DIST (the built server folder, default ../dist), BENCH_WAIT_TIMEOUT (longest wait in
// seconds, default 1800), SKILLPORT_EMBEDDINGS (default `local`), SKILLPORT_CORPUS_LARGE (the corpus).
// Runs last minutes (a job costs ~80 ms of CPU): compare builds by alternating runs.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTemplates } from './find-queries.mjs';

process.stdout.on('error', () => {});
const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, process.env.BENCH_WAIT_DIST ?? '../dist');
const [skillsArg = '2000', engine = 'sqlite'] = process.argv.slice(2);
const SKILLS = Number(skillsArg);
if (!(SKILLS > 0) || (engine !== 'sqlite' && engine !== 'postgres')) {
  console.error('usage: wait-probe.mjs [skills=2000] [sqlite|postgres]');
  process.exit(2);
}
const TIMEOUT_S = Number(process.env.BENCH_WAIT_TIMEOUT ?? 1800);
const CONNECTIONS = 8;
const corpusDir = process.env.SKILLPORT_CORPUS_LARGE ?? path.resolve(here, '../../../../shared/corpus-large');
const { templates } = loadTemplates(corpusDir);

let cluster = null;
if (engine === 'postgres') {
  const helper = new URL('../../../scripts/test-support/postgres-cluster.mjs', import.meta.url);
  const { findPostgresBin, startPostgresCluster } = await import(helper.href);
  if (findPostgresBin() === null) {
    console.error('wait-probe: PostgreSQL binaries not found');
    process.exit(2);
  }
  cluster = await startPostgresCluster({ settings: { shared_buffers: '256MB' } });
}
const dataDir = mkdtempSync(path.join(tmpdir(), 'skillport-wait-probe-'));
/** CPU seconds (user + system) of one process, from /proc. */
const cpuSeconds = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
let server = null;
try {
  server = spawn(process.execPath, [path.join(dist, 'main.js')], {
    env: {
      ...process.env,
      SKILLPORT_DATA_DIR: dataDir,
      ...(cluster ? { SKILLPORT_DATABASE_URL: cluster.url, SKILLPORT_DATABASE_SCHEMA: 'bench' } : {}),
      SKILLPORT_PORT: '0',
      SKILLPORT_HOST: '127.0.0.1',
      SKILLPORT_EMBEDDINGS: process.env.SKILLPORT_EMBEDDINGS ?? 'local',
      SKILLPORT_ACCOUNT_MAX_SKILLS: '0',
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
  const skillText = (i, name) =>
    templates[i % templates.length].text.replace(/^name:[^\n]*$/m, `name: ${name}`);
  /** POST /api/v1/skills as `user`; the parsed result (throws on a non-200 answer). */
  const add = async (user, name, i, wait) => {
    const res = await fetch(`${url}/api/v1/skills`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-openviking-user': user },
      body: JSON.stringify({ data: skillText(i, name), ...(wait ? { wait: true, timeout: TIMEOUT_S } : {}) }),
    });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${name}: ${res.status} ${body.slice(0, 300)}`);
    return JSON.parse(body).result;
  };
  const seconds = (since) => Number(((performance.now() - since) / 1000).toFixed(2));

  await add('warm', 'warm-up', 0, true);
  const cpuBefore = cpuSeconds(server.pid);
  const bulkStarted = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      for (let i = next++; i < SKILLS; i = next++) await add('bulk', `bulk-${i}`, i, false);
    }),
  );
  const bulkAccepted = seconds(bulkStarted);
  const started = performance.now();
  const timed = async (work) => {
    await work();
    return seconds(started);
  };
  const [ownWait, otherWait, otherPolled] = await Promise.all([
    timed(() => add('bulk', 'bulk-waited', SKILLS, true)),
    timed(() => add('other', 'other-waited', SKILLS + 1, true)),
    timed(async () => {
      const { task_id: id } = await add('third', 'third-polled', SKILLS + 2, false);
      for (;;) {
        const res = await fetch(`${url}/api/v1/tasks/${id}`, { headers: { 'x-openviking-user': 'third' } });
        const { result } = await res.json();
        if (result.status === 'completed' || result.status === 'failed') return;
        if (seconds(started) > TIMEOUT_S) throw new Error('third-polled: not processed in time');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }),
  ]);
  const queue = await (
    await fetch(`${url}/api/v1/observer/queue`, { headers: { 'x-openviking-user': 'bulk' } })
  ).json();
  console.log(
    JSON.stringify({
      engine,
      skills: SKILLS,
      bulkAcceptedS: bulkAccepted,
      ownWaitS: ownWait,
      otherWaitS: otherWait,
      otherPolledS: otherPolled,
      bulkPendingAfter: queue.result.pending,
      serverCpuS: Number((cpuSeconds(server.pid) - cpuBefore).toFixed(1)),
      load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    }),
  );
} finally {
  if (server !== null && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await cluster?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
