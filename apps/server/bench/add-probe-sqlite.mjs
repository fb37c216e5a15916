// Add probe on SQLite (against a built server): where the CPU of an add or a folder add goes, thread
// by thread. Starts the server's `main.js` on a copy of a data folder, waits until it has had no commit
// for 5 s (the search index merged, the per-term lists caught up), sends a warm-up of 100 adds, then
// `adds` adds over `connections` keep-alive connections and prints one JSON line: adds per second, the
// server process's CPU µs per add (user + system, every thread, including the processing jobs the adds
// left, run to the end) and the same split by thread, from /proc/<pid>/task. A fixed number of adds
// and CPU per add keep the figure steady on a busy machine, where the server bench's 5-second rows
// swing with the load; compare builds by alternating runs.
//
//   node apps/server/bench/add-probe-sqlite.mjs <data folder> [adds=1000] [add|folder] [connections=10]
//
// `<data folder>`: a stopped server's data folder to copy (never written), e.g. a SQLite seed kept by
// the server bench's BENCH_SEED_CACHE (`sqlite-<count>-…`). `add` posts an inline SKILL.md (as the
// server bench's add row), `folder` a zip temp upload then an add of it (its folder add row; the CPU is
// per folder added, both requests). Env: BENCH_ADD_DIST (the built server folder, default ../dist),
// BENCH_ADD_NODE_ARGS (Node options for the server, space-separated, e.g. `--cpu-prof --cpu-prof-dir
// <folder>`), SKILLPORT_CORPUS_LARGE (the SKILL.md corpus, as the server bench).
//
// Threads (`threads`, CPU µs per add): `main` is the HTTP thread; the others are named by their
// offset from it — the first few (+1…+4 here) are V8's platform workers (parallel and concurrent
// garbage collection of every thread's heap, background compiles), later ones the database thread,
// the WAL checkpointer and the worker pool, in the order the server starts them (a profile with
// BENCH_ADD_NODE_ARGS tells them apart).
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { zipSync } from 'fflate';
import { loadTemplates } from './find-queries.mjs';

process.stdout.on('error', () => {});
const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, process.env.BENCH_ADD_DIST ?? '../dist');
const [seedDir, addsArg = '1000', mode = 'add', connectionsArg = '10'] = process.argv.slice(2);
const ADDS = Number(addsArg);
const CONNECTIONS = Number(connectionsArg);
if (
  seedDir === undefined ||
  !existsSync(path.join(seedDir, 'skillport.db')) ||
  !(ADDS > 0) ||
  !(CONNECTIONS > 0) ||
  (mode !== 'add' && mode !== 'folder')
) {
  console.error('usage: add-probe-sqlite.mjs <data folder> [adds=1000] [add|folder] [connections=10]');
  process.exit(2);
}
const WARM_UP = 100;
const corpusDir = process.env.SKILLPORT_CORPUS_LARGE ?? path.resolve(here, '../../../../shared/corpus-large');
const { templates } = loadTemplates(corpusDir);

