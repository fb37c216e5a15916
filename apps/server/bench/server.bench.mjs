// Server benchmark (run by `pnpm bench`, against the built dist/): seeds 10 000 skills into a fresh
// SQLite data folder, starts `dist/main.js` in its own process on loopback, and measures add, get,
// list and find with autocannon, side by side with a bare node:http server answering a fixed JSON
// body (the ceiling) and a bare Hono app on @hono/node-server answering the same body (the
// framework floor: what any route of this stack can reach at best). Prints req/s, p50/p99 latency,
// the CPU time the serving process spent per request (user + system, from /proc; steadier than
// req/s on a shared machine, where autocannon and other processes compete for the same cores) and
// the server's RSS, then checks the goals: get >= 0.4x ceiling req/s, find p99 <= 20 ms (with one
// connection and with BENCH_CONNECTIONS), RSS <= 300 MB.
//
// Env: BENCH_SKILLS (10000), BENCH_SECONDS per scenario (5), BENCH_CONNECTIONS (10), BENCH_SERVER_DIST
// (the built server folder to measure, default ../dist: point it at another build of the server to
// compare two versions with the same scenarios).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseSkillMd } from '@skillport/core';
import autocannon from 'autocannon';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, process.env.BENCH_SERVER_DIST ?? '../dist');
const { createSqliteStore } = await import(pathToFileURL(path.join(dist, 'index.js')).href);
const SKILLS = Number(process.env.BENCH_SKILLS ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WORDS = (
  'pdf git docker kubernetes search web browser csv excel email calendar slack linear jira github ' +
  'python rust typescript sql postgres sqlite redis image video audio translate summarize review ' +
  'deploy test lint format refactor debug profile security audit invoice report chart diagram'
).split(' ');
const enc = new TextEncoder();

function word(i, k) {
  return WORDS[(i * 7 + k * 13) % WORDS.length];
}

function skillMd(name, i) {
  const tags = [word(i, 1), word(i, 2)];
  return (
    `---\nname: ${name}\ndescription: Work with ${word(i, 3)} and ${word(i, 4)} files for ${word(i, 5)} tasks\n` +
    `tags: [${tags.join(', ')}]\n---\n\n# ${name}\n\nUse this skill to ${word(i, 6)} ${word(i, 7)} data.\n\n` +
    `## Parameters\n\n- **input** (string, required): the ${word(i, 8)} to process\n\n## Usage\n\n` +
    `Call it when the user asks about ${word(i, 9)} or ${word(i, 10)}.\n`
  );
}

async function seed(dataDir) {
  const store = createSqliteStore({ dataDir });
  await store.ensureAccount('default');
  await store.ensureUser('default', 'default');
  const started = performance.now();
  for (let i = 0; i < SKILLS; i++) {
    const name = `skill-${String(i).padStart(5, '0')}`;
    const text = skillMd(name, i);
    const { skill } = parseSkillMd(text);
    await store.putSkill({
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
    });
  }
  await store.close();
  return performance.now() - started;
}

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

/** Runs one autocannon scenario against the process `pid`; the result carries that process's CPU time. */
async function run(pid, options) {
  const before = cpuMs(pid);
  const result = await new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: SECONDS, ...options }, (error, out) =>
      error ? reject(error) : resolve(out),
    );
  });
  return { ...result, cpuMs: cpuMs(pid) - before };
}

