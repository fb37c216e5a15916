// Client overhead against a real server (built packages, SQLite in a temp folder, separate process):
// per-call latency of AsyncHTTPClient and SyncHTTPClient (worker round trip), folder upload, and the
// cold start of the `skillport` binary. Run with `pnpm bench sdk-node` after `pnpm build`.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AsyncHTTPClient } from '@skillport/sdk-node';
import { SyncHTTPClient } from '@skillport/sdk-node/sync';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../..');
const corpus = process.env.SKILLPORT_CORPUS ?? path.resolve(repo, '../shared/corpus');
const cliBin = path.join(repo, 'packages/cli/dist/bin.js');

async function startServer() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'skillport-bench-'));
  const boot = `const { startServer } = await import('@skillport/server');
    const s = await startServer({ port: 0, dataDir: ${JSON.stringify(dataDir)}, logger: false });
    process.stdout.write(JSON.stringify({ url: s.url }) + '\\n');
    process.on('SIGTERM', () => s.close().then(() => process.exit(0)));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', boot], {
    cwd: path.resolve(here, '..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]).url);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    url,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return {
    n: samples.length,
    p50: at(0.5),
    p95: at(0.95),
    mean: samples.reduce((s, x) => s + x, 0) / samples.length,
  };
}

async function time(n, fn) {
  const samples = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await fn(i);
    samples.push(performance.now() - start);
  }
  return stats(samples);
}

const server = await startServer();
const rows = [];
try {
  const client = new AsyncHTTPClient({ url: server.url });
  const sync = new SyncHTTPClient({ url: server.url });
  const folders = readdirSync(path.join(corpus, 'skills'))
    .sort()
    .map((d) => path.join(corpus, 'skills', d));
  rows.push([
    'async addSkill(folder) (zip + temp upload + add)',
    await time(folders.length, (i) => client.addSkill(folders[i]).catch(() => {})),
  ]);
  await client.waitProcessed({ timeout: 120 });
  const queries = [
    'review code changes',
    'draw a diagram',
    'search papers',
    'deploy a policy change',
    'manage browser tabs',
  ];
  rows.push([
    'async findSkills',
    await time(200, (i) => client.findSkills(queries[i % queries.length], { limit: 5 })),
  ]);
  rows.push(['async getSkill (level 0)', await time(200, () => client.getSkill('geomaster', { level: 0 }))]);
  sync.initialize(); // starts the worker once
  rows.push([
    'sync findSkills (worker round trip)',
    await time(200, (i) => sync.findSkills(queries[i % queries.length], { limit: 5 })),
  ]);
  rows.push(['sync getSkill (level 0)', await time(200, () => sync.getSkill('geomaster', { level: 0 }))]);
  const env = { ...process.env, SKILLPORT_URL: server.url };
  rows.push([
    '`skillport --version` (cold start)',
    await time(5, () => spawnSync(process.execPath, [cliBin, '--version'], { env })),
  ]);
  rows.push([
    '`skillport skills list -o json` (cold start)',
    await time(5, () => spawnSync(process.execPath, [cliBin, 'skills', 'list', '-o', 'json'], { env })),
  ]);
  client.close();
  sync.close();
} finally {
  await server.stop();
}

const fmt = (ms) => `${ms.toFixed(1)} ms`;
console.log('| operation | n | p50 | p95 | mean |');
console.log('|---|---:|---:|---:|---:|');
for (const [name, s] of rows)
  console.log(`| ${name} | ${s.n} | ${fmt(s.p50)} | ${fmt(s.p95)} | ${fmt(s.mean)} |`);
process.exit(0);