const dataDir = mkdtempSync(path.join(tmpdir(), 'skillport-add-probe-'));
cpSync(seedDir, dataDir, { recursive: true });
rmSync(path.join(dataDir, 'seeded.json'), { force: true });
const server = spawn(
  process.execPath,
  [...(process.env.BENCH_ADD_NODE_ARGS?.split(' ').filter(Boolean) ?? []), path.join(dist, 'main.js')],
  {
    env: {
      ...process.env,
      SKILLPORT_DATA_DIR: dataDir,
      SKILLPORT_PORT: '0',
      SKILLPORT_HOST: '127.0.0.1',
      SKILLPORT_EMBEDDINGS: process.env.SKILLPORT_EMBEDDINGS ?? 'off',
      // As the server bench: no limit on the number of skills of the account.
      SKILLPORT_ACCOUNT_MAX_SKILLS: process.env.SKILLPORT_ACCOUNT_MAX_SKILLS ?? '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
try {
  const url = await new Promise((resolve, reject) => {
    let out = '';
    server.once('exit', (code) => reject(new Error(`server exited (${code}) before listening`)));
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const found = /"url":"(http:[^"]+)"/.exec(out);
      if (found) {
        server.stdout.removeAllListeners('data');
        server.stdout.resume();
        resolve(found[1]);
      }
    });
  });

  /** CPU ms (user + system) of each thread of the server, by thread id. */
  const threadCpuMs = () => {
    const cpu = new Map();
    for (const tid of readdirSync(`/proc/${server.pid}/task`)) {
      try {
        const stat = readFileSync(`/proc/${server.pid}/task/${tid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        cpu.set(Number(tid), ((Number(fields[11]) + Number(fields[12])) * 1000) / 100);
      } catch {
        // The thread ended between the listing and the read.
      }
    }
    return cpu;
  };

  // Quiet: no commit for 5 s (at most 10 minutes).
  {
    const db = new Database(path.join(dataDir, 'skillport.db'), { readonly: true, fileMustExist: true });
    const version = db.prepare('PRAGMA data_version').pluck();
    const started = performance.now();
    let last = version.get();
    for (let quiet = 0; quiet < 5 && performance.now() - started < 600_000; ) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const now = version.get();
      quiet = now === last ? quiet + 1 : 0;
      last = now;
    }
    db.close();
  }

  /** One request on the keep-alive agent: resolves the body as text, throws on a status other than 200. */
  const send = (urlPath, contentType, body) =>
    new Promise((resolve, reject) => {
      const bytes = typeof body === 'string' ? Buffer.from(body) : body;
      const req = http.request(
        `${url}${urlPath}`,
        { method: 'POST', agent, headers: { 'content-type': contentType, 'content-length': bytes.length } },
        (res) => {
          const chunks = [];
          res.on('data', (chunk) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if (res.statusCode === 200) resolve(text);
            else reject(new Error(`${res.statusCode} ${text.slice(0, 300)}`));
          });
        },
      );
      req.on('error', reject);
      req.end(bytes);
    });
  const enc = new TextEncoder();
  const BOUNDARY = '----skillport-add-probe';
  const skillText = (i, name) =>
    templates[i % templates.length].text.replace(/^name:[^\n]*$/m, `name: ${name}`);
  /** One add (or upload + add) of skill number `i`. */
  const addOne = async (i) => {
    if (mode === 'add') {
      const name = `probe-add-${i}`;
      await send('/api/v1/skills', 'application/json', JSON.stringify({ data: skillText(i, name) }));
      return;
    }
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
    const upload = await send(
      '/api/v1/resources/temp_upload',
      `multipart/form-data; boundary=${BOUNDARY}`,
      Buffer.concat([head, zip, enc.encode(`\r\n--${BOUNDARY}--\r\n`)]),
    );
    const id = JSON.parse(upload).result.temp_file_id;
    await send('/api/v1/skills', 'application/json', JSON.stringify({ temp_file_id: id }));
  };
  /** Adds skills `from` … `from + count - 1` over CONNECTIONS connections. */
  const addMany = async (from, count) => {
    let next = from;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        for (let i = next++; i < from + count; i = next++) await addOne(i);
      }),
    );
  };

  await addMany(1_000_000, WARM_UP);
  const before = threadCpuMs();
  const started = performance.now();
  await addMany(0, ADDS);
  const wall = performance.now() - started;
  // The processing jobs the adds queued (none when the server processes at write time), to the end.
  await send('/api/v1/system/wait', 'application/json', JSON.stringify({ timeout: 600 }));
  const after = threadCpuMs();
  let total = 0;
  const threads = {};
  for (const [tid, ms] of [...after].sort((a, b) => a[0] - b[0])) {
    const spent = ms - (before.get(tid) ?? 0);
    total += spent;
    if (spent > 0)
      threads[tid === server.pid ? 'main' : `+${tid - server.pid}`] = Math.round((spent * 1000) / ADDS);
  }
  console.log(
    JSON.stringify({
      dist: path.relative(process.cwd(), dist) || '.',
      mode,
      adds: ADDS,
      connections: CONNECTIONS,
      addsPerSecond: Number(((ADDS * 1000) / wall).toFixed(1)),
      cpuUsPerAdd: Math.round((total * 1000) / ADDS),
      threads,
      load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    }),
  );
} finally {
  agent.destroy();
  if (server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
}