function row(key, label, result) {
  const non2xx = result.non2xx + result.errors;
  return {
    key,
    scenario: label,
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    'cpu µs/req': Math.round((result.cpuMs * 1000) / Math.max(1, result.requests.total)),
    errors: non2xx,
  };
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'skillport-bench-'));
const children = [];
try {
  const seedMs = await seed(dataDir);
  console.log(`seeded ${SKILLS} skills through the store in ${(seedMs / 1000).toFixed(1)} s`);

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
  const server = await startChild([path.join(dist, 'main.js')], {
    SKILLPORT_DATA_DIR: dataDir,
    SKILLPORT_PORT: '0',
    SKILLPORT_HOST: '127.0.0.1',
  });
  children.push(server.child);
  const pid = server.child.pid;

  const drainStarted = performance.now();
  const drained = await fetch(`${server.url}/api/v1/system/wait`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ timeout: 600 }),
  });
  if (!drained.ok) throw new Error(`wait failed: ${drained.status} ${await drained.text()}`);
  console.log(
    `processing jobs (L1 overview) for the seed drained in ${((performance.now() - drainStarted) / 1000).toFixed(1)} s:`,
    JSON.stringify((await drained.json()).result),
  );

  const rows = [];
  const add = (key, label, result) => rows.push(row(key, label, result));
  add('ceiling', 'ceiling: bare node:http, fixed JSON', await run(bare.child.pid, { url: bare.url }));
  add('hono', 'framework: bare Hono + node-server, same JSON', await run(hono.child.pid, { url: hono.url }));
  add('health', 'health GET /health (no store)', await run(pid, { url: `${server.url}/health` }));

  let n = 0;
  const rand = () => `skill-${String(Math.floor(Math.random() * SKILLS)).padStart(5, '0')}`;
  const getPath = (query) => ({
    url: server.url,
    requests: [{ method: 'GET', setupRequest: (r) => ({ ...r, path: `/api/v1/skills/${rand()}${query}` }) }],
  });
  add('get', 'get  GET /api/v1/skills/{name}', await run(pid, getPath('')));
  add('get0', 'get  level=0 (abstract only)', await run(pid, getPath('?level=0&include_files=false')));
  add(
    'list',
    'list GET /api/v1/skills?node_limit=50',
    await run(pid, { url: `${server.url}/api/v1/skills?node_limit=50` }),
  );
  const findRequest = () => ({
    url: server.url,
    requests: [
      {
        method: 'POST',
        path: '/api/v1/skills/find',
        headers: { 'content-type': 'application/json' },
        setupRequest: (r) => ({
          ...r,
          body: JSON.stringify({
            query: `${WORDS[n++ % WORDS.length]} ${WORDS[(n * 5) % WORDS.length]}`,
            limit: 10,
          }),
        }),
      },
    ],
  });
  add(
    'find1',
    'find POST /api/v1/skills/find (1 conn)',
    await run(pid, { ...findRequest(), connections: 1 }),
  );
  add('findN', `find POST /api/v1/skills/find (${CONNECTIONS} conn)`, await run(pid, findRequest()));
  add(
    'add',
    'add  POST /api/v1/skills (inline SKILL.md)',
    await run(pid, {
      url: server.url,
      requests: [
        {
          method: 'POST',
          path: '/api/v1/skills',
          headers: { 'content-type': 'application/json' },
          setupRequest: (r) => {
            const name = `bench-add-${n++}`;
            return { ...r, body: JSON.stringify({ data: skillMd(name, n) }) };
          },
        },
      ],
    }),
  );
  const mem = rssMb(pid);
  const by = Object.fromEntries(rows.map((r) => [r.key, r]));
  console.table(rows.map(({ key, ...rest }) => rest));
  const ratio = (key, base) => (by[key]['req/s'] / by[base]['req/s']).toFixed(2);
  console.log(
    `server RSS: ${mem.rss.toFixed(0)} MB now, ${mem.peak.toFixed(0)} MB peak (${SKILLS} skills seeded)`,
  );
  console.log(
    `req/s relative to the ceiling: framework floor ${ratio('hono', 'ceiling')}x, health ${ratio('health', 'ceiling')}x, ` +
      `get ${ratio('get', 'ceiling')}x (get is ${ratio('get', 'hono')}x of the framework floor)`,
  );
  const goals = [
    [`get >= 0.4x ceiling req/s (${ratio('get', 'ceiling')}x)`, by.get['req/s'] >= 0.4 * by.ceiling['req/s']],
    [`find p99 <= 20 ms, 1 connection (${by.find1['p99 ms']} ms)`, by.find1['p99 ms'] <= 20],
    [`find p99 <= 20 ms, ${CONNECTIONS} connections (${by.findN['p99 ms']} ms)`, by.findN['p99 ms'] <= 20],
    [`RSS <= 300 MB (peak ${mem.peak.toFixed(0)} MB)`, mem.peak <= 300],
    ['no errors or non-2xx', rows.every((r) => r.errors === 0)],
  ];
  for (const [label, ok] of goals) console.log(`${ok ? 'PASS' : 'MISS'}  ${label}`);
} finally {
  for (const child of children) child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 300));
  rmSync(dataDir, { recursive: true, force: true });
}
