// Server benchmark (run by `pnpm bench`, against the built dist/): seeds 10 000 skills into a fresh
// SQLite data folder, starts `dist/main.js` in its own process on loopback, and measures add, get,
// list and find with autocannon, side by side with a bare node:http server answering a fixed JSON
// body (the ceiling). Prints req/s, p50/p99 latency and the server's RSS, then checks the goals:
// get >= 0.4x ceiling req/s, find p99 <= 20 ms (latency: one client at a time; the 10-connection
// row shows throughput and queueing), RSS <= 300 MB.
//
// Env: BENCH_SKILLS (10000), BENCH_SECONDS per scenario (5), BENCH_CONNECTIONS (10).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSkillMd } from '@skillport/core';
import autocannon from 'autocannon';
import { createSqliteStore } from '../dist/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
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

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

function run(options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: SECONDS, ...options }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

function row(label, result) {
  const non2xx = result.non2xx + result.errors;
  return {
    scenario: label,
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
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
  const server = await startChild([path.join(here, '../dist/main.js')], {
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
  rows.push(row('ceiling: bare node:http, fixed JSON', await run({ url: bare.url })));
  rows.push(row('health GET /health (framework floor)', await run({ url: `${server.url}/health` })));

  let n = 0;
  const rand = () => `skill-${String(Math.floor(Math.random() * SKILLS)).padStart(5, '0')}`;
  rows.push(
    row(
      'get  GET /api/v1/skills/{name}',
      await run({
        url: server.url,
        requests: [{ method: 'GET', setupRequest: (r) => ({ ...r, path: `/api/v1/skills/${rand()}` }) }],
      }),
    ),
  );
  rows.push(
    row(
      'get  level=0 (abstract only)',
      await run({
        url: server.url,
        requests: [
          {
            method: 'GET',
            setupRequest: (r) => ({ ...r, path: `/api/v1/skills/${rand()}?level=0&include_files=false` }),
          },
        ],
      }),
    ),
  );
  rows.push(
    row(
      'list GET /api/v1/skills?node_limit=50',
      await run({ url: `${server.url}/api/v1/skills?node_limit=50` }),
    ),
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
  rows.push(row(`find POST /api/v1/skills/find (${CONNECTIONS} conn)`, await run(findRequest())));
  rows.push(row('find POST /api/v1/skills/find (1 conn)', await run({ ...findRequest(), connections: 1 })));
  rows.push(
    row(
      'add  POST /api/v1/skills (inline SKILL.md)',
      await run({
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
    ),
  );
  const mem = rssMb(pid);
  console.table(rows);
  const ceiling = rows[0]['req/s'];
  const get = rows[2]['req/s'];
  const findP99 = rows[6]['p99 ms'];
  console.log(
    `server RSS: ${mem.rss.toFixed(0)} MB now, ${mem.peak.toFixed(0)} MB peak (${SKILLS} skills seeded)`,
  );
  const goals = [
    [`get >= 0.4x ceiling req/s (${(get / ceiling).toFixed(2)}x)`, get >= 0.4 * ceiling],
    [`find p99 <= 20 ms, one client at a time (${findP99} ms)`, findP99 <= 20],
    [`RSS <= 300 MB (peak ${mem.peak.toFixed(0)} MB)`, mem.peak <= 300],
    ['no errors or non-2xx', rows.every((r) => r.errors === 0)],
  ];
  for (const [label, ok] of goals) console.log(`${ok ? 'PASS' : 'MISS'}  ${label}`);
} finally {
  for (const child of children) child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 300));
  rmSync(dataDir, { recursive: true, force: true });
}
